// @ts-check
// A wallet's statement over a period chosen in the browser's time zone: the figures, each movement,
// and the CSV or JSON to download. Computed by the sandbox with the contract's walletStatement,
// the computation `portfolio-wallet statement` runs (docs/cli.md "statement"); the CSV is written
// by the contract's statementCsv, the CLI's own.
import { statementCsv } from "../../../../../sdk/nodejs/contract/statementCsv.ts";
import { statementPeriodProblems } from "../../../../../sdk/nodejs/contract/statementPeriod.ts";
import { microsToFixedUsd, microsToUsd } from "../../../../../sdk/nodejs/contract/money.ts";
import { ApiError, request } from "../api.js";
import { announce, card, fill, h, table, timeOf } from "../dom.js";
import { clearFieldErrors, refusalDetails, showFieldErrors } from "../fieldErrors.js";
import { localZone, usd, when } from "../format.js";
import { consolePaths } from "../paths.js";
import { field } from "./controls/forms.js";

/** @typedef {import("../payloads.js").Statement} Statement */

const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");

/**
 * A moment as a date-and-time field holds it, in the browser's time zone, to the second.
 * @param {number} ms
 */
function localInputValue(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A date-and-time field's value as the instant it names in the browser's time zone, or "" when empty. */
const instantOf = (/** @type {string} */ value) => {
  if (value === "") return "";
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
};

/** Micro-units as text, as dollars to the cent with the exact amount for scripts and on hover. */
const money = (/** @type {string} */ micros) =>
  h(
    "span",
    { class: "num", "data-micros": micros, title: `${microsToFixedUsd(BigInt(micros))} USD` },
    usd(microsToUsd(BigInt(micros))),
  );

const KIND_WORDS = {
  deposit: "Deposit",
  withdrawal: "Withdrawal (debited)",
  payout: "Payout (paid)",
  returned: "Returned to the wallet",
  yield: "Yield",
};

/**
 * Saves text as a file of the browser's downloads.
 * @param {string} text
 * @param {string} type
 * @param {string} name
 */
function download(text, type, name) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const anchor = h("a", { href: url, download: name, hidden: true });
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // After the click has started the download: the address is not needed any more.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** @param {Statement} statement */
const fileName = (statement, /** @type {string} */ extension) =>
  `statement-${statement.walletId}-${statement.period.from}-${statement.period.to}.${extension}`.replaceAll(
    ":",
    "",
  );

/** @param {Statement} statement */
function statementView(statement) {
  const figures = /** @type {[string, string][]} */ ([
    ["Opening balance", statement.openingBalanceMicros],
    ["Deposits", statement.depositsMicros],
    ["Withdrawals", statement.withdrawalsMicros],
    ["Returned to the wallet", statement.returnedMicros],
    ["Payouts paid", statement.payoutsMicros],
    ["Yield generated", statement.yieldMicros],
    ["Closing balance", statement.closingBalanceMicros],
  ]);
  return [
    h(
      "p",
      { class: "hint" },
      `From ${when(statement.period.from)} (excluded) to ${when(statement.period.to)} (included). `,
      "The closing balance is the opening balance plus deposits and returned money, less withdrawals, plus yield; payouts left the balance when they were debited.",
    ),
    table({
      caption: "Statement figures",
      columns: ["Figure", "Amount"],
      rows: figures.map(([label, micros]) => [label, money(micros)]),
      rowAttrs: (index) => ({ "data-figure": figures[index]?.[0] ?? null }),
    }),
    statement.movements.length === 0
      ? h("p", { class: "empty" }, "No money moved in this period.")
      : table({
          caption: "Movements, oldest first",
          columns: ["Time", "Kind", "Id", "Leg", "Amount", "Balance change", "Related"],
          rows: statement.movements.map((movement) => [
            timeOf(movement.at),
            KIND_WORDS[movement.kind],
            h("code", { class: "mono small break-at-separators" }, movement.id),
            movement.legKey ?? "—",
            money(movement.amountMicros),
            money(movement.balanceChangeMicros),
            // A transaction hash or an address has no separator to wrap at: it wraps anywhere.
            h("span", { class: "break" }, movement.related),
          ]),
          rowAttrs: (index) => ({ "data-movement-kind": statement.movements[index]?.kind ?? null }),
        }),
  ];
}

/**
 * @param {import("./common.js").ViewContext} _ctx
 * @param {string} walletId
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletStatement(_ctx, walletId) {
  const from = h("input", {
    name: "from",
    type: "datetime-local",
    step: 1,
    required: true,
    "data-api-field": "from",
  });
  const to = h("input", {
    name: "to",
    type: "datetime-local",
    step: 1,
    required: true,
    "data-api-field": "to",
  });
  const show = h("button", { type: "submit", class: "button primary" }, "Show statement");
  const outcome = h("div", { class: "region" });
  const zone = localZone();
  const form = h(
    "form",
    { class: "form-grid statement-period", id: "statement-form", novalidate: true },
    field("statement-from", `From, excluded (${zone})`, from),
    field("statement-to", `To, included (${zone})`, to),
    h("div", { class: "form-actions span-all" }, show),
  );
  /** @type {Statement | null} */
  let shown = null;
  const downloads = h(
    "div",
    { class: "button-row", role: "group", "aria-label": "Download the statement", hidden: true },
    h(
      "button",
      {
        type: "button",
        class: "button",
        onClick: () => shown && download(statementCsv(shown), "text/csv", fileName(shown, "csv")),
      },
      "Download CSV",
    ),
    h(
      "button",
      {
        type: "button",
        class: "button",
        onClick: () =>
          shown &&
          download(`${JSON.stringify(shown, null, 2)}\n`, "application/json", fileName(shown, "json")),
      },
      "Download JSON",
    ),
  );
  const refused = (
    /** @type {string} */ message,
    /** @type {{ field: string, reason: string }[]} */ details,
  ) => {
    shown = null;
    downloads.hidden = true;
    showFieldErrors(form, details);
    fill(outcome, h("p", { class: "notice notice-bad", role: "alert" }, message));
  };
  form.addEventListener("input", (event) => {
    const name = /** @type {HTMLInputElement} */ (event.target).name;
    clearFieldErrors(form, name);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const period = { from: instantOf(from.value), to: instantOf(to.value) };
    const empty = [
      ...(period.from === ""
        ? [{ field: "from", reason: "choose the date and time the statement starts after" }]
        : []),
      ...(period.to === ""
        ? [{ field: "to", reason: "choose the date and time the statement ends at" }]
        : []),
    ];
    // The contract's check, its reasons in the page's words: times of the browser's zone, not UTC.
    const problems =
      empty.length > 0
        ? empty
        : statementPeriodProblems(period).map((problem) =>
            problem.field === "to" && !Number.isNaN(Date.parse(period.to))
              ? { field: "to", reason: `choose a moment after From (${when(period.from)})` }
              : { field: problem.field, reason: "choose a date and a time" },
          );
    if (problems.length > 0) {
      const label = (/** @type {string} */ name) => (name === "from" ? "From" : "To");
      refused(`Not sent: ${problems.map((p) => `${label(p.field)}: ${p.reason}`).join("; ")}.`, problems);
      return;
    }
    show.disabled = true;
    try {
      const { body } = await request("GET", consolePaths.walletStatement(walletId, period));
      shown = /** @type {Statement} */ (body);
      downloads.hidden = false;
      fill(outcome, statementView(shown));
      announce(`Statement shown: ${shown.movements.length} movements`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refused(error.message, refusalDetails(error.body));
    } finally {
      show.disabled = false;
    }
  });
  const element = card(
    "Statement",
    [
      h(
        "p",
        { class: "hint" },
        `A period's opening balance, deposits, withdrawals, payouts, yield and closing balance, each movement listed: for a reconciliation test. Times are in ${zone}; the CSV and JSON keep every micro-unit and UTC times. `,
        h("code", {}, "portfolio-wallet statement"),
        " gives the same from a terminal.",
      ),
      form,
      downloads,
      outcome,
    ],
    { id: "statement-heading" },
  );
  let defaulted = false;
  return {
    element,
    async refresh(wallet) {
      if (defaulted) return;
      // The wallet's life so far on the sandbox clock, whole seconds: from just before it was
      // made, to the second after the sandbox's now (the period includes its end).
      if (from.value === "")
        from.value = localInputValue(Math.floor(Date.parse(wallet.createdAt) / 1000) * 1000 - 1000);
      const { body: current } = await request("GET", consolePaths.session);
      const nowMs = Date.parse(String(current?.now ?? ""));
      if (to.value === "" && Number.isFinite(nowMs))
        to.value = localInputValue(Math.ceil(nowMs / 1000) * 1000);
      defaulted = true;
    },
  };
}
