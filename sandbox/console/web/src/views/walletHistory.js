// @ts-check
// A wallet over sandbox time: balance, generated yield and the weight of each source (with its
// drift against the current target), from the ledger (GET /_console/api/wallets/{id}/history)
// and, as the last point, the wallet's own read now. Charts, and a table of the same figures.
import { TOTAL_WEIGHT_BPS } from "../../../../../sdk/nodejs/contract/basisPoints.ts";
import { request } from "../api.js";
import { fillIfChanged, h, table, timeOf } from "../dom.js";
import { drift, localZone, percent, usd } from "../format.js";
import { timeChart } from "../timeCharts.js";
import { consolePaths, servicePaths } from "../paths.js";

/** How many moments the table lists, newest first (the charts draw every one). */
const TABLE_ROWS = 12;
/**
 * How many moments the yield chart asks the service for. The ledger books accrued yield only when
 * the wallet settles (a deposit, a withdrawal, a rebalance), so replayed from bookings the yield
 * of 30 quiet days is $0 until the last point; the service's yield metrics (POST
 * /v2/portfolio-wallets/yield with a period's end) spread it over the time it was earned.
 */
const YIELD_SAMPLES = 24;

/**
 * A moment of the wallet's history (the console API's), or its own read now (`live`).
 * @typedef {import("../payloads.js").WalletHistoryPoint & { live?: boolean }} Point
 */

/** @param {Point} point @param {string} key */
const weightBps = (point, key) =>
  point.balanceUsd > 0 ? Math.round(((point.positions[key] ?? 0) / point.balanceUsd) * TOTAL_WEIGHT_BPS) : 0;

/** A short time for the charts' axes, in the browser's time zone as the table's: "25 Nov, 18:31". */
const axisFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
});

/**
 * The wallet's generated yield at evenly spread moments from its first booking to `now`, as the
 * service reports it (one read per moment, side by side); the last is the figure read now.
 * @param {string} walletId
 * @param {number} fromMs
 * @param {string} now
 * @param {number} generatedNow
 * @returns {Promise<{ t: number, v: number }[]>}
 */
async function yieldSamples(walletId, fromMs, now, generatedNow) {
  const nowMs = Date.parse(now);
  if (!(nowMs > fromMs)) return [{ t: nowMs, v: generatedNow }];
  const moments = Array.from(
    { length: YIELD_SAMPLES - 1 },
    (_, index) => fromMs + Math.round(((nowMs - fromMs) * index) / (YIELD_SAMPLES - 1)),
  );
  const figures = await Promise.all(
    moments.map(async (ms) => {
      const { body } = await request("POST", servicePaths.yieldMetrics, {
        body: { portfolioWalletIds: [walletId], periodEndIso: new Date(ms).toISOString() },
      });
      const generated = body?.portfolioWallets?.[walletId]?.generated;
      return { t: ms, v: typeof generated === "number" ? generated : 0 };
    }),
  );
  return [...figures, { t: nowMs, v: generatedNow }];
}
const axisTime = (/** @type {number} */ ms) => axisFormat.format(new Date(ms));

/**
 * @param {string} walletId
 */
export function walletHistory(walletId) {
  const element = h("div", { class: "region" });
  return {
    element,
    /**
     * @param {import("../payloads.js").PortfolioWallet} wallet the wallet as read now
     * @param {number | undefined} generatedNow its generated yield now (the yield API)
     * @param {string | null} now the sandbox clock
     */
    async refresh(wallet, generatedNow, now) {
      const { body } = await request("GET", consolePaths.walletHistory(walletId));
      /** @type {Point[]} */
      const points = Array.isArray(body?.points) ? [...body.points] : [];
      if (now !== null && typeof generatedNow === "number")
        points.push({
          at: now,
          balanceUsd: wallet.totalBalanceUsd,
          yieldGeneratedUsd: generatedNow,
          positions: Object.fromEntries((wallet.positions ?? []).map((p) => [p.positionKey, p.valueUsd])),
          live: true,
        });
      /** @type {{ positionKey: string, targetWeightBps: number }[]} */
      const targets = wallet.strategyConfig?.positions ?? [];
      const key = JSON.stringify([body, now?.slice(0, 16), targets]);
      // Asked again only when what is drawn would change (a booking, a minute of sandbox time).
      const first = points[0];
      const generated =
        element.dataset["renderedFrom"] === key || first === undefined || now === null
          ? []
          : await yieldSamples(walletId, Date.parse(first.at), now, generatedNow ?? 0);
      fillIfChanged(element, key, () => {
        if (points.length === 0)
          return h("p", { class: "muted" }, "Nothing booked yet: the history starts with the first deposit.");
        const t = (/** @type {Point} */ point) => new Date(point.at).getTime();
        return [
          h(
            "div",
            { class: "grid two charts-over-time" },
            timeChart({
              label: "Balance",
              series: [
                { name: "Balance", tone: 0, points: points.map((p) => ({ t: t(p), v: p.balanceUsd })) },
              ],
              format: usd,
              when: axisTime,
              zone: localZone(),
            }),
            timeChart({
              label: "Yield generated",
              series: [{ name: "Yield generated", tone: 1, shape: "line", points: generated }],
              format: usd,
              when: axisTime,
              zone: localZone(),
            }),
            h(
              "div",
              { class: "span-2" },
              timeChart({
                label: "Weight per yield source",
                series: targets.map((target, index) => ({
                  name: `${target.positionKey} (target ${percent(target.targetWeightBps)})`,
                  tone: index,
                  points: points.map((p) => ({ t: t(p), v: weightBps(p, target.positionKey) })),
                })),
                format: percent,
                when: axisTime,
                zone: localZone(),
              }),
            ),
          ),
          h(
            "p",
            { class: "hint" },
            `The same figures at the last ${Math.min(TABLE_ROWS, points.length)} bookings, newest first; each source's drift is against its current target.`,
          ),
          table({
            caption: "The wallet at its last bookings, newest first",
            captionHidden: true,
            className: "data-table compact history-table",
            columns: [
              "Time",
              "Balance",
              "Yield generated",
              ...targets.map((target) => `${target.positionKey} weight (drift)`),
            ],
            rows: points
              .slice(-TABLE_ROWS)
              .reverse()
              .map((point) => [
                point.live
                  ? [timeOf(point.at), h("span", { class: "muted small block" }, "now")]
                  : timeOf(point.at),
                usd(point.balanceUsd),
                usd(point.yieldGeneratedUsd),
                ...targets.map((target) => {
                  const weight = weightBps(point, target.positionKey);
                  return `${percent(weight)} (${point.balanceUsd > 0 ? drift(weight - target.targetWeightBps) : "—"})`;
                }),
              ]),
            rowAttrs: (index) => {
              const point = points.slice(-TABLE_ROWS).reverse()[index];
              return {
                "data-at": point?.at,
                "data-live": point?.live ? "true" : null,
                "data-balance": point?.balanceUsd,
                "data-yield": point?.yieldGeneratedUsd,
              };
            },
          }),
        ];
      });
    },
  };
}
