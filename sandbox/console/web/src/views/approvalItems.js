// @ts-check
// What the approvals page shows of each signing activity: what its operation would do, the list
// of those waiting (with their vote buttons) and the table of those decided.
import { microsToUsd } from "../../../../../sdk/nodejs/contract/money.ts";
import { moneyImpact } from "../../../../../sdk/nodejs/contract/moneyImpact.ts";
import { fill, h, statusPill, table, timeOf } from "../dom.js";
import { durationLabel, moneyInText, percent, usd, walletName, when } from "../format.js";
import { wholeId } from "./ids.js";
import { servicePaths } from "../paths.js";
import { request } from "../api.js";
import { link, loading } from "./common.js";
import { objectPath } from "./itemLinks.js";

/** @typedef {import("../payloads.js").ApprovalRequest} ApprovalRequest */
/** @typedef {Extract<ApprovalRequest["operation"], { kind: "strategy_update" }>} StrategyUpdateOperation */
/** @typedef {Extract<ApprovalRequest["operation"], { kind: "withdrawal" }>} WithdrawalOperation */

/**
 * @param {ApprovalRequest["operation"] | undefined} operation
 * @returns {operation is StrategyUpdateOperation}
 */
const isStrategyUpdate = (operation) => operation?.kind === "strategy_update";
/**
 * @param {ApprovalRequest["operation"] | undefined} operation
 * @returns {operation is WithdrawalOperation}
 */
const isWithdrawal = (operation) => operation?.kind === "withdrawal";

/**
 * The allocation before and after, per yield source.
 * @param {StrategyUpdateOperation} operation
 */
function allocationChange(operation) {
  /** @type {Map<string, { now: number, next: number }>} */
  const rows = new Map();
  for (const p of operation.currentPositions ?? [])
    rows.set(p.positionKey, { now: p.targetWeightBps, next: 0 });
  for (const p of operation.proposedPositions ?? [])
    rows.set(p.positionKey, { now: rows.get(p.positionKey)?.now ?? 0, next: p.targetWeightBps });
  return table({
    caption: "Target allocation now and after approval",
    captionHidden: true,
    className: "data-table compact",
    columns: ["Yield source", "Target now", "Target after approval"],
    rows: [...rows.entries()].map(([key, row]) => [
      key,
      percent(row.now),
      h("strong", {}, percent(row.next)),
    ]),
  });
}

/** @param {bigint} micros */
const usdOf = (micros) => usd(microsToUsd(micros));
/** @param {bigint} micros */
const signedUsd = (micros) =>
  micros > 0n ? `+${usdOf(micros)}` : micros < 0n ? `−${usdOf(-micros)}` : usdOf(0n);
/** @param {bigint} now @param {bigint} after */
const nowToAfter = (now, after) =>
  now === after
    ? `${usdOf(after)} (unchanged)`
    : `${usdOf(now)} → ${usdOf(after)} (${signedUsd(after - now)})`;

/**
 * What a strategy update does to the money, from the service's own figures (the wallet's
 * positions and the catalog), with the pull-request report's computation
 * (sdk/nodejs/contract/moneyImpact.ts): read when the approval is shown, before any vote.
 * @param {StrategyUpdateOperation} operation
 * @param {string} walletId
 */
