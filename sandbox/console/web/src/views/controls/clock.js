// @ts-check
// The sandbox clock: advance it by a preset or a chosen amount (POST /_sandbox/clock/advance).
// On the controls page in full; in the header as a menu of presets, so time can move from
// wherever its effect is watched.
import { request } from "../../api.js";
import { announce, h } from "../../dom.js";
import { when } from "../../format.js";
import { requestLog, runLogged } from "../../requestLog.js";
import { field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

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

/**
 * Advances the clock, showing the request and the answer in `log`.
 * @param {ReturnType<typeof requestLog>} log
 * @param {number} seconds
 * @param {() => void} after
 */
async function advance(log, seconds, after) {
  const ok = await runLogged(log, async (call) => {
    const { body } = await call(
      request("POST", sandboxPaths.clockAdvance, { admin: true, body: { seconds } }),
    );
    return `The sandbox clock is now ${when(body?.now)}. Work that fell due has settled.`;
  });
  if (ok) announce("The sandbox clock moved");
  after();
}

/**
 * The clock card's controls: presets, a chosen amount, and the log.
 * @param {() => void} after reads again (the page shows what settled)
 */
export function clockControls(after) {
  const log = requestLog("Clock result");
  const amount = h("input", {
    name: "amount",
    type: "number",
    min: 0,
    step: "any",
    value: 1,
    inputmode: "decimal",
  });
  const unit = h(
    "select",
    { name: "unit" },
    UNITS.map((option) =>
      h("option", { value: option.value, selected: option.value === "3600" }, option.label),
    ),
  );
  const custom = h(
    "form",
    { class: "inline-form" },
    field("clock-amount", "Advance by", amount),
    field("clock-unit", "Unit", unit),
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "button" }, "Advance")),
  );
  custom.addEventListener("submit", (event) => {
    event.preventDefault();
    void advance(log, Number(amount.value) * Number(unit.value), after);
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
          { type: "button", class: "button", onClick: () => void advance(log, preset.seconds, after) },
          `+ ${preset.label}`,
        ),
      ),
    ),
    custom,
    h(
      "p",
      { class: "hint" },
      "This moves this organization's clock only; other organizations of this sandbox keep their time. Deposit steps, payout legs and rebalances that fall due settle at once.",
    ),
    log.element,
  );
}

/**
 * The header's clock menu: a disclosure of presets. Its result (or refusal) shows inside it.
 * @param {() => void} after
 */
export function headerClock(after) {
  const log = requestLog("Clock result");
  const menu = h(
    "details",
    { class: "clock-menu" },
    h("summary", { class: "button small" }, "Advance time"),
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
              onClick: () => void advance(log, preset.seconds, after),
            },
            `+ ${preset.label}`,
          ),
        ),
      ),
      log.element,
    ),
  );
  return menu;
}
