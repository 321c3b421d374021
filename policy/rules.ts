import {
  DURATION_EXAMPLES,
  durationInWords,
  formatDollars,
  parseIsoDurationMs,
  readIsoDuration,
  usdToMicros,
  type MoneyImpact,
  type StackMoneyImpact,
  type WithdrawableWithin,
  keysMissingFromCatalog,
  weightByStrategyType,
  withdrawableShareBps,
  type StrategyCatalogEntry,
  type TargetWeights,
} from "../sdk/nodejs/contract/index.ts";

/**
 * The allocation guardrails as pure functions: an allocation (and the strategy catalog) in, the
 * violations out, each a message a reviewer can act on: the resource, the rule, the measured value,
 * the limit, and the config key that sets it. No message quotes an input wholesale (inputs can hold
 * secrets), only names, weights and limits.
 */

/** A resource that sets a wallet's target allocation. */
export interface AllocationSubject {
  /** The resource's name in the program. */
  resource: string;
  weights: TargetWeights;
}

const sorted = (weights: TargetWeights) => Object.entries(weights).sort(([a], [b]) => a.localeCompare(b));

/** No yield source above `maxBps`. */
export function maxWeightPerSource(subject: AllocationSubject, maxBps: number, configKey: string): string[] {
  return sorted(subject.weights)
    .filter(([, weight]) => weight > maxBps)
    .map(
      ([key, weight]) =>
        `${subject.resource}: ${key} is ${weight} bps, above the maximum ${maxBps} bps per yield source (${configKey})`,
    );
}

/**
 * No strategy type above its limit (`{ deltaNeutralStrategy: 0 }` forbids one). Types come from the
 * catalog; sources it does not list are left to `allowed-yield-sources`.
 */
export function maxWeightPerStrategyType(
  subject: AllocationSubject,
  catalog: readonly StrategyCatalogEntry[],
  maxBpsByType: Readonly<Record<string, number>>,
  configKey: string,
): string[] {
  const byType = weightByStrategyType(subject.weights, catalog);
  return Object.entries(maxBpsByType)
    .sort(([a], [b]) => a.localeCompare(b))
    .filter(([type, maxBps]) => (byType[type] ?? 0) > maxBps)
    .map(
      ([type, maxBps]) =>
        `${subject.resource}: strategy type ${type} is ${byType[type]} bps, above the maximum ${maxBps} bps (${configKey}.${type})`,
    );
}

/**
 * At least `minBps` withdrawable within `within` (an ISO 8601 duration), counting the sources whose
 * catalog `maxProcessingTime` is no longer. A source the catalog does not list, or whose processing
 * time does not parse, does not count as liquid.
 */
export function minWithdrawableShare(
  subject: AllocationSubject,
  catalog: readonly StrategyCatalogEntry[],
  within: string,
  minBps: number,
  configKey: string,
): string[] {
  const { problem } = readIsoDuration(within);
  if (problem !== undefined) {
    return [
      `${subject.resource}: ${configKey} names "${within}"; it must be ${DURATION_EXAMPLES}, and this one ${problem}`,
    ];
  }
  const share = withdrawableShareBps(subject.weights, catalog, within);
  if (share >= minBps) return [];
  const missing = keysMissingFromCatalog(subject.weights, catalog);
  const note = missing.length > 0 ? ` (not in the catalog, so not counted: ${missing.join(", ")})` : "";
  return [
    `${subject.resource}: the share withdrawable ${durationInWords(within)} is ${share} bps, below the minimum ${minBps} bps (${configKey})${note}`,
  ];
}

export interface YieldSourceLists {
  allowedPositionKeys?: readonly string[];
  excludedPositionKeys?: readonly string[];
  allowedStrategyTypes?: readonly string[];
  excludedStrategyTypes?: readonly string[];
}

/**
 * Position keys and strategy types against allow and exclude lists (an empty allow list allows
 * all), and position keys the catalog does not list at all.
 */
