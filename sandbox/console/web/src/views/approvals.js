// @ts-check
// Approvals: the organization's signing activities waiting for votes, with what each would do,
// approved or rejected through the sandbox's signing-provider endpoints with this tab's key.
import { approver, loadKeys, registerNewApprover, removeApprover, useKey, vote } from "../approver.js";
import { listKeys } from "../keyStore.js";
import { session } from "../session.js";
import { request } from "../api.js";
import { card, facts, fill, fillIfChanged, h, statusPill, table, timeOf } from "../dom.js";
import { confirmAction } from "../confirm.js";
import { durationLabel, moneyInText, percent, shortId, usd, walletName, when, words } from "../format.js";
import { requestLog, runLogged } from "../requestLog.js";
import { itemFocus } from "./itemLinks.js";
import { link, loading, pageHeader } from "./common.js";
import { consolePaths, sandboxPaths, servicePaths } from "../paths.js";
import { moneyImpact } from "../../../../../sdk/nodejs/contract/moneyImpact.ts";
import { microsToUsd } from "../../../../../sdk/nodejs/contract/money.ts";

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
const titleOf = (request) =>
  isStrategyUpdate(request.operation)
    ? "Strategy update"
    : isWithdrawal(request.operation)
      ? `Withdrawal of ${usd(request.operation.withdrawalAmount)}`
      : "Signing activity";

