// @ts-check
// A wallet's deposits, newest first, with each leg's status and the money it routed to its position.
import { request } from "../api.js";
import { card, fillIfChanged, h, statusPill, table, timeOf } from "../dom.js";
import { usd } from "../format.js";
import { wholeId } from "./ids.js";
import { objectPath } from "./itemLinks.js";
import { loading } from "./common.js";
import { walletDepositControl } from "./controls/deposit.js";
import { consolePaths } from "../paths.js";

/**
 * @param {import("./common.js").ViewContext} ctx
 * @param {string} walletId
 * @param {ReturnType<typeof import("./itemLinks.js").itemFocus>} focus the deposit the address picks out, if any
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletDeposits(ctx, walletId, focus) {
  const list = h("div", { class: "region" }, loading("Reading the deposits…"));
  const depositControl = walletDepositControl("deposits-deposit", () => ctx.refreshNow());
  const element = card("Deposits", [h("div", { class: "card-control" }, depositControl.element), list], {
    id: "deposits-heading",
    className: "flush",
  });
  return {
    element,
    async refresh(wallet) {
      depositControl.update(wallet);
      // The console API's list: the public deposits plus each leg's amount from the ledger.
      // An address naming one deposit reads the most a page holds, so an older one is still found.
      const pageSize = focus.id === null ? 50 : 100;
      const { body } = await request("GET", consolePaths.walletDeposits(walletId, { pageSize }));
      /** @type {import("../payloads.js").DepositWithLegs[]} */
      const deposits = Array.isArray(body?.data) ? body.data : [];
      fillIfChanged(list, JSON.stringify(deposits), () =>
        deposits.length === 0
          ? h(
              "div",
              { class: "empty" },
              h(
                "p",
                {},
                "No deposits yet. Send stablecoins to a deposit address; in the sandbox, simulate the transfer.",
              ),
            )
          : table({
              caption: "Deposits, newest first",
              captionHidden: true,
              columns: [
                "Detected",
                "Amount",
                "Chain",
                "Deposit",
                "Transaction",
                "Status",
                "Legs",
                "Completed",
              ],
              rows: deposits.map((deposit) => [
                timeOf(deposit.createdAt),
                h("span", { class: "num" }, usd(deposit.amountUsd)),
                deposit.chain,
                wholeId(deposit.id, "deposit id", { path: objectPath({ kind: "deposit", id: deposit.id }) }),
                wholeId(deposit.txHash, "transaction hash"),
                statusPill(deposit.status),
                h(
                  "ul",
                  { class: "legs" },
                  deposit.legs.map((leg) =>
                    h(
                      "li",
                      { "data-leg": leg.legKey },
                      h("span", { class: "leg-key" }, leg.legKey),
                      " ",
                      // Known once the deposit completes: what the ledger routed to the position.
                      leg.amount === null
                        ? null
                        : h("span", { class: "num", "data-leg-amount": String(leg.amount) }, usd(leg.amount)),
                      leg.amount === null ? null : " ",
                      statusPill(leg.status),
                    ),
                  ),
                ),
                timeOf(deposit.completedAt),
              ]),
              rowAttrs: (index) => ({ "data-deposit-id": deposits[index]?.id }),
            }),
      );
      await focus.mark(list, pageSize);
    },
  };
}
