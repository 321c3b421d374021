// @ts-check
// The organization's wallets: balance, blended rate and the largest drift of each.
import { request } from "../api.js";
import { facts, fillIfChanged, h, table, timeOf } from "../dom.js";
import { drift, percent, usd, walletName, when } from "../format.js";
import { wholeId } from "./ids.js";
import { servicePaths } from "../paths.js";
import { link, loading, pageHeader } from "./common.js";

const PAGE_SIZE = 100;

/**
 * The position furthest from its target, or null while the wallet holds nothing (its positions
 * then report a drift of minus their whole target, docs/spec-gaps.md "Empty wallet figures").
 * @param {import("../payloads.js").PortfolioWallet} wallet
 */
export function largestDrift(wallet) {
  if (!(wallet.totalBalanceUsd > 0) || !Array.isArray(wallet.positions)) return null;
  /** @type {{ positionKey: string, driftBps: number } | null} */
  let largest = null;
  for (const position of wallet.positions) {
    if (typeof position?.driftBps !== "number") continue;
    if (largest === null || Math.abs(position.driftBps) > Math.abs(largest.driftBps)) largest = position;
  }
  return largest;
}

/**
 * The largest drift in words: the source furthest from its target, "on target" when none is off
 * by a visible amount (naming a source then would suggest it drifts), "no funds yet" while empty.
 * @param {import("../payloads.js").PortfolioWallet} wallet
 * @returns {import("../dom.js").Children}
 */
export function largestDriftText(wallet) {
  const largest = largestDrift(wallet);
  if (largest === null) return h("span", { class: "muted" }, "— no funds yet");
  if (drift(largest.driftBps) === drift(0)) return h("span", { "data-drift": "none" }, "none: on target");
  return h(
    "span",
    { "data-drift": largest.positionKey },
    `${drift(largest.driftBps)} `,
    h("span", { class: "muted" }, `(${largest.positionKey})`),
  );
}

/** @type {import("./common.js").ViewFactory} */
export function walletsView(main) {
  const list = h("div", { class: "region" }, loading("Reading the wallets…"));
  const totals = h("div", { class: "region" });
  /** @type {string | null} */
  let moreCursor = null;
  let pages = 1;
  const more = h("button", { type: "button", class: "button", hidden: true }, "Show more wallets");

  main.replaceChildren(
    pageHeader("Wallets", {
      sub: "Every portfolio wallet of your organization, newest first.",
      actions: link("/wallets/new", "Create a wallet", { class: "button primary" }),
    }),
    h("section", { class: "totals", "aria-label": "Organization totals" }, totals),
    h(
      "section",
      { class: "card flush", "aria-label": "Wallets" },
      list,
      h("div", { class: "card-foot" }, more),
    ),
  );

  async function refresh() {
    /** @type {import("../payloads.js").PortfolioWallet[]} */
    const wallets = [];
    /** @type {string | null} */
    let cursor = null;
    for (let page = 0; page < pages; page += 1) {
      const { body } = await request(
        "GET",
        servicePaths.wallets({ pageSize: PAGE_SIZE, cursor: cursor === null ? undefined : cursor }),
      );
      wallets.push(...(Array.isArray(body?.data) ? body.data : []));
      cursor = typeof body?.nextCursor === "string" ? body.nextCursor : null;
      if (cursor === null) break;
    }
    moreCursor = cursor;
    more.hidden = moreCursor === null;
    // The organization's yield over its life (POST /v2/portfolio-wallets/yield, every wallet).
    const { body: metrics } = await request("POST", servicePaths.yieldMetrics, { body: {} });
    const sum = (/** @type {string} */ field) =>
      Math.round(wallets.reduce((acc, wallet) => acc + (Number(wallet[field]) || 0), 0) * 1e6) / 1e6;
    const figures = {
      totalBalanceUsd: sum("totalBalanceUsd"),
      instantWithdrawableUsd: sum("instantWithdrawableUsd"),
      generated: metrics?.global?.generated,
      withdrawn: metrics?.global?.withdrawn,
    };
    fillIfChanged(totals, JSON.stringify([figures, wallets.length, moreCursor === null]), () => [
      facts(
        [
          [
            "Total balance",
            h(
              "span",
              { "data-total": "totalBalanceUsd", "data-value": figures.totalBalanceUsd },
              usd(figures.totalBalanceUsd),
            ),
          ],
          [
            "Instantly withdrawable",
            h("span", { "data-total": "instantWithdrawableUsd" }, usd(figures.instantWithdrawableUsd)),
          ],
          [
            "Yield generated",
            h("span", { "data-total": "generated", "data-value": figures.generated }, usd(figures.generated)),
          ],
          ["Yield withdrawn", h("span", { "data-total": "withdrawn" }, usd(figures.withdrawn))],
          ["Wallets", String(wallets.length) + (moreCursor === null ? "" : "+")],
        ],
        "stats",
      ),
      h(
        "p",
        { class: "hint" },
        moreCursor === null
          ? `Balances summed over the organization's wallets; yield over their life, since ${when(metrics?.period?.start)}.`
          : "Balances summed over the wallets shown (show more to count the rest); yield over every wallet's life.",
      ),
    ]);
    fillIfChanged(list, JSON.stringify(wallets), () =>
      wallets.length === 0
        ? h(
            "div",
            { class: "empty" },
            h("p", {}, "No wallets yet in this organization."),
            h(
              "p",
              {},
              link("/wallets/new", "Create the first wallet"),
              " and fund it with a simulated deposit.",
            ),
          )
        : table({
            caption: `${wallets.length} wallet${wallets.length === 1 ? "" : "s"}`,
            captionHidden: true,
            className: "data-table wallets-table",
            columns: [
              "Wallet",
              "Balance",
              "Instantly withdrawable",
              "Pending allocation",
              "Blended rate",
              "Largest drift",
              "Created",
            ],
            rows: wallets.map((wallet) => {
              return [
                h(
                  "span",
                  { class: "stacked" },
                  link(`/wallets/${wallet.id}`, walletName(wallet), { class: "free-text" }),
                  wholeId(wallet.id, "wallet id"),
                ),
                h(
                  "span",
                  { class: "num", "data-balance": wallet.totalBalanceUsd },
                  usd(wallet.totalBalanceUsd),
                ),
                h("span", { class: "num" }, usd(wallet.instantWithdrawableUsd)),
                h("span", { class: "num" }, usd(wallet.pendingAllocationsUsd)),
                h("span", { class: "num" }, percent(wallet.blendedRateBps)),
                largestDriftText(wallet),
                h("span", { class: "small" }, timeOf(wallet.createdAt)),
              ];
            }),
            rowAttrs: (index) => ({ "data-wallet-id": wallets[index]?.id }),
          }),
    );
  }

  more.addEventListener("click", () => {
    pages += 1;
    void refresh();
  });
  return { title: "Wallets", refresh };
}
