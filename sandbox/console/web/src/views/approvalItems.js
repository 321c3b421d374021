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
/** A share of the wallet in bps, from micros (exact enough for two decimals of a percent). */
const shareBps = (/** @type {bigint} */ part, /** @type {bigint} */ whole) =>
  whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 100;

/**
 * What a strategy update does to the money, per source and in total, from the service's own
 * figures (the wallet's positions and the catalog) with the pull-request report's computation
 * (sdk/nodejs/contract/moneyImpact.ts), read when the approval is shown, before any vote. The
 * actual weight now sits beside the targets: a drifted wallet moves far more than the change of
 * target alone would say.
 * @param {StrategyUpdateOperation} operation
 * @param {string | null} walletId
 */
function strategyUpdateTable(operation, walletId) {
  /** @type {Map<string, { before: number, after: number }>} */
  const targets = new Map();
  for (const p of operation.currentPositions ?? [])
    targets.set(p.positionKey, { before: p.targetWeightBps, after: 0 });
  for (const p of operation.proposedPositions ?? [])
    targets.set(p.positionKey, { before: targets.get(p.positionKey)?.before ?? 0, after: p.targetWeightBps });
  const region = h("div", { class: "money-impact" }, loading("Reading the wallet's dollars…"));
  const targetAfter = Object.fromEntries([...targets].map(([key, row]) => [key, row.after]));
  void (async () => {
    try {
      if (walletId === null) throw new Error("the update names no wallet of this organization");
      const [{ body: wallet }, { body: catalog }] = await Promise.all([
        request("GET", servicePaths.wallet(walletId)),
        request("GET", servicePaths.strategies),
      ]);
      const impact = moneyImpact(wallet, targetAfter, catalog.strategies);
      /** @type {Map<string, number>} */
      const actualBps = new Map(
        (wallet.positions ?? []).map((/** @type {{ positionKey: string, weightBps: number }} */ p) => [
          p.positionKey,
          p.weightBps,
        ]),
      );
      const keys = [...new Set([...targets.keys(), ...impact.sources.map((source) => source.positionKey)])];
      const atOnce = impact.withdrawable.find((entry) => entry.within === "PT0H");
      fill(
        region,
        table({
          caption: "What approving does, per yield source",
          captionHidden: true,
          className: "data-table compact approval-impact",
          columns: ["Yield source", "Actual now", "Target now", "Target after approval", "USD moved"],
          rows: keys.map((key) => {
            const source = impact.sources.find((entry) => entry.positionKey === key);
            const now = source?.nowMicros ?? 0n;
            const delta = source?.deltaMicros ?? 0n;
            return [
              key,
              h("span", { "data-actual-bps": String(actualBps.get(key) ?? 0) }, [
                percent(actualBps.get(key) ?? 0),
                h("span", { class: "muted" }, ` · ${usdOf(now)}`),
              ]),
              percent(targets.get(key)?.before ?? 0),
              h("strong", {}, percent(targets.get(key)?.after ?? 0)),
              delta === 0n ? h("span", { class: "muted" }, usdOf(0n)) : signedUsd(delta),
            ];
          }),
          rowAttrs: (index) => ({ "data-position-key": keys[index] }),
        }),
        h(
          "p",
          { "data-moved-micros": impact.movedMicros.toString() },
          impact.funded
            ? [
                h("strong", {}, `Moves ${usdOf(impact.movedMicros)}`),
                ` of ${usdOf(impact.balanceMicros)} (${percent(shareBps(impact.movedMicros, impact.balanceMicros))} of the wallet), from where the money is now to the new targets. `,
                `Yearly yield ${nowToAfter(impact.yearlyYield.nowMicros, impact.yearlyYield.afterMicros)} at today's rates (a projection, not a forecast)`,
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
 * When a leg pays, from its slowest source's processing time.
 * @param {string} maxProcessingTime
 */
const paysWhen = (maxProcessingTime) => {
  const label = durationLabel(maxProcessingTime);
  return label === "Instant" ? "paid at once" : `paid after ${label}`;
};

/**
 * A withdrawal's payout legs: each named with the sources it draws from and when it pays.
 * @param {WithdrawalOperation} operation
 */
function withdrawalLegs(operation) {
  const legs = operation.plannedLegs ?? [];
  if (legs.length === 0)
    return h(
      "p",
      { class: "hint" },
      "The wallet's positions do not hold this amount now: approved, it would fail.",
    );
  return h(
    "div",
    { class: "approval-legs" },
    table({
      caption: "Payout legs",
      captionHidden: true,
      className: "data-table compact",
      columns: ["Leg", "Amount", "From", "Pays"],
      rows: legs.map((leg) => [
        h("code", {}, leg.legKey),
        usd(leg.amount),
        leg.sources.map((source) => `${source.positionKey} ${usd(source.amount)}`).join(", ") || "—",
        paysWhen(leg.maxProcessingTime),
      ]),
      rowAttrs: (index) => ({ "data-leg-key": legs[index]?.legKey }),
    }),
    operation.legsRouted
      ? null
      : h(
          "p",
          { class: "hint" },
          "Routed from what the wallet's positions hold now; the legs are fixed when processing starts, after approval.",
        ),
  );
}

/**
 * What approving a request would do, in words and figures.
 * @param {ApprovalRequest} request
 */
function whatItDoes(request) {
  const operation = request.operation;
  const wallet = request.walletId
    ? link(`/wallets/${request.walletId}`, walletName({ id: request.walletId, label: request.walletLabel }), {
        class: "free-text",
      })
    : "an unknown wallet";
  if (isStrategyUpdate(operation))
    return [
      h("p", {}, "Changes the target allocation of ", wallet, ", then rebalances it:"),
      strategyUpdateTable(operation, request.walletId),
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
      withdrawalLegs(operation),
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

/** @param {string} selection */
const voteWord = (selection) => (selection === "VOTE_SELECTION_REJECTED" ? "rejected" : "approved");

/**
 * Who voted on an activity and when (the signing provider's votes, on the sandbox clock); a vote
 * of the key this tab votes with says so, since the provider counts one vote per key.
 * @param {ApprovalRequest} item
 * @param {string | null} voterKey
 */
function votesOf(item, voterKey) {
  const votes = item.votes ?? [];
  if (votes.length === 0) return h("p", { class: "muted small" }, "No votes yet.");
  return h(
    "ul",
    { class: "votes", "aria-label": "Votes" },
    votes.map((vote) =>
      h(
        "li",
        { "data-voter-key": vote.publicKey, "data-selection": vote.selection },
        vote.publicKey === voterKey ? "You " : "Key ",
        vote.publicKey === voterKey ? `${voteWord(vote.selection)} (key ` : null,
        wholeId(vote.publicKey, "approver public key"),
        vote.publicKey === voterKey ? ") at " : ` ${voteWord(vote.selection)} at `,
        timeOf(vote.createdAt),
        " (sandbox time)",
      ),
    ),
  );
}

/**
 * The activities waiting for votes, each with what it would do, who voted, and its Approve and
 * Reject buttons: off once the key this tab votes with has voted (a second vote counts for nothing).
 * @param {ApprovalRequest[]} waiting
 * @param {(item: ApprovalRequest, decision: "approve" | "reject") => Promise<void>} decide
 * @param {string | null} voterKey the public key this tab votes with, if any
 */
export function waitingList(waiting, decide, voterKey) {
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
            votesOf(item, voterKey),
            voteButtons(item, decide, voterKey),
          ),
        ),
      );
}

/**
 * Approve and Reject, both off once this tab's key has voted, with a line saying so and what to do.
 * @param {ApprovalRequest} item
 * @param {(item: ApprovalRequest, decision: "approve" | "reject") => Promise<void>} decide
 * @param {string | null} voterKey
 */
function voteButtons(item, decide, voterKey) {
  const voted = voterKey !== null && (item.votes ?? []).some((vote) => vote.publicKey === voterKey);
  const hintId = `voted-${item.signingActivityId}`;
  /** @param {"approve" | "reject"} decision @param {string} className @param {string} label */
  const button = (decision, className, label) =>
    h(
      "button",
      {
        type: "button",
        class: `button ${className}`,
        onClick: () => void decide(item, decision),
        "aria-label": `${label}: ${titleOf(item)}`,
        disabled: voted,
        "aria-describedby": voted ? hintId : null,
      },
      label,
    );
  return h(
    "div",
    { class: "form-actions" },
    button("approve", "primary", "Approve"),
    button("reject", "danger", "Reject"),
    voted
      ? h(
          "p",
          { class: "hint", id: hintId },
          "This key has voted; the signing provider counts one vote per key. Another approver votes with another key (Use a new key, above).",
        )
      : null,
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
            ? link(`/wallets/${item.walletId}`, walletName({ id: item.walletId, label: item.walletLabel }), {
                class: "free-text",
              })
            : "—",
          statusPill(item.status),
          `${item.approvals} of ${item.requiredApprovals}`,
          item.failureReason ? moneyInText(item.failureReason) : h("span", { class: "muted" }, "—"),
          timeOf(item.updatedAt),
        ]),
        rowAttrs: (index) => ({ "data-activity-id": done[index]?.signingActivityId }),
      });
}
