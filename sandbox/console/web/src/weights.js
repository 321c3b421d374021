// @ts-check
// A target allocation editor: one weight per yield source of the catalog, in basis points, with the
// running total. Sources left at 0 are left out of the request. The sandbox checks the rest (the
// total must be exactly the contract's TOTAL_WEIGHT_BPS) and its refusal names what is wrong.
import { TOTAL_WEIGHT_BPS } from "../../../../sdk/nodejs/contract/basisPoints.ts";
import { h } from "./dom.js";
import { durationLabel, percent } from "./format.js";

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

  const sum = () => [...inputs.values()].reduce((acc, input) => acc + (Number(input.value) || 0), 0);
  const refreshTotal = () => {
    const value = sum();
    total.textContent = `Total ${value} of ${TOTAL_WEIGHT_BPS} bps (${percent(value)})`;
    total.className = `weight-total ${value === TOTAL_WEIGHT_BPS ? "total-ok" : "total-off"}`;
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
        .map(([positionKey, input]) => ({ positionKey, targetWeightBps: Number(input.value) }))
        .filter((position) => position.targetWeightBps !== 0);
    },
  };
}
