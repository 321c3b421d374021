// @ts-check
// The sandbox clock: advance it by a preset or a chosen amount (POST /_sandbox/clock/advance).
// On the controls page in full; in the header as a menu of presets, so time can move from
// wherever its effect is watched.
import { request } from "../../api.js";
import { announce, h } from "../../dom.js";
import { localZone, when } from "../../format.js";
import { RefusedInPage, requestLog, runLogged } from "../../requestLog.js";
import { field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";
import { LATEST_TIMESTAMP_MS, MAX_CLOCK_ADVANCE_MS } from "../../../../../clock.ts";

export const ADVANCES = [
  { label: "1 second", seconds: 1 },
  { label: "1 hour", seconds: 3600 },
  { label: "24 hours", seconds: 86400 },
  { label: "7 days", seconds: 604800 },
];
const UNITS = [
  { value: "1", label: "seconds" },
  { value: "60", label: "minutes" },
  { value: "3600", label: "hours" },
  { value: "86400", label: "days" },
];

/** The most one advance moves the clock, in seconds. */
const MAX_ADVANCE_SECONDS = MAX_CLOCK_ADVANCE_MS / 1000;

/**
 * Advances the clock, showing the request and the answer in `log`.
 * @param {ReturnType<typeof requestLog>} log
 * @param {() => number} secondsOf how far; may throw RefusedInPage, and nothing is sent
 * @param {() => void} after
 * @param {HTMLFormElement} [form] where a refusal's field is marked
 * @returns {Promise<boolean>} whether it moved
 */
async function advance(log, secondsOf, after, form) {
  const ok = await runLogged(
    log,
    async (call) => {
      const seconds = secondsOf();
      const { body } = await call(
        request("POST", sandboxPaths.clockAdvance, { admin: true, body: { seconds } }),
      );
      return `The sandbox clock is now ${when(body?.now)}. Work that fell due has settled.`;
    },
    form === undefined ? {} : { form },
  );
  if (ok) announce("The sandbox clock moved");
  after();
  return ok;
}

/**
 * "Advance by" an amount of a unit, in seconds; refused in the unit typed when it is not above 0
 * or more than one advance moves.
 * @param {string} typed
 * @param {string} unitValue seconds per unit, as the unit's option holds it
 */
function advanceBySeconds(typed, unitValue) {
  const unitSeconds = Number(unitValue);
  const unitName = UNITS.find((option) => option.value === unitValue)?.label ?? "seconds";
  const amount = typed.trim() === "" ? Number.NaN : Number(typed);
  if (!(amount > 0))
    throw new RefusedInPage("Not sent: Advance by needs an amount above 0.", [
      { field: "seconds", reason: `enter how many ${unitName} to move the clock forward, more than 0` },
    ]);
  if (amount * unitSeconds > MAX_ADVANCE_SECONDS)
    throw new RefusedInPage(
      `Not sent: ${typed.trim()} ${unitName} is more than the sandbox clock moves at once.`,
      [
        {
          field: "seconds",
          reason: `at most ${MAX_ADVANCE_SECONDS / unitSeconds} ${unitName} (100 years) at once`,
        },
      ],
    );
  return amount * unitSeconds;
}

/** A date and time field's value ("2026-12-30T09:00") as the browser's local time, in ms. */
const localMs = (/** @type {string} */ value) => (value === "" ? Number.NaN : new Date(value).getTime());

/**
 * "Advance to a date", as a test clock is moved to a chosen moment: the sandbox's own clock is
 * read first (GET /_sandbox/clock), then moved by the difference (POST /_sandbox/clock/advance,
 * in ms). A moment not after the sandbox's now is refused at the field, and nothing is sent: the
 * clock only moves forward.
 * @param {string} idPrefix
 * @param {ReturnType<typeof requestLog>} log where the presets' results show too
 * @param {() => void} after
 * @param {(moved: boolean) => void} [done]
 */
function advanceToDate(idPrefix, log, after, done) {
  const target = h("input", {
    name: "until",
    type: "datetime-local",
    step: 60,
    required: true,
    // A refusal of the advance itself (past the clock's limit) is about this field too.
    "data-api-field": "ms",
  });
  const submit = h("button", { type: "submit", class: "button small" }, "Advance to date");
  const form = h(
    "form",
    { class: "inline-form advance-to-date", id: `${idPrefix}-to-date`, novalidate: true },
    field(`${idPrefix}-until`, `Advance to (${localZone()})`, target),
    h("div", { class: "form-actions" }, submit),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    submit.disabled = true;
    const chosen = localMs(target.value);
    const ok = await runLogged(
      log,
      async (call) => {
        if (!Number.isFinite(chosen))
          throw new RefusedInPage("Not sent: Advance to needs a date and a time.", [
            { field: "ms", reason: "choose a date and a time to move the sandbox clock to" },
          ]);
        const { body: clock } = await call(request("GET", sandboxPaths.clock, { admin: true }));
        const nowMs = Date.parse(String(clock?.now ?? ""));
        if (!(chosen > nowMs))
          throw new RefusedInPage(
            `Not sent: ${when(new Date(chosen).toISOString())} is not after the sandbox time now, ${when(clock?.now)}. The clock only moves forward.`,
            [{ field: "ms", reason: `choose a moment after ${when(clock?.now)}` }],
          );
        // One advance moves at most 100 years, and never past the year 9999 (sandbox/clock.ts).
        const latest = Math.min(nowMs + MAX_CLOCK_ADVANCE_MS, LATEST_TIMESTAMP_MS);
        if (chosen > latest)
          throw new RefusedInPage(
            `Not sent: ${when(new Date(chosen).toISOString())} is further ahead than the sandbox clock moves at once (100 years from its time now, ${when(clock?.now)}).`,
            [{ field: "ms", reason: `choose a moment up to ${when(new Date(latest).toISOString())}` }],
          );
        const { body } = await call(
          request("POST", sandboxPaths.clockAdvance, { admin: true, body: { ms: chosen - nowMs } }),
        );
        return `The sandbox clock is now ${when(body?.now)}. Work that fell due has settled.`;
      },
      { form },
    );
    if (ok) announce("The sandbox clock moved");
    submit.disabled = false;
    after();
    done?.(ok);
  });
  return form;
}

