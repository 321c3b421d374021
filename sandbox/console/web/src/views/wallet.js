// @ts-check
// A wallet's page: its figures, then one of five sections (overview, deposits, withdrawals,
// strategy updates, statement), each a path of its own so it can be linked and reloaded.
import { UUID_PATTERN } from "../../../../../sdk/nodejs/contract/uuid.ts";
import { facts, fillIfChanged, h, statusPill, timeOf } from "../dom.js";
import { percent, usd, walletName } from "../format.js";
import { wholeId } from "./ids.js";
import { servicePaths } from "../paths.js";
import { session } from "../session.js";
import { link, loading, notFoundView, pageHeader } from "./common.js";
import { itemFocus, nothingOf, readFound } from "./itemLinks.js";
import { walletDeposits } from "./walletDeposits.js";
import { walletOverview } from "./walletOverview.js";
import { walletStatement } from "./walletStatement.js";
import { walletStrategy } from "./walletStrategy.js";
import { walletWithdrawals } from "./walletWithdrawals.js";
import { largestDrift, largestDriftText } from "./wallets.js";

/**
 * A section of the wallet page: built once, refreshed with every fresh read of the wallet.
 * @typedef {object} WalletSection
 * @property {HTMLElement} element
 * @property {(wallet: import("../payloads.js").PortfolioWallet) => Promise<void>} refresh
 */

/**
 * Each section's path, and the kind of item whose id may follow it (/wallets/{id}/deposits/{depositId}):
 * the section then picks that item out (itemLinks.js).
 * @type {{ path: string, title: string, make: (ctx: import("./common.js").ViewContext, walletId: string, focus: ReturnType<typeof itemFocus>) => WalletSection, item: { kind: string, attribute: string } | null }[]}
 */
const SECTIONS = [
  { path: "", title: "Overview", make: walletOverview, item: null },
  {
    path: "deposits",
    title: "Deposits",
    make: walletDeposits,
    item: { kind: "deposit", attribute: "data-deposit-id" },
  },
  {
    path: "withdrawals",
    title: "Withdrawals",
    make: walletWithdrawals,
    item: { kind: "withdrawal", attribute: "data-withdrawal-id" },
  },
  {
    path: "strategy",
    title: "Strategy updates",
    make: walletStrategy,
    item: { kind: "strategy_update", attribute: "data-update-id" },
  },
  { path: "statement", title: "Statement", make: walletStatement, item: null },
];

/** @type {import("./common.js").ViewFactory} */
export function walletView(main, ctx, params) {
  const walletId = params[0] ?? "";
  const sectionPath = params[1] ?? "";
  const itemId = params[2] === undefined || params[2] === "" ? null : params[2];
  const section = SECTIONS.find((candidate) => candidate.path === sectionPath);
  const organization = session()?.organizationId ?? "your organization";
  // An item's address under another organization's wallet says only that nothing of the item's id
  // is here: the wallet's absence is no news about the item.
  const notFound = () =>
    itemId === null
      ? notFoundView(
          main,
          "Wallet not found",
          `There is no wallet ${walletId} in organization ${organization}. The console shows the wallets of the organization your API token belongs to, and no other.`,
        )
      : notFoundView(main, "Not found", nothingOf(itemId));
  if (!UUID_PATTERN.test(walletId) || section === undefined || (itemId !== null && section.item === null))
    return notFound();

  const heading = h("div", {}, pageHeader("Wallet", { kicker: link("/wallets", "Wallets") }));
  const summary = h("div", { class: "region" }, loading("Reading the wallet…"));
  const tabs = h(
    "nav",
    { class: "tabs", "aria-label": "Wallet sections" },
    SECTIONS.map((candidate) =>
      link(`/wallets/${walletId}${candidate.path === "" ? "" : `/${candidate.path}`}`, candidate.title, {
        class: "tab",
        "aria-current": candidate === section ? "page" : null,
      }),
    ),
  );
  const focus = itemFocus(itemId, section.item?.attribute ?? "", section.item?.kind ?? "");
  const body = section.make(ctx, walletId, focus);
  main.replaceChildren(heading, summary, tabs, focus.notice, body.element);

  let gone = false;
  async function refresh() {
    if (gone) return;
    const wallet = await readFound(servicePaths.wallet(walletId));
    if (wallet === null) {
      gone = true;
      notFound();
      return;
    }
    const name = walletName(wallet);
    if (document.title !== `${name} · Sandbox console`) document.title = `${name} · Sandbox console`;
    fillIfChanged(heading, JSON.stringify([name, wallet.id, wallet.status, wallet.createdAt]), () =>
      pageHeader(name, {
        kicker: link("/wallets", "Wallets"),
        sub: h(
          "span",
          { class: "meta-line" },
          statusPill(wallet.status),
          wholeId(wallet.id, "wallet id"),
          h("span", {}, "created ", timeOf(wallet.createdAt)),
        ),
      }),
    );
    const largest = largestDrift(wallet);
    fillIfChanged(
      summary,
      JSON.stringify([
        wallet.totalBalanceUsd,
        wallet.instantWithdrawableUsd,
        wallet.pendingAllocationsUsd,
        wallet.blendedRateBps,
        largest,
      ]),
      () =>
        facts(
          [
            [
              "Total balance",
              h(
                "span",
                { "data-stat": "totalBalanceUsd", "data-value": wallet.totalBalanceUsd },
                usd(wallet.totalBalanceUsd),
              ),
            ],
            ["Instantly withdrawable", usd(wallet.instantWithdrawableUsd)],
            ["Pending allocation", usd(wallet.pendingAllocationsUsd)],
            ["Blended rate", percent(wallet.blendedRateBps)],
            ["Largest drift", largestDriftText(wallet)],
          ],
          "stats",
        ),
    );
    await body.refresh(wallet);
  }

  return { title: `Wallet ${walletId}`, refresh };
}
