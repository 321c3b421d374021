// @ts-check
// A wallet's withdrawals: a form to request one, and each withdrawal as a timeline of its payout
// legs (instant, redeem) on the sandbox clock, with the reason when something failed.
import { newRequestId, request } from "../api.js";
import { card, fieldValue, fillIfChanged, h, statusPill, timeOf } from "../dom.js";
import { confirmAction } from "../confirm.js";
import { durationLabel, moneyInText, relative, usd, words } from "../format.js";
import { wholeId } from "./ids.js";
import { chainAddressProblem } from "../../../../../sdk/nodejs/contract/chainAddress.ts";
import { RefusedInPage, requestLog, runLogged } from "../requestLog.js";
import { link, loading } from "./common.js";
import { objectPath } from "./itemLinks.js";
import { consolePaths, servicePaths } from "../paths.js";

const TOKENS = ["usdc", "usdt"];
const MICROS_PER_USD = 1_000_000;

/**
 * What the page can tell is wrong with a withdrawal before asking to confirm it, by the sandbox's
 * own rules: the contract's address format for the chain, at least one micro-unit, and no more
 * than the positions held when the wallet was last read (the sandbox checks again when it is sent).
 * @param {{ withdrawalAmount: number, destinationChain: string, destinationAddress: string }} body
 * @param {import("../payloads.js").PortfolioWallet | null} wallet
 * @returns {{ field: string, label: string, reason: string }[]}
 */
function withdrawalProblems(body, wallet) {
  /** @type {{ field: string, label: string, reason: string }[]} */
  const problems = [];
  const amountMicros = Math.round(body.withdrawalAmount * MICROS_PER_USD);
  const withdrawable = (wallet?.positions ?? []).reduce((sum, p) => sum + (p.valueUsd ?? 0), 0);
  if (!Number.isFinite(amountMicros) || amountMicros < 1)
    problems.push({
      field: "withdrawalAmount",
      label: "Amount (USD)",
      reason: "must be at least 0.000001 (one micro-unit)",
    });
  else if (wallet !== null && amountMicros > Math.round(withdrawable * MICROS_PER_USD))
    problems.push({
      field: "withdrawalAmount",
      label: "Amount (USD)",
      reason: `${usd(body.withdrawalAmount)} exceeds the withdrawable balance of ${usd(withdrawable)}: withdraw at most that`,
    });
  const addressProblem =
    body.destinationAddress === ""
      ? "is required"
      : chainAddressProblem(
          /** @type {import("../../../../../sdk/nodejs/contract/wallet.ts").KnownChain} */ (
            body.destinationChain
          ),
          body.destinationAddress,
        );
  if (addressProblem !== null)
    problems.push({ field: "destinationAddress", label: "Destination address", reason: addressProblem });
  return problems;
}

/**
 * One step of a timeline: its mark and its word say what happened to it, the colour only helps.
 * @param {"done" | "busy" | "bad" | "waiting" | "skipped" | "returned"} state
 * @param {import("../dom.js").Children} title
 * @param {import("../dom.js").Children} detail
 * @param {import("../dom.js").Attrs} [attrs]
 */
function step(state, title, detail, attrs = {}) {
  const marks = { done: "✓", busy: "…", bad: "✕", waiting: "○", skipped: "–", returned: "↩" };
  const said = {
    done: "done",
    busy: "in progress",
    bad: "failed",
    waiting: "not started",
    skipped: "skipped",
    returned: "returned to the wallet",
  };
  return h(
    "li",
    { class: `step step-${state}`, ...attrs },
    h("span", { class: "step-mark", "aria-hidden": "true" }, marks[state]),
    h(
      "div",
      { class: "step-body" },
      h("div", { class: "step-title" }, title, h("span", { class: "visually-hidden" }, ` (${said[state]})`)),
      h("div", { class: "step-detail" }, detail),
    ),
  );
}

