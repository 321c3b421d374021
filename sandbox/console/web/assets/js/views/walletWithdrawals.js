// @ts-check
// A wallet's withdrawals: a form to request one, and each withdrawal as a timeline of its payout
// legs (instant, redeem) on the sandbox clock, with the reason when something failed.
import { newRequestId, request } from "../api.js";
import { card, fieldValue, fillIfChanged, h, statusPill } from "../dom.js";
import { durationLabel, relative, shortId, usd, when } from "../format.js";
import { requestLog, runLogged } from "../requestLog.js";
import { link, loading } from "./common.js";

const TOKENS = ["usdc", "usdt"];

/**
 * One step of a timeline.
 * @param {"done" | "busy" | "bad" | "waiting"} state
 * @param {import("../dom.js").Children} title
 * @param {import("../dom.js").Children} detail
 * @param {import("../dom.js").Attrs} [attrs]
 */
function step(state, title, detail, attrs = {}) {
  const marks = { done: "✓", busy: "…", bad: "✕", waiting: "○" };
  const words = { done: "done", busy: "in progress", bad: "failed", waiting: "not started" };
  return h(
    "li",
    { class: `step step-${state}`, ...attrs },
    h("span", { class: "step-mark", "aria-hidden": "true" }, marks[state]),
    h(
      "div",
      { class: "step-body" },
      h("div", { class: "step-title" }, title, h("span", { class: "visually-hidden" }, ` (${words[state]})`)),
      h("div", { class: "step-detail" }, detail),
    ),
  );
}

/** @param {string} status */
const legState = (status) =>
  status === "completed" || status === "skipped"
    ? "done"
    : status === "failed"
      ? "bad"
      : status === "processing"
        ? "busy"
        : "waiting";

/**
 * @param {any} withdrawal a withdrawal with its legs' times (GET /_console/api/wallets/{id}/withdrawals)
 * @param {string | null} now the sandbox clock
 */
function timeline(withdrawal, now) {
  /** @type {HTMLElement[]} */
  const steps = [step("done", "Requested", when(withdrawal.createdAt))];
  if (withdrawal.signingActivityId) {
    const approval = String(withdrawal.signingActivityStatus ?? "");
    const state = approval.endsWith("COMPLETED") ? "done" : /REJECTED|FAILED/.test(approval) ? "bad" : "busy";
    steps.push(
      step(
        state,
        "Approval",
        state === "busy"
          ? ["Waiting for approvers: ", link("/approvals", "review it under Approvals")]
          : approval.replace("ACTIVITY_STATUS_", "").toLowerCase(),
      ),
    );
  }
  for (const leg of withdrawal.legTimes ?? []) {
    const state = legState(leg.status);
    const timing =
      leg.status === "processing"
        ? `due ${when(leg.dueAt)} (${relative(leg.dueAt, now)})`
        : leg.status === "completed"
          ? `paid ${when(leg.updatedAt)}`
          : leg.status === "failed"
            ? `failed ${when(leg.updatedAt)}`
            : leg.status === "skipped"
              ? "skipped"
              : "not started";
    steps.push(
      step(
        state,
        [h("span", { class: "leg-key" }, `${leg.legKey} leg`), " ", statusPill(leg.status)],
        [
          `${usd(leg.amount)} from ${(leg.positionKeys ?? []).join(", ") || "—"} · liquidity ${durationLabel(leg.maxProcessingTime)} · `,
          timing,
        ],
        { "data-leg-key": leg.legKey, "data-leg-status": leg.status },
      ),
    );
  }
  if (withdrawal.status === "completed")
    steps.push(step("done", "Completed", when(withdrawal.completedAt), { "data-outcome": "completed" }));
  else if (withdrawal.status === "failed")
    steps.push(
      step(
        "bad",
        "Failed",
        h("span", { class: "failure-reason" }, withdrawal.failureReason ?? "no reason given"),
        {
          "data-outcome": "failed",
        },
      ),
    );
  else steps.push(step("waiting", "Paid in full", "not yet", { "data-outcome": "open" }));
  return h(
    "ol",
    { class: "timeline", "aria-label": `Timeline of the withdrawal of ${usd(withdrawal.withdrawalAmount)}` },
    steps,
  );
}

