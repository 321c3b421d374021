// @ts-check
// The wallet's two charts, drawn with HTML and CSS (widths set through the style object, which the
// page's content security policy allows). Each chart is one image for assistive technology, with
// a sentence as its label, and a table of the same figures beside it.
import { h, table } from "./dom.js";
import { compareLiquidity, isInstantlyWithdrawable } from "../../../../sdk/nodejs/contract/duration.ts";
import { TOTAL_WEIGHT_BPS } from "../../../../sdk/nodejs/contract/basisPoints.ts";
import { drift, durationLabel, percent, usd } from "./format.js";

/**
 * @typedef {object} Position
 * @property {string} positionKey
 * @property {number} targetWeightBps
 * @property {number} weightBps
 * @property {number} driftBps
 * @property {number} [valueUsd]
 * @property {{ asset?: string, maxProcessingTime?: string }} [meta]
 */

/** @param {number} bps a share of the whole (TOTAL_WEIGHT_BPS), clamped to the track */
const widthOf = (bps) => `${Math.max(0, Math.min(100, (bps / TOTAL_WEIGHT_BPS) * 100))}%`;

/**
 * @param {HTMLElement} element
 * @param {Partial<Record<"width" | "left", string>>} style
 */
function styled(element, style) {
  for (const [name, value] of Object.entries(style)) element.style.setProperty(name, value ?? "");
  return element;
}

/** @param {number} bps */
const driftTone = (bps) => (Math.abs(bps) < 1 ? "drift-none" : bps > 0 ? "drift-over" : "drift-under");

/**
 * Target against actual weight per yield source, with the drift of each.
 * @param {Position[]} positions
 */
export function allocationChart(positions) {
  const summary = positions
    .map(
      (p) =>
        `${p.positionKey}: target ${percent(p.targetWeightBps)}, actual ${percent(p.weightBps)}, drift ${drift(p.driftBps)}`,
    )
    .join("; ");
  const chart = h(
    "div",
    {
      class: "bullet-chart",
      role: "img",
      "aria-label": `Target against actual weight per yield source. ${summary}.`,
    },
    positions.map((p) =>
      h(
        "div",
        { class: "bullet-row" },
        h("span", { class: "bullet-label" }, p.positionKey),
        h(
          "span",
          { class: "bullet-track" },
          styled(h("span", { class: "bullet-target-band" }), { width: widthOf(p.targetWeightBps) }),
          styled(h("span", { class: "bullet-actual" }), { width: widthOf(p.weightBps) }),
          styled(h("span", { class: "bullet-target-marker" }), { left: widthOf(p.targetWeightBps) }),
        ),
        h("span", { class: `bullet-drift ${driftTone(p.driftBps)}` }, drift(p.driftBps)),
      ),
    ),
  );
  return h(
    "figure",
    { class: "chart" },
    h(
      "div",
      { class: "chart-legend", "aria-hidden": "true" },
      h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-actual" }), "Actual weight"),
      h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-target" }), "Target weight"),
      h("span", { class: "legend-item" }, h("span", { class: "swatch swatch-band" }), "Target share"),
    ),
    chart,
    table({
      caption: "Allocation per yield source",
      captionHidden: true,
      className: "data-table compact allocation-table",
      columns: ["Yield source", "Target", "Actual", "Drift", "Value"],
      rows: positions.map((p) => [
        p.positionKey,
        percent(p.targetWeightBps),
        percent(p.weightBps),
        drift(p.driftBps),
        usd(p.valueUsd),
      ]),
      rowAttrs: (index) => {
        const p = /** @type {Position} */ (positions[index]);
        return {
          "data-position-key": p.positionKey,
          "data-target-bps": p.targetWeightBps,
          "data-weight-bps": p.weightBps,
          "data-drift-bps": p.driftBps,
        };
      },
    }),
  );
}

/**
 * The share of the wallet withdrawable within each processing time, cumulated from the fastest.
 * @param {{ maxProcessingTime: string, weightBps: number }[]} profile
 */
export function liquidityChart(profile) {
  // The contract's order: fastest first, a limit that does not parse last (never liquid).
  const entries = [...profile].sort((a, b) => compareLiquidity(a.maxProcessingTime, b.maxProcessingTime));
  let running = 0;
  const rows = entries.map((entry) => {
    running += entry.weightBps;
    return { ...entry, cumulativeBps: running };
  });
  const labelOf = (/** @type {string} */ duration) =>
    isInstantlyWithdrawable(duration) ? "Instantly" : `Within ${durationLabel(duration).toLowerCase()}`;
  const summary = rows
    .map((row) => `${labelOf(row.maxProcessingTime)}: ${percent(row.cumulativeBps)}`)
    .join("; ");
  return h(
    "figure",
    { class: "chart" },
    h(
      "div",
      {
        class: "bar-chart",
        role: "img",
        "aria-label": `Share of the wallet withdrawable within each processing time. ${summary}.`,
      },
      rows.map((row) =>
        h(
          "div",
          { class: "bar-row" },
          h("span", { class: "bar-label" }, labelOf(row.maxProcessingTime)),
          h(
            "span",
            { class: "bar-track" },
            styled(h("span", { class: "bar-earlier" }), {
              width: widthOf(row.cumulativeBps - row.weightBps),
            }),
            styled(h("span", { class: "bar-fill" }), {
              left: widthOf(row.cumulativeBps - row.weightBps),
              width: widthOf(row.weightBps),
            }),
          ),
          h("span", { class: "bar-value" }, percent(row.cumulativeBps)),
        ),
      ),
    ),
    table({
      caption: "Liquidity profile",
      captionHidden: true,
      className: "data-table compact",
      columns: ["Processing time", "Share of the wallet", "Withdrawable by then"],
      rows: rows.map((row) => [
        durationLabel(row.maxProcessingTime),
        percent(row.weightBps),
        percent(row.cumulativeBps),
      ]),
    }),
  );
}
