// @ts-check
// A wallet's overview: allocation and liquidity charts, yield, and the deposit addresses.
import { request } from "../api.js";
import { allocationChart, liquidityChart } from "../charts.js";
import { copyButton } from "../copy.js";
import { card, facts, fillIfChanged, h, timeOf } from "../dom.js";
import { usd } from "../format.js";
import { servicePaths } from "../paths.js";
import { loading } from "./common.js";
import { walletDepositControl } from "./controls/deposit.js";
import { walletHistory } from "./walletHistory.js";

/**
 * @param {import("./common.js").ViewContext} ctx
 * @param {string} walletId
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletOverview(ctx, walletId) {
  const depositControl = walletDepositControl("overview-deposit", () => ctx.refreshNow());
  const history = walletHistory(walletId);
  const allocation = h("div", { class: "region" }, loading("…"));
  const liquidity = h("div", { class: "region" }, loading("…"));
  const yields = h("div", { class: "region" }, loading("…"));
  const addresses = h("div", { class: "region" }, loading("…"));
  const element = h(
    "div",
    { class: "grid two" },
    card("Allocation", allocation, { id: "allocation-heading" }),
    h(
      "div",
      { class: "stack-lg" },
      card("Liquidity profile", liquidity, { id: "liquidity-heading" }),
      card("Yield", yields, { id: "yield-heading" }),
    ),
    card(
      "Over time",
      [
        h(
          "p",
          { class: "hint" },
          "Balance and weights replayed from the wallet's ledger on the sandbox clock (a step at each booking), ending with the wallet as read now; yield generated as the service reports it over the same time (POST /v2/portfolio-wallets/yield with each moment as the period's end).",
        ),
        history.element,
      ],
      { id: "history-heading", className: "span-2" },
    ),
    card("Deposit addresses", [depositControl.element, addresses], {
      id: "addresses-heading",
      className: "span-2",
    }),
  );

  return {
    element,
    async refresh(wallet) {
      depositControl.update(wallet);
      const positions = Array.isArray(wallet.positions) ? wallet.positions : [];
      fillIfChanged(allocation, JSON.stringify(positions), () => [
        h(
          "p",
          { class: "hint" },
          wallet.totalBalanceUsd > 0
            ? "Actual weight of each yield source against its target; drift is actual minus target, in percentage points."
            : "No funds yet: every position is at 0 and drifts by its whole target until a deposit is invested.",
        ),
        allocationChart(positions),
      ]);
      const profile = Array.isArray(wallet.liquidityProfile) ? wallet.liquidityProfile : [];
      fillIfChanged(liquidity, JSON.stringify(profile), () => [
        h(
          "p",
          { class: "hint" },
          "The share of the wallet that can be withdrawn within each processing time.",
        ),
        liquidityChart(profile),
      ]);

      // From this wallet's creation: a lifetime period starts at the organization's first wallet,
      // which is not this wallet's life (the figures are the same; the date it names is not).
      const { body: metrics } = await request("POST", servicePaths.yieldMetrics, {
        body: { portfolioWalletIds: [walletId], periodStartIso: wallet.createdAt },
      });
      const own = metrics?.portfolioWallets?.[walletId] ?? {};
      fillIfChanged(yields, JSON.stringify([own, metrics?.period?.start]), () => [
        facts([
          ["Generated", h("span", { "data-yield": "generated" }, usd(own.generated))],
          ["Withdrawn", h("span", { "data-yield": "withdrawn" }, usd(own.withdrawn))],
          ["Accrued (held)", h("span", { "data-yield": "accruedDelta" }, usd(own.accruedDelta))],
        ]),
        h(
          "p",
          { class: "hint", "data-yield-since": metrics?.period?.start ?? "" },
          "Since the wallet was created, ",
          timeOf(metrics?.period?.start),
          " (sandbox time). From POST /v2/portfolio-wallets/yield.",
        ),
      ]);

      await history.refresh(wallet, own.generated, ctx.now());

      const chains = Object.entries(wallet.depositAddresses ?? {});
      fillIfChanged(addresses, JSON.stringify(chains), () =>
        h(
          "div",
          { class: "table-scroll", role: "region", "aria-label": "Deposit addresses", tabindex: 0 },
          h(
            "table",
            { class: "data-table compact addresses-table cards-narrow" },
            h("caption", { class: "visually-hidden" }, "Deposit address per chain"),
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ["Chain", "Address", "Received", "Pending allocation", ""].map((column) =>
                  h(
                    "th",
                    { scope: "col" },
                    column === "" ? h("span", { class: "visually-hidden" }, "Copy") : column,
                  ),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              chains.map(([chain, entry]) => {
                const address = h("code", { class: "address" }, String(entry?.address ?? ""));
                return h(
                  "tr",
                  { "data-chain": chain },
                  h("th", { scope: "row" }, chain),
                  h("td", { "data-label": "Address" }, address),
                  h("td", { class: "num", "data-label": "Received" }, usd(entry?.totalBalanceUsd)),
                  h(
                    "td",
                    { class: "num", "data-label": "Pending allocation" },
                    usd(entry?.pendingAllocationsUsd),
                  ),
                  h(
                    "td",
                    { class: "copy-cell" },
                    copyButton({
                      text: () => String(entry?.address ?? ""),
                      selectable: address,
                      what: `${chain} deposit address`,
                    }),
                  ),
                );
              }),
            ),
          ),
        ),
      );
    },
  };
}
