import { readIsoDuration } from "../../sdk/nodejs/contract/duration.ts";
import { CONFIG_NAMESPACE } from "../../sdk/nodejs/stackSettings.ts";
import { resolveNumberSettings, type NumberSetting } from "../report/numberSettings.ts";
import type { WatchBands } from "./marketWatch.ts";

/**
 * The market watch's bands: stack config keys the provider never reads, with documented defaults
 * (docs/cli.md, "Market watch"). The defaults watch what moves on its own: a position more than
 * 5 points off its target, a rate 1 point below the one its allocation was set at. Liquidity floors
 * are the treasury's own figures, so they are off until set.
 */
export const WATCH_SETTINGS = {
  driftBps: {
    flag: "--drift-band-bps",
    configKey: `${CONFIG_NAMESPACE}:watchDriftBps`,
    default: 500,
    what: "a number of basis points from 0 to 10000, such as 500",
    min: 0,
    max: 10_000,
  },
  instantMinBps: {
    flag: "--instant-min-bps",
    configKey: `${CONFIG_NAMESPACE}:watchInstantMinBps`,
    default: 0,
    what: "a whole number of basis points from 0 (off) to 10000, such as 2000",
    min: 0,
    max: 10_000,
    whole: true,
  },
  instantMinUsd: {
    flag: "--instant-min-usd",
    configKey: `${CONFIG_NAMESPACE}:watchInstantMinUsd`,
    default: 0,
    what: "a USD amount of 0 (off) or more, such as 250000",
    min: 0,
    max: Number.POSITIVE_INFINITY,
  },
  rateDropBps: {
    flag: "--rate-drop-bps",
    configKey: `${CONFIG_NAMESPACE}:watchRateDropBps`,
    default: 100,
    what: "a number of basis points of 0 or more, such as 100",
    min: 0,
    max: 100_000,
  },
} as const satisfies Record<string, NumberSetting>;

/** Per wallet bands, `{"treasury": 200}`: a JSON object of resource names. */
export const DRIFT_BY_WALLET_KEY = `${CONFIG_NAMESPACE}:watchDriftBpsByWallet`;
/** Floors per processing time, `PT24H=5000,P7D=9000`. */
export const WITHIN_MIN_KEY = `${CONFIG_NAMESPACE}:watchWithinMinBps`;

function driftByWallet(text: string | undefined): Record<string, number> {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const valid =
    typeof parsed === "object" &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every((bps) => typeof bps === "number" && bps >= 0 && bps <= 10_000);
  if (!valid)
    throw new Error(
      `stack config ${DRIFT_BY_WALLET_KEY} is "${text}": it must be a JSON object of wallet resource names and bands in bps, such as {"treasury": 200}`,
    );
  return parsed as Record<string, number>;
}

function withinFloors(text: string | undefined): { within: string; minBps: number }[] {
  if (text === undefined || text.trim() === "") return [];
  return text.split(",").map((part) => {
    const [within = "", bps = ""] = part.trim().split("=");
    const minBps = Number(bps);
    const problem = readIsoDuration(within).problem;
    if (problem !== undefined || !Number.isInteger(minBps) || minBps < 0 || minBps > 10_000)
      throw new Error(
        `stack config ${WITHIN_MIN_KEY} has "${part.trim()}": each entry must be <ISO 8601 duration>=<bps>, such as PT24H=5000${problem ? ` (its duration ${problem})` : ""}`,
      );
    return { within, minBps };
  });
}

/** The bands from the flags, else the stack config, else the defaults; every bad value named. */
export function resolveWatchBands(
  flags: Partial<Record<keyof typeof WATCH_SETTINGS, string>>,
  stackConfig: (key: string) => string | undefined,
): WatchBands {
  const numbers = resolveNumberSettings(WATCH_SETTINGS, flags, stackConfig);
  return {
    ...numbers,
    driftBpsByWallet: driftByWallet(stackConfig(DRIFT_BY_WALLET_KEY)),
    withinMinBps: withinFloors(stackConfig(WITHIN_MIN_KEY)),
  };
}