export function allowedYieldSources(
  subject: AllocationSubject,
  catalog: readonly StrategyCatalogEntry[],
  lists: YieldSourceLists,
  configKey: string,
): string[] {
  const types = new Map(catalog.map((entry) => [entry.positionKey, entry.strategyType]));
  const findings: string[] = [];
  for (const [key] of sorted(subject.weights)) {
    const type = types.get(key);
    if (type === undefined) {
      findings.push(
        `${subject.resource}: ${key} is not in the strategy catalog, so its type and liquidity are unknown`,
      );
      continue;
    }
    if ((lists.excludedPositionKeys ?? []).includes(key)) {
      findings.push(
        `${subject.resource}: ${key} is an excluded yield source (${configKey}.excludedPositionKeys)`,
      );
    } else if ((lists.allowedPositionKeys ?? []).length > 0 && !lists.allowedPositionKeys!.includes(key)) {
      findings.push(
        `${subject.resource}: ${key} is not among the allowed yield sources ${lists.allowedPositionKeys!.join(", ")} (${configKey}.allowedPositionKeys)`,
      );
    }
    if ((lists.excludedStrategyTypes ?? []).includes(type)) {
      findings.push(
        `${subject.resource}: ${key} is a ${type}, an excluded strategy type (${configKey}.excludedStrategyTypes)`,
      );
    } else if ((lists.allowedStrategyTypes ?? []).length > 0 && !lists.allowedStrategyTypes!.includes(type)) {
      findings.push(
        `${subject.resource}: ${key} is a ${type}, not among the allowed strategy types ${lists.allowedStrategyTypes!.join(", ")} (${configKey}.allowedStrategyTypes)`,
      );
    }
  }
  return findings;
}

/** `onDelete: "retain"` leaves a funded wallet behind unmanaged: only for wallets on the allow list. */
export function retainNeedsAllowList(
  resource: string,
  onDelete: string | undefined,
  allowedWallets: readonly string[],
  configKey: string,
): string[] {
  if (onDelete !== "retain" || allowedWallets.includes(resource)) return [];
  return [
    `${resource}: onDelete is "retain", which lets the wallet and its funds leave the stack unmanaged; ` +
      `add "${resource}" to ${configKey} to allow it`,
  ];
}

/** Webhooks deliver signed events, but over http they can be read or replayed on the way. */
export function webhookUsesHttps(resource: string, url: string | undefined, configKey: string): string[] {
  if (url === undefined) return [];
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return [`${resource}: the webhook url is not an absolute URL (${configKey})`];
  }
  // The URL itself is not quoted: it may carry credentials.
  return protocol === "https:"
    ? []
    : [`${resource}: the webhook url uses ${protocol.slice(0, -1)}, not https (${configKey})`];
}

export interface AllocationManager {
  resource: string;
  /** The resource's class: `PortfolioWallet`, `WalletStrategy`. */
  kind: string;
  walletId: string | undefined;
}

/** A wallet whose allocation two resources manage: each `up` would undo the other's target. */
export function oneManagerPerWallet(managers: readonly AllocationManager[]): string[] {
  const byWallet = new Map<string, AllocationManager[]>();
  for (const manager of managers) {
    if (manager.walletId === undefined) continue;
    byWallet.set(manager.walletId, [...(byWallet.get(manager.walletId) ?? []), manager]);
  }
  return [...byWallet.entries()]
    .filter(([, list]) => list.length > 1)
    .map(
      ([walletId, list]) =>
        `wallet ${walletId} is managed by ${list.map((m) => `${m.kind} "${m.resource}"`).join(" and ")}; ` +
        "keep its allocation in one resource",
    );
}

/**
 * The money rules (issue 37) judge a change's money impact (sdk/nodejs/contract/moneyImpact.ts),
 * limits in USD. A change that moves no money (an unfunded wallet, the same target) is not judged:
 * the rules are about what a change does to money that exists.
 */

/** What one wallet's change does, for the money rules: the resource and its impact. */
export interface MoneySubject {
  resource: string;
  impact: MoneyImpact;
}

const usdLimitMicros = (usd: number) => usdToMicros(usd);

