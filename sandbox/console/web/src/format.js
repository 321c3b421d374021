// @ts-check
// How the console writes amounts, weights, rates, durations and times. Amounts are USD as the API
// gives them (micro-unit precision), never rounded to fewer digits than they carry.
import { durationLength } from "../../../../sdk/nodejs/contract/duration.ts";

const usdFormat = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

/** A no-break space: a figure and its unit stay on one line. */
const NBSP = "\u00a0";

const centsFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/**
 * An amount in dollars and cents; an amount too small to show in cents keeps its micro-units
 * ($0.000123), so a little yield never reads as nothing.
 * @param {number | null | undefined} amount
 */
export function usd(amount) {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return "—";
  return amount !== 0 && Math.abs(amount) < 0.005 ? usdFormat.format(amount) : centsFormat.format(amount);
}

/**
 * A weight or rate in basis points as a percentage: 6000 → "60.00%".
 * @param {number | null | undefined} bps
 */
export function percent(bps) {
  return typeof bps === "number" && Number.isFinite(bps) ? `${(bps / 100).toFixed(2)}%` : "—";
}

/**
 * A signed drift in basis points as percentage points: -120 → "−1.20 pp", 0 → "0.00 pp".
 * @param {number | null | undefined} bps
 */
export function drift(bps) {
  if (typeof bps !== "number" || !Number.isFinite(bps)) return "—";
  const points = (Math.abs(bps) / 100).toFixed(2);
  if (points === "0.00") return `0.00${NBSP}pp`;
  return `${bps > 0 ? "+" : "−"}${points}${NBSP}pp`;
}

/**
 * A liquidity limit in words: PT0H → "Instant", PT24H → "24 hours", PT168H → "7 days", in the
 * contract's words (`durationLength`, the one way a report, a listing and this page say a duration),
 * read with its one duration parser, so the page and the service agree on what a limit means.
 * @param {string | null | undefined} duration
 */
export function durationLabel(duration) {
  if (typeof duration !== "string") return "—";
  const length = durationLength(duration);
  if (length === null) return duration;
  return length === "" ? "Instant" : length;
}

const DATE_TIME = /** @type {const} */ ({
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});
/** In the browser's own time zone, named ("CET", "GMT+5:30"; "UTC" where the browser is on UTC). */
const localTimeFormat = new Intl.DateTimeFormat("en-GB", { ...DATE_TIME, timeZoneName: "short" });
const utcTimeFormat = new Intl.DateTimeFormat("en-GB", { ...DATE_TIME, timeZone: "UTC" });

/** The browser's time zone as the console's times name it ("GMT+5:30", "CET"). */
export function localZone() {
  return (
    localTimeFormat.formatToParts(new Date()).find((part) => part.type === "timeZoneName")?.value ??
    "local time"
  );
}

/**
 * A date's text, breakable only after the comma.
 * @param {string} text
 */
const unbroken = (text) =>
  text
    .split(", ")
    .map((part) => part.replaceAll(" ", NBSP))
    .join(", ");

/**
 * A sandbox-clock time in the browser's time zone, the zone named: "1 Jan 2026, 01:00:05 CET".
 * `whenUtc` gives the same moment in UTC (shown on hover by `timeOf`, dom.js).
 * @param {string | null | undefined} iso
 */
export function when(iso) {
  if (typeof iso !== "string") return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return unbroken(localTimeFormat.format(date));
}

/**
 * A sandbox-clock time in UTC: "1 Jan 2026, 00:00:05 UTC".
 * @param {string | null | undefined} iso
 */
export function whenUtc(iso) {
  if (typeof iso !== "string") return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return unbroken(`${utcTimeFormat.format(date)} UTC`);
}

/**
 * How far `iso` is from `nowIso`, in words: "in 23 h 59 min", "5 s ago".
 * @param {string | null | undefined} iso
 * @param {string | null | undefined} nowIso
 */
export function relative(iso, nowIso) {
  if (typeof iso !== "string" || typeof nowIso !== "string") return "";
  const ms = new Date(iso).getTime() - new Date(nowIso).getTime();
  if (!Number.isFinite(ms)) return "";
  const seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds === 0) return "now";
  const parts =
    seconds < 60
      ? [`${seconds} s`]
      : seconds < 3600
        ? [`${Math.floor(seconds / 60)} min`]
        : seconds < 172800
          ? [`${Math.floor(seconds / 3600)} h`, `${Math.floor((seconds % 3600) / 60)} min`]
          : [`${Math.floor(seconds / 86400)} days`, `${Math.floor((seconds % 86400) / 3600)} h`];
  const text = parts.filter((part) => !part.startsWith("0 ")).join(" ") || "0 s";
  return (ms >= 0 ? `in ${text}` : `${text} ago`).replaceAll(" ", NBSP);
}

/**
 * A wallet's name for people: its label, or its whole id (a part of one could be pasted nowhere).
 * @param {{ id: string, label?: string | null }} wallet
 */
export function walletName(wallet) {
  return wallet.label ? wallet.label : `Wallet ${wallet.id}`;
}

/** What the API's status codes mean, where the code itself reads badly in a sentence. */
const STATUS_WORDS = /** @type {Record<string, string>} */ ({
  ACTIVITY_STATUS_CONSENSUS_NEEDED: "waiting for approval",
  ACTIVITY_STATUS_COMPLETED: "approved",
  ACTIVITY_STATUS_REJECTED: "rejected",
  ACTIVITY_STATUS_FAILED: "failed",
  ACTIVITY_STATUS_PENDING: "pending",
  pending_approval: "waiting for approval",
  partially_completed: "partly paid out",
});

/**
 * A status code of the API in words: "partially_completed" → "partly paid out",
 * "ACTIVITY_STATUS_REJECTED" → "rejected"; any other code with its underscores as spaces.
 * @param {string | null | undefined} status
 */
export function words(status) {
  if (typeof status !== "string" || status === "") return "unknown";
  return (
    STATUS_WORDS[status] ??
    status
      .replace(/^ACTIVITY_STATUS_/, "")
      .replaceAll("_", " ")
      .toLowerCase()
  );
}

/**
 * A sentence of the API with its amounts written as money: the sandbox writes exact figures
 * ("15000 USD", "0.000123 USD"), the console writes them as everywhere else ("$15,000.00").
 * @param {string | null | undefined} text
 */
export function moneyInText(text) {
  if (typeof text !== "string") return "";
  return text.replace(/(-?\d+(?:\.\d+)?) USD\b/g, (_, amount) => usd(Number(amount)));
}
