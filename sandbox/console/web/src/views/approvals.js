// @ts-check
// Approvals: the organization's signing activities waiting for votes, with what each would do,
// approved or rejected through the sandbox's signing-provider endpoints with this tab's key.
import { request } from "../api.js";
import { approver, vote } from "../approver.js";
import { confirmAction } from "../confirm.js";
import { card, fillIfChanged, h } from "../dom.js";
import { words } from "../format.js";
import { consolePaths, signingPaths } from "../paths.js";
import { requestLog, runLogged } from "../requestLog.js";
import { decidedTable, titleOf, waitingList } from "./approvalItems.js";
import { approverKeys } from "./approverKeys.js";
import { loading, pageHeader } from "./common.js";
import { itemFocus } from "./itemLinks.js";

/** @typedef {import("../payloads.js").ApprovalRequest} ApprovalRequest */

/** @type {import("./common.js").ViewFactory} */
export function approvalsView(main, ctx, params) {
  // /approvals/{signingActivityId}: the page with that activity picked out (itemLinks.js).
  const focus = itemFocus(params[0] || null, "data-activity-id", "signing_activity");
  const decisionLog = requestLog("Vote result");
  const pending = h("div", { class: "region" }, loading("Reading the signing activities…"));
  const decided = h("div", { class: "region" });
  // The key's card is drawn first: an activity the address picks out is scrolled to once it is there.
  const keys = approverKeys({ decisionLog });

  /**
   * @param {ApprovalRequest} item
   * @param {"approve" | "reject"} decision
   */
  async function decide(item, decision) {
    const signer = approver();
    if (signer === null) {
      keys.focusKeyButton();
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
      sub: `Withdrawals and strategy updates waiting for approvers, with what each would do. Votes go to the sandbox's signing provider (POST ${signingPaths.vote("approve")}), stamped like a real approver's.`,
    }),
    h(
      "div",
      { class: "stack-lg" },
      focus.notice,
      card("Your approver key", keys.parts, { id: "approver-heading" }),
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
    // Drawn again when the key this tab votes with changes: the buttons follow whether it voted.
    const voterKey = approver()?.key.publicKey ?? null;
    fillIfChanged(pending, JSON.stringify([voterKey, waiting]), () => waitingList(waiting, decide, voterKey));
    fillIfChanged(decided, JSON.stringify(done), () => decidedTable(done));
    await keys.drawn;
    await focus.mark(main, limit);
  }

  return { title: "Approvals", refresh };
}