/**
 * An amount beside the limit it passes, each as the report writes dollars (`formatDollars`), so
 * that a reviewer finds the same string in the pull-request comment. Where cents would make the two
 * read the same ($1,000,000.00 above a limit of $999,999.999999), both are given to the micro.
 */
function amountAndLimit(amount: bigint, limit: bigint): [string, string] {
  const inCents = [formatDollars(amount), formatDollars(limit)] as const;
  if (inCents[0] !== inCents[1]) return [inCents[0], inCents[1]];
  return [formatDollars(amount, { toTheMicro: true }), formatDollars(limit, { toTheMicro: true })];
}

/** At most `maxUsd` moved by one wallet's change. */
export function maxUsdMovedPerWallet(subject: MoneySubject, maxUsd: number, configKey: string): string[] {
  if (subject.impact.movedMicros <= usdLimitMicros(maxUsd)) return [];
  const [moved, limit] = amountAndLimit(subject.impact.movedMicros, usdLimitMicros(maxUsd));
  return [
    `${subject.resource}: the change moves ${moved}, above the maximum ${limit} per wallet (${configKey})`,
  ];
}

/** At most `maxUsd` moved by the stack's changes together. */
export function maxUsdMovedPerStack(stack: StackMoneyImpact, maxUsd: number, configKey: string): string[] {
  if (stack.movedMicros <= usdLimitMicros(maxUsd)) return [];
  const [moved, limit] = amountAndLimit(stack.movedMicros, usdLimitMicros(maxUsd));
  return [
    `the stack's changes move ${moved} across ${stack.wallets} wallets, above the maximum ${limit} per stack (${configKey})`,
  ];
}

function withdrawableAfter(rows: readonly WithdrawableWithin[], within: string): bigint {
  const boundMs = parseIsoDurationMs(within);
  // The largest bound the figures have that is no longer than the one asked: the money liquid
  // within it is liquid within the one asked (bounds are the catalog's processing times).
  let best = 0n;
  let bestMs = -1;
  for (const row of rows) {
    const rowMs = parseIsoDurationMs(row.within);
    if (rowMs !== null && boundMs !== null && rowMs <= boundMs && rowMs > bestMs) {
      best = row.afterMicros;
      bestMs = rowMs;
    }
  }
  return best;
}

function durationProblem(within: string, configKey: string, who: string): string[] {
  const { problem } = readIsoDuration(within);
  return problem === undefined
    ? []
    : [`${who}: ${configKey} names "${within}"; it must be ${DURATION_EXAMPLES}, and this one ${problem}`];
}

/** At least `minUsd` withdrawable within `within` after one wallet's change (when it moves money). */
export function minUsdWithdrawablePerWallet(
  subject: MoneySubject,
  within: string,
  minUsd: number,
  configKey: string,
): string[] {
  const problems = durationProblem(within, configKey, subject.resource);
  if (problems.length > 0) return problems;
  if (subject.impact.movedMicros === 0n) return [];
  const after = withdrawableAfter(subject.impact.withdrawable, within);
  if (after >= usdLimitMicros(minUsd)) return [];
  const [withdrawable, limit] = amountAndLimit(after, usdLimitMicros(minUsd));
  return [
    `${subject.resource}: after the change ${withdrawable} is withdrawable ${durationInWords(within)}, below the ` +
      `minimum ${limit} per wallet (${configKey})`,
  ];
}

/** At least `minUsd` withdrawable within `within` over the stack's changed wallets, after the change. */
export function minUsdWithdrawablePerStack(
  stack: StackMoneyImpact,
  within: string,
  minUsd: number,
  configKey: string,
): string[] {
  const problems = durationProblem(within, configKey, "the stack");
  if (problems.length > 0) return problems;
  if (stack.movedMicros === 0n) return [];
  const after = withdrawableAfter(stack.withdrawable, within);
  if (after >= usdLimitMicros(minUsd)) return [];
  const [withdrawable, limit] = amountAndLimit(after, usdLimitMicros(minUsd));
  return [
    `after the stack's changes ${withdrawable} of its changed wallets is withdrawable ${durationInWords(within)}, ` +
      `below the minimum ${limit} per stack (${configKey})`,
  ];
}
