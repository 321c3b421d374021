// @ts-check
// Charts over sandbox time, drawn as inline SVG built in the page (no library, nothing fetched):
// a few polylines over a handful of points need no more, and SVG scales to any width. Each chart
// is one image for assistive technology, labelled with a sentence of its figures; the table beside
// the charts (walletHistory.js) holds the same figures.
import { h } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 160;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 */
function svg(tag, attrs) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  return element;
}

/**
 * @typedef {object} Series
 * @property {string} name
 * @property {number} tone which of the chart colours (0, 1, 2, …)
 * @property {{ t: number, v: number }[]} points time in ms, value
 * @property {"step" | "line"} [shape] a step at each booking (a figure holds until the next
 *   changes it), or straight lines between samples of a figure that grows gradually
 */

/**
 * Lines over time, on one scale from 0 (or the lowest value, when below 0) to the highest. The
 * axis names the time zone its times are in (`zone`).
 * @param {{ label: string, series: Series[], format: (value: number) => string, when: (ms: number) => string, zone: string }} spec
 */
export function timeChart(spec) {
  const all = spec.series.flatMap((series) => series.points);
  const times = all.map((point) => point.t);
  const values = all.map((point) => point.v);
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const low = Math.min(0, ...values);
  const high = Math.max(...values, low + 1e-9);
  const x = (/** @type {number} */ t) => (t1 === t0 ? WIDTH : ((t - t0) / (t1 - t0)) * WIDTH);
  const y = (/** @type {number} */ v) => HEIGHT - ((v - low) / (high - low)) * HEIGHT;
  const drawing = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: "none",
    class: "time-chart-plot",
    "aria-hidden": "true",
    focusable: "false",
  });
  for (const fraction of [0, 0.5, 1])
    drawing.append(
      svg("line", { x1: 0, x2: WIDTH, y1: fraction * HEIGHT, y2: fraction * HEIGHT, class: "grid-line" }),
    );
  for (const series of spec.series) {
    const path = series.points
      .map((point, index) => {
        const previous = series.points[index - 1];
        const step =
          previous === undefined || series.shape === "line"
            ? ""
            : `L${x(point.t).toFixed(1)},${y(previous.v).toFixed(1)} `;
        return `${index === 0 ? "M" : step + "L"}${x(point.t).toFixed(1)},${y(point.v).toFixed(1)}`;
      })
      .join(" ");
    // Each series has its own dash (the stylesheet's series-N), so two that coincide (equal
    // weights) still both show; the figures drawn are on the path for scripts and tests.
    drawing.append(
      svg("path", {
        d: path,
        // A lone series needs no dash to be told apart.
        class: `series series-${series.tone}${spec.series.length === 1 ? " series-alone" : ""}`,
        "vector-effect": "non-scaling-stroke",
        "data-series": series.name,
        "data-points": series.points
          .map((point) => `${new Date(point.t).toISOString()}=${point.v}`)
          .join(" "),
      }),
    );
  }
  const sentence = spec.series
    .map((series) => {
      const first = series.points[0];
      const last = series.points.at(-1);
      return first === undefined || last === undefined
        ? `${series.name}: no figures`
        : `${series.name} from ${spec.format(first.v)} (${spec.when(first.t)}) to ${spec.format(last.v)} (${spec.when(last.t)})`;
    })
    .join("; ");
  return h(
    "figure",
    { class: "time-chart" },
    h("figcaption", {}, spec.label),
    h(
      "div",
      { class: "time-chart-body", role: "img", "aria-label": `${spec.label}. ${sentence}.` },
      h(
        "div",
        { class: "time-chart-scale", "aria-hidden": "true" },
        h("span", {}, spec.format(high)),
        h("span", {}, spec.format(low)),
      ),
      drawing,
    ),
    h(
      "div",
      { class: "time-chart-axis", "aria-hidden": "true" },
      h("span", {}, spec.when(t0)),
      h("span", { class: "time-chart-zone" }, `times in ${spec.zone}`),
      h("span", {}, spec.when(t1)),
    ),
    spec.series.length > 1
      ? h(
          "div",
          { class: "chart-legend", "aria-hidden": "true" },
          spec.series.map((series) => {
            const last = series.points.at(-1);
            return h(
              "span",
              { class: "legend-item", "data-legend": series.name },
              h("span", { class: `swatch swatch-series-${series.tone}` }),
              // The latest figure beside the name: lines that coincide still read apart.
              last === undefined ? series.name : `${series.name}: ${spec.format(last.v)}`,
            );
          }),
        )
      : null,
  );
}
