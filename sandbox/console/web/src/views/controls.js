// @ts-check
// Sandbox controls: the admin API (/_sandbox/*) as forms. Each shows the request it sent and the
// answer, so the page teaches the calls a test would make.
import { request } from "../api.js";
import { card, fieldValue, fill, h } from "../dom.js";
import { durationLabel, percent, walletName, when } from "../format.js";
import { requestLog, runLogged } from "../requestLog.js";
import { session, setAdminToken } from "../session.js";
import { failure, loading, pageHeader } from "./common.js";
import { armedFaults } from "./controls/armedFaults.js";
import { clockControls } from "./controls/clock.js";
import { depositForm } from "./controls/deposit.js";
import { actionForm, field } from "./controls/forms.js";

/** @type {import("./common.js").ViewFactory} */
export function controlsView(main, ctx, _params, query) {
  const adminRegion = h("div", { class: "region" });
  const depositRegion = h("div", { class: "region" }, loading("Reading the wallets…"));
  const clockNow = h("p", { class: "clock-now" });
  const rateRegion = h("div", { class: "region" }, loading("Reading the catalog…"));
  const policyRegion = h("div", { class: "region" });
  const faultRegion = h("div", { class: "region" }, loading("Reading the wallets…"));
  const armed = h("div", { class: "region" });

  function renderAdmin() {
    const mode = session()?.adminApi ?? "token";
    if (mode === "open") {
      fill(
        adminRegion,
        h(
          "p",
          { class: "notice" },
          "This sandbox's admin API is open to API tokens (an in-process test sandbox): the controls need no admin token.",
        ),
      );
      return;
    }
    if (mode === "off") {
      fill(
        adminRegion,
        h(
          "p",
          { class: "notice notice-bad" },
          "This sandbox's admin API is off, so every control below is refused (403). Start the sandbox with ",
          h("code", {}, "--admin-token <token>"),
          " (or SANDBOX_ADMIN_TOKEN) to use them.",
        ),
      );
      return;
    }
    const has = (session()?.adminToken ?? null) !== null;
    const log = requestLog("Admin token check");
    const input = h("input", {
      name: "adminToken",
      type: "password",
      autocomplete: "off",
      spellcheck: "false",
    });
    const form = h(
      "form",
      { class: "inline-form" },
      field(
        "controls-admin-token",
        has ? "Replace the admin token" : "Admin token",
        input,
        "The token the sandbox was started with: --admin-token or SANDBOX_ADMIN_TOKEN. Sent as X-Sandbox-Admin-Token on the calls below.",
      ),
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "submit", class: "button primary" }, "Use this token"),
        has
          ? h(
              "button",
              {
                type: "button",
                class: "button",
                onClick: () => {
                  setAdminToken(null);
                  renderAdmin();
                },
              },
              "Forget the admin token",
            )
          : null,
      ),
      log.element,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const token = fieldValue(form, "adminToken");
      if (token === "") return;
      const previous = session()?.adminToken ?? null;
      setAdminToken(token);
      input.value = "";
      const ok = await runLogged(log, async (call) => {
        await call(request("GET", "/_sandbox/clock", { admin: true }));
        return "The sandbox accepted the admin token.";
      });
      if (!ok) setAdminToken(previous);
      else renderAdmin();
    });
    fill(
      adminRegion,
      h(
        "p",
        { class: has ? "notice notice-good" : "notice" },
        has
          ? "An admin token is set for this tab."
          : "No admin token yet: the calls below will be refused until you give it.",
      ),
      form,
    );
  }

  main.replaceChildren(
    pageHeader("Sandbox controls", {
      sub: "The sandbox's admin API: simulate deposits, move the clock, change rates, set approval policies and arm faults. Each control shows the request it sent.",
    }),
    h(
      "div",
      { class: "stack-lg" },
      card("Admin token", adminRegion, { id: "admin-heading" }),
      h(
        "div",
        { class: "grid two" },
        card("Simulate a deposit", depositRegion, { id: "deposit-control-heading" }),
        card("Sandbox clock", [clockNow, clockControls(() => ctx.refreshNow())], { id: "clock-heading" }),
        card("Yield source rate", rateRegion, { id: "rate-heading" }),
        card("Approval policy", policyRegion, { id: "policy-heading" }),
        card("Arm a fault", [faultRegion, armed], { id: "fault-heading", className: "span-2" }),
      ),
    ),
  );
  renderAdmin();
  renderPolicy();

  function renderPolicy() {
    const strategy = h("input", {
      name: "strategyUpdateApprovals",
      type: "number",
      min: 0,
      max: 10,
      step: 1,
      value: 0,
    });
    const withdrawal = h("input", {
      name: "withdrawalApprovals",
      type: "number",
      min: 0,
      max: 10,
      step: 1,
      value: 0,
    });
    const form = actionForm(
      "Save policy",
      [
        field("policy-strategy", "Approvals per strategy update", strategy),
        field("policy-withdrawal", "Approvals per withdrawal", withdrawal),
      ],
      async (current, call) => {
        const { body } = await call(
          request("PUT", "/_sandbox/policy", {
            admin: true,
            body: {
              strategyUpdateApprovals: Number(fieldValue(current, "strategyUpdateApprovals")),
              withdrawalApprovals: Number(fieldValue(current, "withdrawalApprovals")),
            },
          }),
        );
        return `Policy saved: ${body?.strategyUpdateApprovals} approval(s) per strategy update, ${body?.withdrawalApprovals} per withdrawal. It applies to operations requested from now on.`;
      },
      () => ctx.refreshNow(),
    );
    fill(
      policyRegion,
      h(
        "p",
        { class: "hint" },
        "How many approvers must sign before a strategy update or a withdrawal of your organization proceeds (0: none).",
      ),
      form,
    );
    request("GET", "/_sandbox/policy", { admin: true })
      .then(({ body }) => {
        strategy.value = String(body?.strategyUpdateApprovals ?? 0);
        withdrawal.value = String(body?.withdrawalApprovals ?? 0);
      })
      .catch(() => {
        // Without the admin token the current policy is unknown; saving shows the refusal.
      });
  }

  /** @type {any[]} */
  let knownWallets = [];
  const armedList = armedFaults(
    () => ctx.refreshNow(),
    () => new Map(knownWallets.map((wallet) => [String(wallet.id), walletName(wallet)])),
  );
  fill(armed, armedList.element);
  const renderArmed = () => armedList.refresh();

  void (async () => {
    let wallets = [];
    let catalog = [];
    try {
      const [{ body: walletPage }, { body: strategies }] = await Promise.all([
        request("GET", "/v2/portfolio-wallets?pageSize=100"),
        request("GET", "/v2/portfolio-wallets/strategies"),
      ]);
      wallets = Array.isArray(walletPage?.data) ? walletPage.data : [];
      catalog = Array.isArray(strategies?.strategies) ? strategies.strategies : [];
    } catch (error) {
      for (const region of [depositRegion, rateRegion, faultRegion]) fill(region, failure(error));
      return;
    }
    const wanted = query.get("wallet");
    const walletOptions = () =>
      wallets.map((/** @type {any} */ wallet) =>
        h("option", { value: wallet.id, selected: wallet.id === wanted }, walletName(wallet)),
      );

    knownWallets = wallets;
    // Simulate a deposit.
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

    // Yield source rate.
    const sourceSelect = h(
      "select",
      { name: "positionKey" },
      catalog.map((/** @type {any} */ source) =>
        h(
          "option",
          { value: source.positionKey },
          `${source.displayName ?? source.positionKey} (${percent(source.currentRateBps)}, ${durationLabel(source.maxProcessingTime)})`,
        ),
      ),
    );
    const rate = h("input", {
      name: "rate",
      type: "number",
      min: 0,
      step: 1,
      value: catalog[0]?.currentRateBps ?? 0,
      required: true,
    });
    sourceSelect.addEventListener("change", () => {
      rate.value = String(
        catalog.find((/** @type {any} */ source) => source.positionKey === sourceSelect.value)
          ?.currentRateBps ?? 0,
      );
    });
    fill(
      rateRegion,
      h(
        "p",
        { class: "hint" },
        "Accrual follows the new rate from now on. The catalog is shared by every organization.",
      ),
      actionForm(
        "Set rate",
        [
          field("rate-source", "Yield source", sourceSelect),
          field("rate-bps", "Rate (bps)", rate, "430 bps = 4.30% a year"),
        ],
        async (current, call) => {
          const key = fieldValue(current, "positionKey");
          const { body } = await call(
            request("PUT", `/_sandbox/catalog/${encodeURIComponent(key)}/rate`, {
              admin: true,
              body: { currentRateBps: Number(fieldValue(current, "rate")) },
            }),
          );
          const entry = catalog.find((/** @type {any} */ source) => source.positionKey === key);
          if (entry) entry.currentRateBps = body?.currentRateBps;
          return `${key} now earns ${percent(body?.currentRateBps)}, from ${when(body?.rateUpdatedAt)}.`;
        },
        () => ctx.refreshNow(),
      ),
    );

    // Faults.
    const kind = h(
      "select",
      { name: "kind" },
      h("option", { value: "leg" }, "A payout leg of the next withdrawal fails"),
      h("option", { value: "strategy" }, "The next strategy update fails"),
      h("option", { value: "http" }, "API requests are answered with an error"),
    );
    const faultWallet = h("select", { name: "wallet" }, walletOptions());
    const legKey = h(
      "select",
      { name: "legKey" },
      h("option", { value: "redeem" }, "redeem (and redeem_*)"),
      h("option", { value: "instant" }, "instant"),
    );
    const reason = h("input", {
      name: "reason",
      type: "text",
      value: "payout failed (injected from the console)",
      maxlength: 500,
    });
    const method = h(
      "select",
      { name: "method" },
      ["*", "GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => h("option", { value: m }, m)),
    );
    const path = h("input", {
      name: "path",
      type: "text",
      value: "/v2/portfolio-wallets/:id/withdraw",
      class: "mono",
      spellcheck: "false",
    });
    const status = h(
      "select",
      { name: "status" },
      [503, 500, 429, 502, 504].map((code) => h("option", { value: code }, String(code))),
    );
    const times = h("input", { name: "times", type: "number", min: 1, max: 1000, step: 1, value: 1 });
    // Built on each change: a control moves into the wrapper its field makes.
    const groups = {
      leg: () => [
        field("fault-wallet", "Wallet", faultWallet),
        field("fault-leg", "Leg", legKey),
        h("div", { class: "span-all" }, field("fault-reason", "Reason", reason)),
      ],
      strategy: () => [
        field("fault-wallet", "Wallet", faultWallet),
        h("div", { class: "span-all" }, field("fault-reason", "Reason", reason)),
      ],
      http: () => [
        field("fault-method", "Method", method),
        field("fault-status", "Status", status),
        h(
          "div",
          { class: "span-all" },
          field("fault-path", "Path pattern", path, ":name matches one path segment, * any characters"),
        ),
        field("fault-times", "Times", times),
      ],
    };
    const slot = h("div", { class: "form-grid span-all fault-fields" });
    const showKind = () =>
      fill(slot, (groups[/** @type {"leg" | "strategy" | "http"} */ (kind.value)] ?? groups.leg)());
    kind.addEventListener("change", showKind);
    showKind();
    fill(
      faultRegion,
      h(
        "p",
        { class: "hint" },
        "Faults act on your organization only, on the requests or operations they name, in the order armed. The console's own reads never trigger them.",
      ),
      actionForm(
        "Arm fault",
        [h("div", { class: "span-all" }, field("fault-kind", "Fault", kind)), slot],
        async (current, call) => {
          const chosen = fieldValue(current, "kind");
          if (chosen === "http") {
            await call(
              request("POST", "/_sandbox/faults", {
                admin: true,
                body: {
                  method: fieldValue(current, "method"),
                  path: fieldValue(current, "path"),
                  kind: "status",
                  status: Number(fieldValue(current, "status")),
                  times: Number(fieldValue(current, "times")),
                },
              }),
            );
            return "Fault armed: matching API requests of your organization are answered with that error, without being applied.";
          }
          const walletId = fieldValue(current, "wallet");
          if (chosen === "strategy") {
            await call(
              request("POST", "/_sandbox/faults/strategy-update", {
                admin: true,
                body: { walletId, reason: fieldValue(current, "reason") },
              }),
            );
            return "Fault armed: the wallet's next strategy update fails after its rebalance delay.";
          }
          await call(
            request("POST", "/_sandbox/faults/withdrawal-leg", {
              admin: true,
              body: {
                walletId,
                legKey: fieldValue(current, "legKey"),
                reason: fieldValue(current, "reason"),
              },
            }),
          );
          return "Fault armed: that leg of the wallet's next withdrawal fails when due, and its money returns to the wallet.";
        },
        () => void renderArmed(),
      ),
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