/** @type {import("./common.js").ViewFactory} */
export function approvalsView(main, ctx, params) {
  // /approvals/{signingActivityId}: the page with that activity picked out (itemLinks.js).
  const focus = itemFocus(params[0] || null, "data-activity-id", "signing_activity");
  const keyRegion = h("div", { class: "region" });
  const keyLog = requestLog("Approver key result");
  const decisionLog = requestLog("Vote result");
  const pending = h("div", { class: "region" }, loading("Reading the signing activities…"));
  const decided = h("div", { class: "region" });

  /** @type {HTMLButtonElement | null} */
  let keyButton = null;
  const keyLists = h("div", { class: "region" });

  /**
   * @param {string} publicKey
   * @param {string} name
   */
  async function remove(publicKey, name) {
    const confirmed = await confirmAction({
      title: `Remove ${name}?`,
      message: h(
        "p",
        {},
        "The sandbox forgets this approver's public key, so its votes are refused from now on; this browser forgets its private key, if it kept it. Votes already counted stay counted.",
      ),
      confirmLabel: "Remove",
      danger: true,
    });
    if (confirmed === null) return;
    await runLogged(keyLog, async (call) => {
      await removeApprover(publicKey, call);
      return `Removed ${name}.`;
    });
    await renderKey();
  }

  /** @param {import("../keyStore.js").StoredKey} key */
  function useKeptKey(key) {
    useKey(key);
    void renderKey();
  }

  async function renderKey() {
    /** @type {{ kept: import("../keyStore.js").StoredKey[], registered: any[] | null }} */
    let keys = { kept: [], registered: null };
    try {
      keys = await loadKeys();
    } catch {
      // Without the admin token the registered approvers cannot be read; the kept keys still can.
      keys = { kept: await listKeys(session()?.organizationId ?? "").catch(() => []), registered: null };
      if (approver() === null) useKey(keys.kept[0] ?? null);
    }
    const signer = approver();
    const button = h(
      "button",
      { type: "button", class: signer === null ? "button primary" : "button" },
      signer === null ? "Create and register an approver key" : "Use a new key (another approver)",
    );
    keyButton = button;
    button.addEventListener("click", async () => {
      button.disabled = true;
      await runLogged(keyLog, async (call) => {
        const made = await registerNewApprover(call);
        // "Create an approver key first" no longer holds.
        if (decisionLog.showsFailure()) decisionLog.clear();
        return `Registered ${made.userName}. Its private key stays in this browser (IndexedDB, not extractable) and cannot be read out.`;
      });
      await renderKey();
    });
    fill(
      keyRegion,
      signer === null
        ? h(
            "p",
            {},
            "Approvers vote at the signing provider with a P-256 key, each request stamped with it. This browser makes one (WebCrypto, not extractable), keeps it across reloads, and registers its public key with the sandbox, an admin call that needs the admin token.",
          )
        : facts([
            ["Voting as", h("span", { "data-current-approver": signer.key.publicKey }, signer.userName)],
            [
              "Public key",
              h("code", { class: "mono", title: signer.key.publicKey }, shortId(signer.key.publicKey, 12)),
            ],
          ]),
      h("div", { class: "form-actions" }, button),
    );
    const registered = keys.registered;
    const registeredKeys = new Set((registered ?? []).map((key) => String(key.publicKey)));
    const keptKeys = new Set(keys.kept.map((key) => key.publicKey));
    fill(
      keyLists,
      h("h3", {}, "Keys kept in this browser"),
      keys.kept.length === 0
        ? h("p", { class: "muted" }, "None yet.")
        : table({
            caption: "Approver keys kept in this browser",
            captionHidden: true,
            className: "data-table compact",
            columns: ["Approver", "Public key", "Registered", "Created", ""],
            rows: keys.kept.map((key) => [
              key.userName,
              h("code", { class: "mono", title: key.publicKey }, shortId(key.publicKey, 10)),
              registered === null
                ? "unknown (no admin token)"
                : registeredKeys.has(key.publicKey)
                  ? "yes"
                  : "no",
              timeOf(key.createdAt),
              h(
                "span",
                { class: "button-row" },
                signer?.key.publicKey !== key.publicKey &&
                  (registered === null || registeredKeys.has(key.publicKey))
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "button small",
                        "aria-label": `Vote as ${key.userName}`,
                        onClick: () => useKeptKey(key),
                      },
                      "Use",
                    )
                  : null,
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small danger",
                    "aria-label": `Remove ${key.userName}`,
                    onClick: () => void remove(key.publicKey, key.userName),
                  },
                  "Remove",
                ),
              ),
            ]),
            rowAttrs: (index) => ({ "data-kept-key": keys.kept[index]?.publicKey }),
          }),
      h("h3", {}, "Registered approvers of the organization"),
      registered === null
        ? h(
            "p",
            { class: "muted" },
            `Listed once an admin token is given (GET ${sandboxPaths.signingApiKeys} is an admin call).`,
          )
        : registered.length === 0
          ? h("p", { class: "muted" }, "None.")
          : table({
              caption: "Approver keys registered for the organization",
              captionHidden: true,
              className: "data-table compact",
              columns: ["Approver", "Public key", "Kept in this browser", ""],
              rows: registered.map((key) => [
                String(key.userName ?? "—"),
                h("code", { class: "mono", title: key.publicKey }, shortId(String(key.publicKey), 10)),
                keptKeys.has(String(key.publicKey)) ? "yes" : "no",
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small danger",
                    "aria-label": `Remove ${String(key.userName ?? key.publicKey)}`,
                    onClick: () => void remove(String(key.publicKey), String(key.userName ?? key.publicKey)),
                  },
                  "Remove",
                ),
              ]),
              rowAttrs: (index) => ({ "data-registered-key": registered[index]?.publicKey }),
            }),
    );
  }
  // The key's card is drawn first: an activity the address picks out is scrolled to once it is there.
  const keyDrawn = renderKey();

  /**
   * @param {ApprovalRequest} item
   * @param {"approve" | "reject"} decision
   */
  async function decide(item, decision) {
    const signer = approver();
    if (signer === null) {
      keyButton?.focus();
      decisionLog.show({
        ok: false,
        message: "Create an approver key first (above): votes are stamped with it.",
        exchanges: [],
      });
      return;
    }
    if (decision === "reject") {
      const confirmed = await confirmAction({
        title: `Reject: ${titleOf(item)}?`,
        message: [
          h(
            "p",
            {},
            "The operation fails at once, with an approval-rejected reason, and cannot be approved again.",
          ),
          h(
            "p",
            { class: "hint" },
            "A rejection carries no reason of its own: the signing provider's reject_activity takes only the activity's fingerprint.",
          ),
        ],
        confirmLabel: "Reject",
        danger: true,
      });
      if (confirmed === null) return;
    }
    await runLogged(decisionLog, async (call) => {
      const activity = await vote(signer, item.signingActivityId, decision, call);
      const status = String(activity?.status ?? "");
      if (status === "ACTIVITY_STATUS_CONSENSUS_NEEDED")
        return `Your approval is counted. ${titleOf(item)} needs ${item.requiredApprovals} approvals from different keys: use a new key to approve as another approver.`;
      if (status === "ACTIVITY_STATUS_COMPLETED") return `${titleOf(item)} approved: it proceeds by itself.`;
      if (status === "ACTIVITY_STATUS_REJECTED")
        return `${titleOf(item)} rejected: it fails with an approval-rejected reason.`;
      return `The activity is now ${words(status)}.`;
    });
    ctx.refreshNow();
  }

  main.replaceChildren(
    pageHeader("Approvals", {
      sub: "Withdrawals and strategy updates waiting for approvers, with what each would do. Votes go to the sandbox's signing provider (POST /public/v1/submit/approve_activity), stamped like a real approver's.",
    }),
    h(
      "div",
      { class: "stack-lg" },
      focus.notice,
      card("Your approver key", [keyRegion, keyLog.element, keyLists], { id: "approver-heading" }),
      card("Waiting for approval", [decisionLog.element, pending], { id: "pending-heading" }),
      card("Recently decided", decided, { id: "decided-heading", className: "flush" }),
    ),
  );

  async function refresh() {
    // An address naming one activity reads the most the list gives, so an older one is still found.
    const limit = focus.id === null ? 50 : 100;
    const { body } = await request("GET", consolePaths.signingActivities({ status: "all", limit }));
    /** @type {ApprovalRequest[]} */
    const all = Array.isArray(body?.data) ? body.data : [];
    const waiting = all.filter((item) => item.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const done = all.filter((item) => item.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED");
    fillIfChanged(pending, JSON.stringify(waiting), () =>
      waiting.length === 0
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
                  h("span", { class: "mono" }, shortId(item.signingActivityId)),
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
          ),
    );
    fillIfChanged(decided, JSON.stringify(done), () =>
      done.length === 0
        ? h("div", { class: "empty" }, h("p", {}, "No decided activities yet."))
        : table({
            caption: "Decided signing activities, newest first",
            captionHidden: true,
            columns: ["Operation", "Wallet", "Outcome", "Approvals", "Reason", "Decided"],
            rows: done.map((item) => [
              titleOf(item),
              item.walletId
                ? link(
                    `/wallets/${item.walletId}`,
                    walletName({ id: item.walletId, label: item.walletLabel }),
                  )
                : "—",
              statusPill(item.status),
              `${item.approvals} of ${item.requiredApprovals}`,
              item.failureReason ? moneyInText(item.failureReason) : h("span", { class: "muted" }, "—"),
              timeOf(item.updatedAt),
            ]),
            rowAttrs: (index) => ({ "data-activity-id": done[index]?.signingActivityId }),
          }),
    );
    await keyDrawn;
    await focus.mark(main, limit);
  }

  return { title: "Approvals", refresh };
}