/**
 * The clock card's controls: presets, a chosen amount, and the log.
 * @param {() => void} after reads again (the page shows what settled)
 */
export function clockControls(after) {
  const log = requestLog("Clock result");
  const toDate = advanceToDate("clock", log, after);
  const amount = h("input", {
    name: "amount",
    type: "number",
    min: 0,
    step: "any",
    value: 1,
    inputmode: "decimal",
    // A refusal of the advance is about the amount, whichever unit it is in.
    "data-api-field": "seconds",
  });
  const unit = h(
    "select",
    // Marked with the amount, and changing it clears the amount's refusal.
    { name: "unit", "data-api-field": "seconds" },
    UNITS.map((option) =>
      h("option", { value: option.value, selected: option.value === "3600" }, option.label),
    ),
  );
  const custom = h(
    "form",
    { class: "inline-form", id: "clock-advance-by", novalidate: true },
    field("clock-amount", "Advance by", amount),
    field("clock-unit", "Unit", unit),
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "button" }, "Advance")),
  );
  custom.addEventListener("submit", (event) => {
    event.preventDefault();
    void advance(log, () => advanceBySeconds(amount.value, unit.value), after, custom);
  });
  return h(
    "div",
    { class: "stack" },
    h(
      "div",
      { class: "button-row", role: "group", "aria-label": "Advance the clock by" },
      ADVANCES.map((preset) =>
        h(
          "button",
          { type: "button", class: "button", onClick: () => void advance(log, () => preset.seconds, after) },
          `+ ${preset.label}`,
        ),
      ),
    ),
    custom,
    toDate,
    h(
      "p",
      { class: "hint" },
      "This moves this organization's clock only; other organizations of this sandbox keep their time. Deposit steps, payout legs and rebalances that fall due settle at once.",
    ),
    log.element,
  );
}

/**
 * The header's clock menu: a disclosure of presets and a date. It closes on Escape, on a click
 * outside it, and once time moved: open, it lies over the page (the wallet's figures, the live
 * banner), so it stays only while it is used or has a refusal to show. What it did shows beside
 * it for a moment (and in it, request and answer, when opened again).
 * @param {() => void} after
 */
export function headerClock(after) {
  const log = requestLog("Clock result");
  const summary = h("summary", { class: "button small" }, "Advance time");
  const moved = h("span", { class: "clock-moved", role: "status" });
  /** @type {number | undefined} */
  let fade;
  /** @param {boolean} ok @param {string} what */
  const finished = (ok, what) => {
    if (!ok) return;
    close();
    moved.textContent = `✓ ${what}`;
    window.clearTimeout(fade);
    fade = window.setTimeout(() => (moved.textContent = ""), 4000);
  };
  const toDate = advanceToDate("header-clock", log, after, (ok) => finished(ok, "moved to the date"));
  const menu = h(
    "details",
    { class: "clock-menu" },
    summary,
    h(
      "div",
      { class: "clock-menu-panel" },
      h(
        "div",
        { class: "button-row", role: "group", "aria-label": "Advance the sandbox clock by" },
        ADVANCES.map((preset) =>
          h(
            "button",
            {
              type: "button",
              class: "button small",
              onClick: async () =>
                finished(await advance(log, () => preset.seconds, after), `+ ${preset.label}`),
            },
            `+ ${preset.label}`,
          ),
        ),
      ),
      toDate,
      log.element,
    ),
  );
  function close() {
    if (!menu.open) return;
    const hadFocus = menu.contains(document.activeElement);
    menu.open = false;
    if (hadFocus) summary.focus();
  }
  // On the document: a button that was just disabled while it ran has dropped focus to the body.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open) {
      event.preventDefault();
      close();
    }
  });
  document.addEventListener("click", (event) => {
    if (menu.open && event.target instanceof Node && !menu.contains(event.target)) close();
  });
  return h("span", { class: "clock-control" }, menu, moved);
}