/**
 * A leg's step: a skipped leg was never needed (not done), and a leg stopped because another
 * failed had its money returned (not failed itself); `outcome` of the console API says which.
 * @param {{ status: string, outcome?: string | null }} leg
 */
const legState = (leg) =>
  leg.status === "completed"
    ? "done"
    : leg.status === "skipped"
      ? "skipped"
      : leg.status === "failed"
        ? leg.outcome === "returned"
          ? "returned"
          : "bad"
        : leg.status === "processing"
          ? "busy"
          : "waiting";

/**
 * @param {import("../payloads.js").WithdrawalTimeline} withdrawal a withdrawal with its legs' times (GET /_console/api/wallets/{id}/withdrawals)
 * @param {string | null} now the sandbox clock
 */
function timeline(withdrawal, now) {
  /** @type {HTMLElement[]} */
  const steps = [step("done", "Requested", timeOf(withdrawal.createdAt))];
  if (withdrawal.signingActivityId) {
    const approval = String(withdrawal.signingActivityStatus ?? "");
    const state = approval.endsWith("COMPLETED") ? "done" : /REJECTED|FAILED/.test(approval) ? "bad" : "busy";
    steps.push(
      step(
        state,
        "Approval",
        state === "busy"
          ? ["Waiting for approvers: ", link("/approvals", "review it under Approvals")]
          : words(approval),
      ),
    );
  }
  for (const leg of withdrawal.legTimes ?? []) {
    const state = legState(leg);
    const timing =
      leg.status === "processing"
        ? ["due ", timeOf(leg.dueAt), ` (${relative(leg.dueAt, now)})`]
        : leg.status === "completed"
          ? ["paid ", timeOf(leg.updatedAt)]
          : state === "returned"
            ? [
                "stopped ",
                timeOf(leg.updatedAt),
                ", when another leg failed; its amount went back to the wallet",
              ]
            : leg.status === "failed"
              ? ["failed ", timeOf(leg.updatedAt)]
              : leg.status === "skipped"
                ? ["not needed"]
                : ["not started"];
    steps.push(
      step(
        state,
        [
          h("span", { class: "leg-key" }, `${leg.legKey} leg`),
          " ",
          statusPill(state === "returned" ? "returned" : leg.status),
        ],
        [
          `${usd(leg.amount)} from ${(leg.positionKeys ?? []).join(", ") || "—"} · liquidity ${durationLabel(leg.maxProcessingTime)} · `,
          ...timing,
        ],
        { "data-leg-key": leg.legKey, "data-leg-status": leg.status, "data-leg-state": state },
      ),
    );
  }
  if (withdrawal.status === "completed")
    steps.push(step("done", "Completed", timeOf(withdrawal.completedAt), { "data-outcome": "completed" }));
  else if (withdrawal.status === "failed")
    steps.push(
      step(
        "bad",
        "Failed",
        h("span", { class: "failure-reason" }, moneyInText(withdrawal.failureReason) || "no reason given"),
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
 * @param {ReturnType<typeof import("./itemLinks.js").itemFocus>} focus the withdrawal the address picks out, if any
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletWithdrawals(ctx, walletId, focus) {
  const list = h("div", { class: "region" }, loading("Reading the withdrawals…"));
  const log = requestLog("Withdrawal result");
  const submit = h("button", { type: "submit", class: "button primary" }, "Request withdrawal");
  const chainSelect = h(
    "select",
    {
      id: "withdraw-chain",
      name: "chain",
      "data-api-field": "destinationChain",
      // An address is refused for the chain it was checked against: another chain, another check.
      "data-stale-field": "destinationAddress",
    },
    h("option", { value: "ethereum" }, "ethereum"),
  );
  const form = h(
    "form",
    { class: "form-grid", id: "withdraw-form" },
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
        "data-api-field": "withdrawalAmount",
      }),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "withdraw-token" }, "Token"),
      h(
        "select",
        { id: "withdraw-token", name: "token", "data-api-field": "destinationToken" },
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
        "data-api-field": "destinationAddress",
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
    const body = {
      requestId: newRequestId(),
      withdrawalAmount: Number(fieldValue(form, "amount")),
      destinationToken: fieldValue(form, "token"),
      destinationChain: fieldValue(form, "chain"),
      destinationAddress: fieldValue(form, "address"),
    };
    // Refused here, at the fields, before the dialog: confirming a withdrawal the sandbox would
    // refuse only to be told so afterwards wastes the confirmation.
    const problems = withdrawalProblems(body, lastRead);
    if (problems.length > 0) {
      await runLogged(
        log,
        async () => {
          throw new RefusedInPage(
            `Not sent: ${problems.map((problem) => `${problem.label} ${problem.reason}`).join("; ")}.`,
            problems,
          );
        },
        { form },
      );
      return;
    }
    const confirmed = await confirmAction({
      title: "Request this withdrawal?",
      message: h(
        "p",
        {},
        "Pays ",
        h("strong", {}, usd(body.withdrawalAmount)),
        ` in ${body.destinationToken} on ${body.destinationChain} to `,
        h("code", { class: "mono break" }, body.destinationAddress),
        ". Money paid out cannot be called back.",
      ),
      confirmLabel: "Withdraw",
    });
    if (confirmed === null) return;
    submit.disabled = true;
    const made = await runLogged(
      log,
      async (call) => {
        const { body: created } = await call(
          request("POST", servicePaths.walletWithdraw(walletId), { body }),
        );
        return created?.status === "pending_approval"
          ? "Withdrawal requested. It waits for approval: approve it under Approvals."
          : `Withdrawal requested: ${words(created?.status)}.`;
      },
      { form },
    );
    // Made: the amount and address go, so a second click cannot pay the same again unawares
    // (token and chain stay, the likely choice for the next one).
    if (made)
      for (const name of ["amount", "address"]) {
        const control = form.elements.namedItem(name);
        if (control instanceof HTMLInputElement) control.value = "";
      }
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
  /** @type {import("../payloads.js").PortfolioWallet | null} */
  let lastRead = null;
  return {
    element,
    async refresh(wallet) {
      lastRead = wallet;
      const chains = Object.keys(wallet.depositAddresses ?? {});
      if (chains.length > 0 && chains.join() !== chainsKnown) {
        chainsKnown = chains.join();
        const selected = chainSelect.value;
        chainSelect.replaceChildren(
          ...chains.map((chain) => h("option", { value: chain, selected: chain === selected }, chain)),
        );
      }
      // An address naming one withdrawal reads the most a page holds, so an older one is still found.
      const pageSize = focus.id === null ? 20 : 100;
      const { body } = await request("GET", consolePaths.walletWithdrawals(walletId, { pageSize }));
      /** @type {import("../payloads.js").WithdrawalTimeline[]} */
      const withdrawals = Array.isArray(body?.data) ? body.data : [];
      const now = ctx.now();
      fillIfChanged(list, JSON.stringify([withdrawals, now?.slice(0, 16)]), () =>
        withdrawals.length === 0
          ? h("div", { class: "empty" }, h("p", {}, "No withdrawals yet."))
          : h(
              "div",
              { class: "withdrawals" },
              withdrawals.map((withdrawal) =>
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
                      `${usd(withdrawal.withdrawalAmount)} in ${withdrawal.destinationToken} on ${withdrawal.destinationChain}`,
                    ),
                    statusPill(withdrawal.status),
                  ),
                  h(
                    "p",
                    { class: "muted small withdrawal-ids" },
                    "To ",
                    wholeId(withdrawal.destinationAddress, "destination address"),
                    " · withdrawal ",
                    wholeId(withdrawal.id, "withdrawal id", {
                      path: objectPath({ kind: "withdrawal", id: withdrawal.id }),
                    }),
                  ),
                  timeline(withdrawal, now),
                ),
              ),
            ),
      );
      await focus.mark(list, pageSize);
    },
  };
}
