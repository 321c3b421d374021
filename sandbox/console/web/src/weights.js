// @ts-check
// A target allocation editor: one weight per yield source of the catalog, in basis points, with the
// running total, which counts only when every weight is one (a whole number from 0 to
// TOTAL_WEIGHT_BPS, as the inputs' own limits hold them before sending). Sources left at 0 are left
// out of the request. The sandbox checks the rest (the total must be exactly the contract's
// TOTAL_WEIGHT_BPS) and its refusal names what is wrong.
import { TOTAL_WEIGHT_BPS } from "../../../../sdk/nodejs/contract/basisPoints.ts";
import { h } from "./dom.js";
import { durationLabel, percent } from "./format.js";

/**
 * An empty field is 0 (the source left out); text that is no number (the browser empties its
 * value) is none; anything else must be a whole number of bps in range.
 */
const weightOf = (/** @type {HTMLInputElement} */ input) =>
  input.validity.badInput ? Number.NaN : input.value.trim() === "" ? 0 : Number(input.value);
const isWeight = (/** @type {number} */ bps) => Number.isInteger(bps) && bps >= 0 && bps <= TOTAL_WEIGHT_BPS;

/**
 * @typedef {object} YieldSource
 * @property {string} positionKey
 * @property {string} asset
 * @property {string} strategyType
 * @property {string} maxProcessingTime
 * @property {number} currentRateBps
 * @property {string} [displayName]
 */

/**
 * @param {YieldSource[]} catalog
 * @param {Record<string, number>} initial positionKey → target weight in bps
 * @param {string} idPrefix keeps the inputs' ids unique on the page
 */
export function weightEditor(catalog, initial, idPrefix) {
  const total = h("output", { class: "weight-total", "aria-live": "polite" });
  /** @type {Map<string, HTMLInputElement>} */
  const inputs = new Map();

  /** What is wrong with each weight that is no weight, as "tbills: −1000 is not …". */
  const problems = () =>
    [...inputs.entries()]
      .filter(([, input]) => !isWeight(weightOf(input)))
      .map(
        ([positionKey, input]) =>
          `${nameOf(positionKey)}: ${input.validity.badInput ? "what is typed" : input.value.trim().replace(/^-/, "−")} is not a weight; each is a whole number of bps from 0 to ${TOTAL_WEIGHT_BPS}`,
      );
  const nameOf = (/** @type {string} */ key) =>
    catalog.find((s) => s.positionKey === key)?.displayName ?? key;
  const refreshTotal = () => {
    const value = [...inputs.values()].reduce((acc, input) => acc + (weightOf(input) || 0), 0);
    const wrong = problems();
    total.textContent =
      wrong.length === 0
        ? `Total ${value} of ${TOTAL_WEIGHT_BPS} bps (${percent(value)})`
        : `Total not counted: ${wrong.join("; ")}`;
    total.className = `weight-total ${wrong.length === 0 && value === TOTAL_WEIGHT_BPS ? "total-ok" : "total-off"}`;
  };

  const rows = catalog.map((source) => {
    const id = `${idPrefix}-${source.positionKey}`;
    const input = h("input", {
      id,
      name: `weight-${source.positionKey}`,
      type: "number",
      inputmode: "numeric",
      min: 0,
      max: TOTAL_WEIGHT_BPS,
      step: 1,
      value: initial[source.positionKey] ?? 0,
      class: "weight-input",
      "aria-describedby": `${id}-about`,
      // A refusal of the allocation ("target weights sum to 9000 bps") is marked on every weight.
      "data-api-field": "positions",
      "data-field-name": "Target weights",
      onInput: refreshTotal,
    });
    inputs.set(source.positionKey, input);
    return h(
      "tr",
      {},
      h(
        "th",
        { scope: "row" },
        h("label", { for: id }, source.displayName ?? source.positionKey),
        h(
          "span",
          { class: "muted small block", id: `${id}-about` },
          `${source.asset} · ${source.strategyType}`,
        ),
      ),
      h("td", { "data-label": "Rate" }, percent(source.currentRateBps)),
      h("td", { "data-label": "Liquidity" }, durationLabel(source.maxProcessingTime)),
      h("td", { "data-label": "Target weight (bps)" }, input),
    );
  });

  const element = h(
    "div",
    { class: "weight-editor" },
    h(
      "div",
      { class: "table-scroll", role: "region", "aria-label": "Target weights", tabindex: 0 },
      h(
        "table",
        { class: "data-table compact cards-narrow" },
        h("caption", { class: "visually-hidden" }, "Target weight per yield source, in basis points"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Yield source"),
            h("th", { scope: "col" }, "Rate"),
            h("th", { scope: "col" }, "Liquidity"),
            h("th", { scope: "col" }, "Target weight (bps)"),
          ),
        ),
        h("tbody", {}, rows),
      ),
    ),
    total,
    h("div", { "data-field-error-slot": "positions" }),
  );
  refreshTotal();

  return {
    element,
    /** The positions to send: every source with a weight above 0. */
    positions() {
      return [...inputs.entries()]
        .map(([positionKey, input]) => ({ positionKey, targetWeightBps: weightOf(input) }))
        .filter((position) => position.targetWeightBps !== 0);
    },
  };
}