/**
 * @param {import("./common.js").ViewContext} ctx
 * @param {string} walletId
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletWithdrawals(ctx, walletId) {
  const list = h("div", { class: "region" }, loading("Reading the withdrawals…"));
  const log = requestLog("Withdrawal result");
  const submit = h("button", { type: "submit", class: "button primary" }, "Request withdrawal");
  const chainSelect = h(
    "select",
    { id: "withdraw-chain", name: "chain" },
    h("option", { value: "ethereum" }, "ethereum"),
  );
  const form = h(
    "form",
    { class: "form-grid" },
    h(
      "div",
      { class: "field" },
      h("label", { for: "withdraw-amount" }, "Amount (USD)"),
      h("input", {
        id: "withdraw-amount",
        name: "amount",
        type: "number",
        min: "0.000001",
        step: "0.000001",
        inputmode: "decimal",
        required: true,
      }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "withdraw-token" }, "Token"),
      h(
        "select",
        { id: "withdraw-token", name: "token" },
        TOKENS.map((token) => h("option", { value: token }, token)),
      ),
    ),
    h("div", { class: "field" }, h("label", { for: "withdraw-chain" }, "Chain"), chainSelect),
    h(
      "div",
      { class: "field span-all" },
      h("label", { for: "withdraw-address" }, "Destination address"),
      h("input", {
        id: "withdraw-address",
        name: "address",
        type: "text",
        spellcheck: "false",
        autocomplete: "off",
        required: true,
        "aria-describedby": "withdraw-address-hint",
      }),
      h(
        "p",
        { id: "withdraw-address-hint", class: "hint" },
        "0x and 40 hex digits on EVM chains; a base58 key on Solana.",
      ),
    ),
    h("div", { class: "form-actions span-all" }, submit),
    h("div", { class: "span-all" }, log.element),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    await runLogged(log, async (call) => {
      const { body } = await call(
        request("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
          body: {
            requestId: newRequestId(),
            withdrawalAmount: Number(fieldValue(form, "amount")),
            destinationToken: fieldValue(form, "token"),
            destinationChain: fieldValue(form, "chain"),
            destinationAddress: fieldValue(form, "address"),
          },
        }),
      );
      return body?.status === "pending_approval"
        ? "Withdrawal requested. It waits for approval: approve it under Approvals."
        : `Withdrawal requested: ${String(body?.status ?? "")}.`;
    });
    submit.disabled = false;
    ctx.refreshNow();
  });

  const element = h(
    "div",
    { class: "stack-lg" },
    card(
      "Withdraw",
      [
        h(
          "p",
          { class: "hint" },
          "Pays out in legs: what instantly withdrawable sources hold at once, the rest as redeem legs after each source's processing time.",
        ),
        form,
      ],
      {
        id: "withdraw-heading",
      },
    ),
    card("Withdrawals", list, { id: "withdrawals-heading" }),
  );

  let chainsKnown = "";
  return {
    element,
    async refresh(wallet) {
      const chains = Object.keys(wallet.depositAddresses ?? {});
      if (chains.length > 0 && chains.join() !== chainsKnown) {
        chainsKnown = chains.join();
        const selected = chainSelect.value;
        chainSelect.replaceChildren(
          ...chains.map((chain) => h("option", { value: chain, selected: chain === selected }, chain)),
        );
      }
      const { body } = await request("GET", `/_console/api/wallets/${walletId}/withdrawals?pageSize=20`);
      const withdrawals = Array.isArray(body?.data) ? body.data : [];
      const now = ctx.now();
      fillIfChanged(list, JSON.stringify([withdrawals, now?.slice(0, 16)]), () =>
        withdrawals.length === 0
          ? h("div", { class: "empty" }, h("p", {}, "No withdrawals yet."))
          : h(
              "div",
              { class: "withdrawals" },
              withdrawals.map((/** @type {any} */ withdrawal) =>
                h(
                  "article",
                  {
                    class: "withdrawal",
                    "data-withdrawal-id": withdrawal.id,
                    "aria-labelledby": `withdrawal-${withdrawal.id}`,
                  },
                  h(
                    "div",
                    { class: "withdrawal-head" },
                    h(
                      "h3",
                      { id: `withdrawal-${withdrawal.id}` },
                      `${usd(withdrawal.withdrawalAmount)} to ${shortId(withdrawal.destinationAddress, 6)}`,
                    ),
                    statusPill(withdrawal.status),
                  ),
                  h(
                    "p",
                    { class: "muted small" },
                    `${withdrawal.destinationToken} on ${withdrawal.destinationChain} · `,
                    h("span", { class: "mono" }, withdrawal.destinationAddress),
                  ),
                  timeline(withdrawal, now),
                ),
              ),
            ),
      );
    },
  };
}
