// @ts-check
// Sandbox controls: the admin API (/_sandbox/*) as forms, one module each under controls/. Each
// shows the request it sent and the answer, so the page teaches the calls a test would make.
import { request } from "../api.js";
import { card, fill, h } from "../dom.js";
import { walletName, when } from "../format.js";
import { servicePaths } from "../paths.js";
import { failure, loading, pageHeader } from "./common.js";
import { adminTokenControl } from "./controls/adminToken.js";
import { armedFaults } from "./controls/armedFaults.js";
import { armFaultControl } from "./controls/armFault.js";
import { clockControls } from "./controls/clock.js";
import { depositForm } from "./controls/deposit.js";
import { policyControl } from "./controls/policy.js";
import { rateControl } from "./controls/rate.js";
import { snapshotControls } from "./controls/snapshots.js";

/** @type {import("./common.js").ViewFactory} */
export function controlsView(main, ctx, _params, query) {
  const depositRegion = h("div", { class: "region" }, loading("Reading the wallets…"));
  const clockNow = h("p", { class: "clock-now" });
  const rateRegion = h("div", { class: "region" }, loading("Reading the catalog…"));
  const policyRegion = h(
    "div",
    { class: "region" },
    policyControl(() => ctx.refreshNow()),
  );
  const faultRegion = h("div", { class: "region" }, loading("Reading the wallets…"));
  const armed = h("div", { class: "region" });

  main.replaceChildren(
    pageHeader("Sandbox controls", {
      sub: "The sandbox's admin API: simulate deposits, move the clock, change rates, set approval policies, arm faults, and save, restore, export and import its data. Each control shows the request it sent.",
    }),
    h(
      "div",
      { class: "stack-lg" },
      card("Admin token", adminTokenControl(), { id: "admin-heading" }),
      h(
        "div",
        { class: "grid two" },
        card("Simulate a deposit", depositRegion, { id: "deposit-control-heading" }),
        card("Sandbox clock", [clockNow, clockControls(() => ctx.refreshNow())], { id: "clock-heading" }),
        card("Yield source rate", rateRegion, { id: "rate-heading" }),
        card("Approval policy", policyRegion, { id: "policy-heading" }),
        card("Arm a fault", [faultRegion, armed], { id: "fault-heading", className: "span-2" }),
        card(
          "Snapshots",
          snapshotControls(() => ctx.refreshNow()),
          { id: "snapshots-heading", className: "span-2" },
        ),
      ),
    ),
  );

  /** @type {import("../payloads.js").PortfolioWallet[]} */
  let knownWallets = [];
  const armedList = armedFaults(
    () => ctx.refreshNow(),
    () => new Map(knownWallets.map((wallet) => [String(wallet.id), walletName(wallet)])),
  );
  fill(armed, armedList.element);
  const renderArmed = () => armedList.refresh();

  void (async () => {
    /** @type {import("../payloads.js").PortfolioWallet[]} */
    let wallets = [];
    /** @type {import("../payloads.js").StrategyCatalogEntry[]} */
    let catalog = [];
    try {
      const [{ body: walletPage }, { body: strategies }] = await Promise.all([
        request("GET", servicePaths.wallets({ pageSize: 100 })),
        request("GET", servicePaths.strategies),
      ]);
      wallets = Array.isArray(walletPage?.data) ? walletPage.data : [];
      catalog = Array.isArray(strategies?.strategies) ? strategies.strategies : [];
    } catch (error) {
      for (const region of [depositRegion, rateRegion, faultRegion]) fill(region, failure(error));
      return;
    }
    const wanted = query.get("wallet");
    knownWallets = wallets;
    if (wallets.length === 0) {
      fill(
        depositRegion,
        h("p", { class: "muted" }, "Create a wallet first: deposits go to a wallet's deposit address."),
      );
    } else {
      fill(
        depositRegion,
        h("p", { class: "hint" }, "As if stablecoins had arrived on chain at the wallet's deposit address."),
        depositForm(wallets, { selected: wanted, idPrefix: "deposit", after: () => ctx.refreshNow() }),
      );
    }
    fill(
      rateRegion,
      rateControl(catalog, () => ctx.refreshNow()),
    );
    fill(
      faultRegion,
      armFaultControl(wallets, wanted, () => void renderArmed()),
    );
    void renderArmed();
  })();

  return {
    title: "Sandbox controls",
    async refresh() {
      const now = ctx.now();
      const text = now === null ? "" : `Sandbox time: ${when(now)}`;
      if (clockNow.textContent !== text) clockNow.textContent = text;
      await renderArmed();
    },
  };
}