function moneyOfStrategyUpdate(operation, walletId) {
  const region = h("div", { class: "money-impact" }, loading("Reading the wallet's dollars…"));
  const target = Object.fromEntries(
    (operation.proposedPositions ?? []).map((p) => [p.positionKey, p.targetWeightBps]),
  );
  void (async () => {
    try {
      const [{ body: wallet }, { body: catalog }] = await Promise.all([
        request("GET", servicePaths.wallet(walletId)),
        request("GET", servicePaths.strategies),
      ]);
      const impact = moneyImpact(wallet, target, catalog.strategies);
      const atOnce = impact.withdrawable.find((entry) => entry.within === "PT0H");
      fill(
        region,
        h(
          "p",
          { "data-moved-micros": impact.movedMicros.toString() },
          impact.funded
            ? [
                h("strong", {}, `Moves ${usdOf(impact.movedMicros)}`),
                ` of ${usdOf(impact.balanceMicros)}: `,
                impact.sources
                  .filter((source) => source.deltaMicros !== 0n)
                  .map((source) => `${source.positionKey} ${signedUsd(source.deltaMicros)}`)
                  .join(", "),
                `. Yearly yield ${nowToAfter(impact.yearlyYield.nowMicros, impact.yearlyYield.afterMicros)} at today's rates (a projection, not a forecast)`,
                atOnce ? `; withdrawable at once ${nowToAfter(atOnce.nowMicros, atOnce.afterMicros)}` : "",
                impact.longestExit
                  ? `; money leaving can take up to ${durationLabel(impact.longestExit)}.`
                  : ".",
              ]
            : "The wallet holds nothing in any yield source: approving moves $0.00.",
        ),
      );
    } catch (error) {
      fill(
        region,
        h(
          "p",
          { class: "hint" },
          `The dollars could not be read: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  })();
  return region;
}

/**
 * What approving a request would do, in words and figures.
 * @param {ApprovalRequest} request
 */
function whatItDoes(request) {
  const operation = request.operation;
  const wallet = request.walletId
    ? link(`/wallets/${request.walletId}`, walletName({ id: request.walletId, label: request.walletLabel }))
    : "an unknown wallet";
  if (isStrategyUpdate(operation))
    return [
      h("p", {}, "Changes the target allocation of ", wallet, ", then rebalances it:"),
      allocationChange(operation),
      request.walletId ? moneyOfStrategyUpdate(operation, request.walletId) : null,
    ];
  if (isWithdrawal(operation))
    return [
      h(
        "p",
        {},
        "Pays ",
        h("strong", {}, usd(operation.withdrawalAmount)),
        ` out of `,
        wallet,
        ` in ${operation.destinationToken} on ${operation.destinationChain} to `,
        h("code", { class: "mono" }, operation.destinationAddress),
        ".",
      ),
      (operation.plannedLegs ?? []).length > 0
        ? h(
            "ul",
            { class: "legs" },
            operation.plannedLegs.map((leg) =>
              h("li", {}, `${leg.legKey} leg: ${usd(leg.amount)} (${durationLabel(leg.maxProcessingTime)})`),
            ),
          )
        : h("p", { class: "hint" }, "Its payout legs are routed when processing starts, after approval."),
    ];
  const subject = "subjectId" in operation ? operation.subjectId : "";
  return h("p", {}, `A ${operation.kind} operation (${subject}).`);
}

/** @param {ApprovalRequest} request */
export const titleOf = (request) =>
  isStrategyUpdate(request.operation)
    ? "Strategy update"
    : isWithdrawal(request.operation)
      ? `Withdrawal of ${usd(request.operation.withdrawalAmount)}`
      : "Signing activity";

/**
 * The activities waiting for votes, each with what it would do and its Approve and Reject buttons.
 * @param {ApprovalRequest[]} waiting
 * @param {(item: ApprovalRequest, decision: "approve" | "reject") => Promise<void>} decide
 */
export function waitingList(waiting, decide) {
  return waiting.length === 0
    ? h(
        "div",
        { class: "empty" },
        h("p", {}, "Nothing is waiting for approval."),
        h(
          "p",
          { class: "hint" },
          "Operations wait here when the organization's approval policy asks for approvals: set it under ",
          link("/controls", "Sandbox controls"),
          ".",
        ),
      )
    : h(
        "div",
        { class: "approval-list" },
        waiting.map((item) =>
          h(
            "article",
            {
              class: "approval",
              "data-activity-id": item.signingActivityId,
              "aria-labelledby": `activity-${item.signingActivityId}`,
            },
            h(
              "div",
              { class: "approval-head" },
              h("h3", { id: `activity-${item.signingActivityId}` }, titleOf(item)),
              h(
                "span",
                { class: "approval-count" },
                `${item.approvals} of ${item.requiredApprovals} approvals`,
              ),
            ),
            h(
              "p",
              { class: "muted small" },
              `Requested ${when(item.createdAt)} · activity `,
              wholeId(item.signingActivityId, "signing activity id", {
                path: objectPath({ kind: "signing_activity", id: item.signingActivityId }),
              }),
            ),
            whatItDoes(item),
            h(
              "div",
              { class: "form-actions" },
              h(
                "button",
                {
                  type: "button",
                  class: "button primary",
                  onClick: () => void decide(item, "approve"),
                  "aria-label": `Approve: ${titleOf(item)}`,
                },
                "Approve",
              ),
              h(
                "button",
                {
                  type: "button",
                  class: "button danger",
                  onClick: () => void decide(item, "reject"),
                  "aria-label": `Reject: ${titleOf(item)}`,
                },
                "Reject",
              ),
            ),
          ),
        ),
      );
}

/**
 * The activities decided, newest first: outcome, approvals and the reason of a failure.
 * @param {ApprovalRequest[]} done
 */
export function decidedTable(done) {
  return done.length === 0
    ? h("div", { class: "empty" }, h("p", {}, "No decided activities yet."))
    : table({
        caption: "Decided signing activities, newest first",
        captionHidden: true,
        columns: ["Operation", "Wallet", "Outcome", "Approvals", "Reason", "Decided"],
        rows: done.map((item) => [
          titleOf(item),
          item.walletId
            ? link(`/wallets/${item.walletId}`, walletName({ id: item.walletId, label: item.walletLabel }))
            : "—",
          statusPill(item.status),
          `${item.approvals} of ${item.requiredApprovals}`,
          item.failureReason ? moneyInText(item.failureReason) : h("span", { class: "muted" }, "—"),
          timeOf(item.updatedAt),
        ]),
        rowAttrs: (index) => ({ "data-activity-id": done[index]?.signingActivityId }),
      });
}
