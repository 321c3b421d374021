import {
  blendedRateBps,
  dominatingAllocation,
  durationInWords,
  formatDollars,
  keysMissingFromCatalog,
  moneyImpact,
  stackMoneyImpact,
  centsByLargestRemainder,
  usdToMicros,
  withdrawableShareBps,
  type DominatingAllocation,
  type MoneyImpact,
  type StackMoneyImpact,
  type StrategyCatalogEntry,
  type WalletHoldings,
} from "../../sdk/nodejs/contract/index.ts";
import {
  carriesAllocation,
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  resourceKindOfType,
  type ResourceKind,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import type { PreviewFacts, PreviewStep, Weights } from "./previewSteps.ts";
import { allocationAtReview, type AllocationAtReview } from "./serviceAllocation.ts";
import {
  decideComment,
  DEFAULT_COMMENT_THRESHOLDS,
  type CommentDecision,
  type CommentThresholds,
} from "./commentThresholds.ts";

/**
 * The facts of a pull-request report, computed from a preview and the strategy catalog: pure, so
 * that the markdown and the JSON form say the same thing and both can be tested without I/O.
 */

export interface WeightRow {
  positionKey: string;
  beforeBps: number | null;
  afterBps: number | null;
  deltaBps: number;
}

export interface Figure {
  before: number | null;
  after: number | null;
}

export interface WalletChange {
  /** The resource's URN: what the merge check finds the reviewed wallet by in the plan. */
  urn: string;
  name: string;
  /** The resource's class: `PortfolioWallet`, `WalletStrategy`. */
  kind: string;
  /** `create`, `update`, `delete`, `replace`, ...: the engine's operation. */
  op: string;
  /** What it does to the allocation, in words: `reweighted`, `created`, `removed from the stack`, ... */
  action: string;
  walletId: string | null;
  /**
   * Before: the allocation the service holds when it was changed outside the stack (that is what
   * the change moves from), else the state's.
   */
  rows: WeightRow[];
  sumBeforeBps: number | null;
  sumAfterBps: number | null;
  /** True when the new allocation is unknown until `up` (an input computed from another resource). */
  afterUnknown: boolean;
  blendedRateBps: Figure;
  /** Share of the wallet withdrawable at once (processing time PT0H), bps. */
  instantShareBps: Figure;
  unknownKeys: string[];
  /** Whether `up` sends a strategy update for it (which the service may hold for approval). */
  strategyUpdate: boolean;
  /** What the change does to the wallet's money, or why the report cannot say. */
  money: WalletMoney;
  /**
   * For a strategy update of a wallet in state: the allocation the service holds beside the one the
   * state records, by the provider's rule of outside changes. Null when not checked (no state, the
   * service not read, no strategy update).
   */
  atService: AllocationAtReview | null;
  /**
   * Advice, never a failure: a quote option that earns more at the same or better liquidity than
   * the new target (or as much, and more liquid). Null when none does or quotes were not asked.
   */
  betterQuote: DominatingAllocation | null;
}

/** The dollars of one wallet's change: computed from the service's wallet, or the reason not. */
export type WalletMoney = { impact: MoneyImpact; reason?: undefined } | { impact: null; reason: string };

/** What the report reads of a wallet at the service: its positions (dollars) and its target allocation. */
export interface WalletAtService extends WalletHoldings {
  strategyConfig: { positions: readonly { positionKey: string; targetWeightBps: number }[] };
}

/**
 * The wallets the report reads its dollars from: the service's answers by wallet id, or why the
 * service could not be asked (then the report shows basis points only, and says so).
 */
export type ServiceWallets<Wallet extends WalletHoldings = WalletAtService> =
  | {
      available: true;
      byId: ReadonlyMap<string, Wallet>;
      /** When the service answered (ISO 8601): the time the figures are of. */
      readAt: string;
    }
  | { available: false; reason: string };

export interface StackMoney {
  /** The stack's totals over the wallets whose dollars are known; null when none are. */
  totals: StackMoneyImpact | null;
  /** The dollar headline, never folded; or why there are no dollars. */
  headline: string;
  /** Wallets that change allocation but whose dollars are unknown. */
  walletsWithoutDollars: number;
}

/** A wallet whose change the report could not price in full, and why. */
export interface UnpricedWallet {
  name: string;
  walletId: string | null;
  /** Why: no service answer (the report's reason) or the positions without a catalog rate. */
  reason: string;
}

/**
 * What the dollars cover, and when they were read: what a reviewer needs to trust them. Counted over
 * the wallets whose allocation changes (a resource leaving the stack moves nothing).
 */
export interface ReportCoverage {
  wallets: number;
  /** Wallets with the service's figures for every position and a catalog rate for each. */
  pricedWallets: number;
  /** Positions (held now or targeted after) of the wallets with the service's figures. */
  positions: number;
  /** Of those, the ones with a catalog rate. */
  pricedPositions: number;
  unpriced: UnpricedWallet[];
  /** When the service's wallets were read; null when they were not (then every wallet is unpriced). */
  figuresReadAt: string | null;
  /** When the catalog (rates and liquidity limits) was read, and the newest rate's own time. */
  ratesReadAt: string;
  ratesAsOf: string | null;
}

export interface ReportWarning {
  kind: "changed-outside" | "delete-refused" | "delete" | "replace" | "unknown-keys";
  resource: string;
  message: string;
}

export interface OtherChange {
  name: string;
  type: string;
  op: string;
}

export interface AllocationReport {
  project: string | null;
  stack: string | null;
  commit: string | null;
  headline: string;
  /** The change in dollars, for the stack (amounts in the JSON form are micros as decimal strings). */
  money: StackMoney;
  /** What the dollars cover and when they were read. */
  coverage: ReportCoverage;
  warnings: ReportWarning[];
  wallets: WalletChange[];
  /** Webhook registrations and any other resource that changes. */
  otherChanges: OtherChange[];
  unchanged: number;
  approval: { strategyUpdates: number; approverConfigured: boolean; note: string } | null;
  catalog: { source: string; readAt: string; ratesAsOf: string | null; positionKeys: number };
  /** The plan saved with this preview (`pulumi preview --save-plan`), which the merge job applies. */
  plan: { sha256: string } | null;
  /** Whether the change is worth a pull-request comment, against the comment thresholds. */
  comment: CommentDecision;
}

export interface ReportContext {
  catalog: readonly StrategyCatalogEntry[];
  /** Where the catalog came from (`the service at <url>`, `file <path>`) and when it was read. */
  catalogSource: string;
  catalogReadAt: string;
  commit: string | null;
  /** USD balance of wallets being deleted, by wallet id, when the service could be asked. */
  balances: ReadonlyMap<string, number>;
  /** The wallets' current positions from the service (list endpoint), or why they are unknown. */
  wallets?: ServiceWallets;
  /** The quote endpoint's options for each new target, by `targetKey`; absent offline. */
  quotes?: ReadonlyMap<string, readonly Record<string, number>[]>;
  /** Whether an approver is configured for `up` (stack config or environment; values never read). */
  approverConfigured: boolean;
  /** SHA-256 of the plan saved with the preview, when there is one. */
  planSha256?: string | null;
  /** When the change is worth a comment; the defaults when not given. */
  commentThresholds?: CommentThresholds;
}

const REPLACED = "is replaced (created anew, then the old one deleted).";

/**
 * How the report speaks of each kind: its noun in the headline, what creating and removing it does to an
 * allocation, and what to warn of when it is deleted (null: nothing; a wallet's delete is judged
 * on its balance in `warningsOf`) or replaced. A new kind is a compile error here until it says so.
 */
const REPORT_WORDS: Record<
  ResourceKind,
  {
    noun: readonly [string, string];
    created: string;
    removed: string;
    deleteWarning: string | null;
    replaceWarning: string;
  }
> = {
  portfolioWallet: {
    noun: ["wallet", "wallets"],
    created: "created",
    removed: "removed from the stack",
    deleteWarning: null,
    replaceWarning: REPLACED,
  },
  walletStrategy: {
    noun: ["wallet strategy", "wallet strategies"],
    created: "starts managing the allocation",
    removed: "stops managing the allocation",
    deleteWarning: null,
    replaceWarning: REPLACED,
  },
  webhookRegistration: {
    noun: ["webhook", "webhooks"],
    created: "created",
    removed: "removed from the stack",
    deleteWarning: "is deleted: its endpoint stops receiving events.",
    replaceWarning:
      "is replaced: the new registration gets a new signing secret; the receiver must take the new `secret` output.",
  },
};

/** The headline's noun for a resource of another package. */
const OTHER_RESOURCE = ["other resource", "other resources"] as const;

const NOUNS_BY_CLASS = new Map<string, readonly [string, string]>(
  RESOURCE_KINDS.map((kind) => [RESOURCE_DESCRIPTORS[kind].type, REPORT_WORDS[kind].noun]),
);

const allocationRoleOf = (kind: ResourceKind | null) =>
  kind === null ? "none" : RESOURCE_DESCRIPTORS[kind].allocation;
/** Steps that say nothing changes, or that only accompany another step of the same resource. */
const QUIET_OPS = new Set([
  "same",
  "read",
  "create-replacement",
  "delete-replaced",
  "discard",
  "remove-pending-replace",
]);

function known(weights: Weights): Record<string, number> | null {
  return weights === null || weights === "unknown" ? null : weights;
}

function rowsOf(before: Record<string, number> | null, after: Record<string, number> | null): WeightRow[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  return keys.map((positionKey) => {
    const beforeBps = before?.[positionKey] ?? (before === null ? null : 0);
    const afterBps = after?.[positionKey] ?? (after === null ? null : 0);
    return { positionKey, beforeBps, afterBps, deltaBps: (afterBps ?? 0) - (beforeBps ?? 0) };
  });
}

const sum = (weights: Record<string, number> | null) =>
  weights === null ? null : Object.values(weights).reduce((total, weight) => total + weight, 0);

function figure(
  before: Record<string, number> | null,
  after: Record<string, number> | null,
  measure: (weights: Record<string, number>) => number,
): Figure {
  return { before: before === null ? null : measure(before), after: after === null ? null : measure(after) };
}

function actionOf(step: PreviewStep & { kind: ResourceKind }, before: Weights, after: Weights): string {
  switch (step.op) {
    case "create":
      return REPORT_WORDS[step.kind].created;
    case "delete":
      return REPORT_WORDS[step.kind].removed;
    case "replace":
      return "replaced (moves to another wallet)";
    case "update":
      return JSON.stringify(before) !== JSON.stringify(after) ? "reweighted" : "settings changed";
    default:
      return step.op;
  }
}

const NOT_ASKED: ServiceWallets = {
  available: false,
  reason: "the service's wallets were not read for this report",
};

/**
 * The dollars of a step: a strategy change read against the wallet's positions at the service.
 * A new wallet holds nothing yet; a resource that leaves the stack changes no allocation.
 */
function moneyOf(
  step: PreviewStep,
  after: Record<string, number> | null,
  afterUnknown: boolean,
  context: ReportContext,
): WalletMoney {
  const wallets = context.wallets ?? NOT_ASKED;
  if (step.op === "delete")
    return { impact: null, reason: "no allocation changes: the wallet keeps its own" };
  if (afterUnknown || after === null)
    return { impact: null, reason: "the new allocation is known only at `up`" };
  if (step.op === "create" && allocationRoleOf(step.kind) === "owns")
    return { impact: moneyImpact({ positions: [] }, after, context.catalog) };
  if (step.op === "replace")
    return { impact: null, reason: "the resource is replaced: its allocation moves to another wallet" };
  if (!wallets.available) return { impact: null, reason: wallets.reason };
  if (step.walletId === null) return { impact: null, reason: "the wallet id is not known before `up`" };
  const wallet = wallets.byId.get(step.walletId);
  if (wallet === undefined)
    return { impact: null, reason: `the service lists no wallet ${step.walletId} for this token` };
  return { impact: moneyImpact(wallet, after, context.catalog) };
}

/**
 * An update's strategy change judged against the service: the service's allocation beside the
 * state's record. Only an update of a resource in state sends its change to a wallet it knows.
 */
function allocationCheckOf(
  step: PreviewStep,
  after: Record<string, number> | null,
  sendsUpdate: boolean,
  context: ReportContext,
): AllocationAtReview | null {
  const wallets = context.wallets ?? NOT_ASKED;
  if (step.op !== "update" || !sendsUpdate || step.recorded === null || step.walletId === null) return null;
  if (!wallets.available) return null;
  const wallet = wallets.byId.get(step.walletId);
  if (wallet === undefined) return null;
  return allocationAtReview(step.recorded, wallet.strategyConfig.positions, after);
}

function walletChangeOf(step: PreviewStep & { kind: ResourceKind }, context: ReportContext): WalletChange {
  const stateBefore = step.op === "create" ? null : known(step.before);
  const after = step.op === "delete" ? null : known(step.after);
  const sendsUpdate =
    step.op === "replace" ||
    (step.op === "update" &&
      step.after !== "unknown" &&
      JSON.stringify(stateBefore) !== JSON.stringify(after)) ||
    (step.op === "update" && step.after === "unknown") ||
    (step.op === "create" && allocationRoleOf(step.kind) === "manages");
  const atService = allocationCheckOf(step, after, sendsUpdate, context);
  // Changed outside the stack, the wallet moves from what the service holds, not from the state's record.
  const before = atService?.verdict === "changed outside" ? atService.serviceBps : stateBefore;
  const measured = (measure: (weights: Record<string, number>) => number) => figure(before, after, measure);
  const afterUnknown = step.op !== "delete" && step.after === "unknown";
  return {
    urn: step.urn,
    name: step.name,
    kind: RESOURCE_DESCRIPTORS[step.kind].type,
    op: step.op,
    action: actionOf(step, step.before, step.after),
    walletId: step.walletId,
    rows: rowsOf(before, after),
    sumBeforeBps: sum(before),
    sumAfterBps: sum(after),
    afterUnknown,
    blendedRateBps: measured((weights) => blendedRateBps(weights, context.catalog)),
    instantShareBps: measured((weights) => withdrawableShareBps(weights, context.catalog, "PT0H")),
    unknownKeys: after === null ? [] : keysMissingFromCatalog(after, context.catalog),
    strategyUpdate: sendsUpdate,
    money: moneyOf(step, after, afterUnknown, context),
    atService,
    betterQuote:
      after === null || afterUnknown || step.op === "delete"
        ? null
        : dominatingAllocation(after, context.quotes?.get(targetKey(after)) ?? [], context.catalog),
  };
}

/** One key per target allocation (sorted positionKey=weight), to ask the quote endpoint once per target. */
export function targetKey(weights: Readonly<Record<string, number>>): string {
  return Object.entries(weights)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, weight]) => `${key}=${weight}`)
    .join(",");
}

function warningsOf(steps: PreviewStep[], wallets: WalletChange[], context: ReportContext): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  for (const step of steps) {
    const resource = `${step.type.split(":").at(-1)} "${step.name}"`;
    if (step.op === "delete" && allocationRoleOf(step.kind) === "owns") {
      const balance = step.walletId === null ? undefined : context.balances.get(step.walletId);
      if (step.onDelete === "retain") {
        warnings.push({
          kind: "delete",
          resource,
          message: `${resource} leaves the stack; the wallet stays at the service with its funds (onDelete: "retain").`,
        });
      } else if (balance !== undefined && balance > 0) {
        warnings.push({
          kind: "delete-refused",
          resource,
          message:
            `${resource} cannot leave the stack: the wallet holds ${formatDollars(usdToMicros(balance))}, and the provider refuses ` +
            'to drop a funded wallet. `up` will fail here. Withdraw the funds first, or set onDelete: "retain" in an up before.',
        });
      } else {
        warnings.push({
          kind: "delete",
          resource,
          message:
            balance === undefined
              ? `${resource} leaves the stack. The service has no wallet delete: the provider drops it only if it holds no funds (balance not checked for this report).`
              : `${resource} leaves the stack; the wallet is empty and stays at the service.`,
        });
      }
    } else if (step.op === "delete") {
      // Another package's resource is simply deleted.
      const words = step.kind === null ? "is deleted." : REPORT_WORDS[step.kind].deleteWarning;
      if (words !== null) warnings.push({ kind: "delete", resource, message: `${resource} ${words}` });
    } else if (step.op === "replace") {
      const words = step.kind === null ? REPLACED : REPORT_WORDS[step.kind].replaceWarning;
      warnings.push({ kind: "replace", resource, message: `${resource} ${words}` });
    }
  }
  for (const wallet of wallets) {
    if (wallet.atService?.verdict === "changed outside") {
      const resource = `${wallet.kind} "${wallet.name}"`;
      warnings.push({
        kind: "changed-outside",
        resource,
        message: `${resource} (wallet ${wallet.walletId}): ${wallet.atService.note}`,
      });
    }
    if (wallet.unknownKeys.length > 0) {
      warnings.push({
        kind: "unknown-keys",
        resource: `${wallet.kind} "${wallet.name}"`,
        message:
          `${wallet.kind} "${wallet.name}" targets position keys the catalog does not list: ${wallet.unknownKeys.join(", ")}. ` +
          "The provider refuses them; take keys from `portfolio-wallet quote` or the catalog.",
      });
    }
  }
  // Outside changes and refused deletes first: they are the ones that will stop `up`.
  const order = ["changed-outside", "delete-refused", "unknown-keys", "replace", "delete"];
  return warnings.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function headlineOf(facts: PreviewFacts, wallets: WalletChange[], others: OtherChange[]): string {
  const where = facts.project && facts.stack ? `${facts.project}/${facts.stack}` : (facts.stack ?? "stack");
  const phrases: string[] = [];
  const byAction = new Map<string, number>();
  for (const wallet of wallets) {
    const key = `${wallet.kind}\0${wallet.action}`;
    byAction.set(key, (byAction.get(key) ?? 0) + 1);
  }
  for (const [key, n] of byAction) {
    const [kind, action] = key.split("\0") as [string, string];
    const [one, many] = NOUNS_BY_CLASS.get(kind)!;
    phrases.push(`${count(n, one, many)} ${action}`);
  }
  const byOp = new Map<string, number>();
  for (const other of others) {
    const kind = resourceKindOfType(other.type);
    const [one, many] = kind === undefined ? OTHER_RESOURCE : REPORT_WORDS[kind].noun;
    const key = `${one}\0${many}\0${other.op}`;
    byOp.set(key, (byOp.get(key) ?? 0) + 1);
  }
  const past: Record<string, string> = {
    create: "created",
    update: "updated",
    delete: "deleted",
    replace: "replaced",
  };
  for (const [key, n] of byOp) {
    const [one, many, op] = key.split("\0") as [string, string, string];
    phrases.push(`${count(n, one, many)} ${past[op] ?? op}`);
  }
  return `${where}: ${phrases.length === 0 ? "no changes" : phrases.join(", ")}`;
}

/**
 * `resolvRlp +$375,000.15, syrupUsdc +$1,000,000.00, tbills −$1,375,000.15`: each source once, its
 * increases and decreases over the wallets netted. The nets cancel out; rounded to the cent by
 * largest remainder, so do the printed ones.
 */
function netFlowsText(totals: StackMoneyImpact): string {
  const nets = centsByLargestRemainder(totals.flows.map((flow) => flow.netMicros));
  return totals.flows
    .map((flow, index) => `${flow.positionKey} ${formatDollars(nets[index] ?? 0n, { signed: true })}`)
    .join(", ");
}

function stackMoneyOf(wallets: WalletChange[], context: ReportContext): StackMoney {
  // Only changes of allocation count; a resource leaving the stack moves nothing.
  const changing = wallets.filter((wallet) => wallet.op !== "delete");
  const impacts = changing.flatMap((wallet) => (wallet.money.impact === null ? [] : [wallet.money.impact]));
  const without = changing.length - impacts.length;
  const service = context.wallets ?? NOT_ASKED;
  if (impacts.length === 0) {
    return {
      totals: null,
      walletsWithoutDollars: without,
      headline:
        changing.length === 0
          ? "No allocation changes: no money moves."
          : `Dollars not shown, basis points only: ${service.available ? "no changed wallet's dollars are known (see each wallet)" : service.reason}.`,
    };
  }
  const totals = stackMoneyImpact(impacts);
  const instant = totals.withdrawable.find((row) => row.within === "PT0H");
  const parts = [
    totals.movedMicros === 0n
      ? `Moves $0.00 across ${count(totals.wallets, "wallet")}` +
        (totals.fundedWallets === 0 ? " (none holds money yet)" : "")
      : `Moves ${formatDollars(totals.movedMicros)} across ${count(totals.wallets, "wallet")}, net per source: ${netFlowsText(totals)}`,
    `yearly yield ${formatDollars(totals.yearlyYield.deltaMicros, { signed: true })}`,
    ...(instant === undefined
      ? []
      : [`withdrawable at once ${formatDollars(instant.deltaMicros, { signed: true })}`]),
    ...(totals.longestExit !== null
      ? [`money leaving can take ${durationInWords(totals.longestExit, "up to")}`]
      : []),
  ];
  const missing = without > 0 ? ` (${count(without, "more wallet")} without dollars: see below)` : "";
  return { totals, walletsWithoutDollars: without, headline: `${parts.join("; ")}.${missing}` };
}

function coverageOf(
  wallets: WalletChange[],
  context: ReportContext,
  ratesAsOf: string | null,
): ReportCoverage {
  const changing = wallets.filter((wallet) => wallet.op !== "delete");
  const unpriced: UnpricedWallet[] = [];
  let positions = 0;
  let pricedPositions = 0;
  for (const wallet of changing) {
    const impact = wallet.money.impact;
    if (impact === null) {
      unpriced.push({ name: wallet.name, walletId: wallet.walletId, reason: wallet.money.reason });
      continue;
    }
    const withoutRate = impact.sources.filter((source) => source.rateBps === null).map((s) => s.positionKey);
    positions += impact.sources.length;
    pricedPositions += impact.sources.length - withoutRate.length;
    if (withoutRate.length > 0)
      unpriced.push({
        name: wallet.name,
        walletId: wallet.walletId,
        reason: `no catalog rate for ${withoutRate.join(", ")}, so its yield leaves them out`,
      });
  }
  const service = context.wallets ?? NOT_ASKED;
  return {
    wallets: changing.length,
    pricedWallets: changing.length - unpriced.length,
    positions,
    pricedPositions,
    unpriced,
    figuresReadAt: service.available ? service.readAt : null,
    ratesReadAt: context.catalogReadAt,
    ratesAsOf,
  };
}

/** The report's facts for a preview, read against the catalog. */
export function buildAllocationReport(facts: PreviewFacts, context: ReportContext): AllocationReport {
  const changed = facts.steps.filter((step) => !QUIET_OPS.has(step.op));
  const wallets = changed
    .filter((step): step is PreviewStep & { kind: ResourceKind } => carriesAllocation(step.kind))
    .map((step) => walletChangeOf(step, context));
  const otherChanges = changed
    .filter((step) => !carriesAllocation(step.kind))
    .filter((step) => step.type !== "pulumi:pulumi:Stack")
    .map((step) => ({ name: step.name, type: step.type, op: step.op }));
  const strategyUpdates = wallets.filter((wallet) => wallet.strategyUpdate).length;
  const warnings = warningsOf(changed, wallets, context);
  const ratesAsOf =
    context.catalog
      .map((entry) => entry.rateUpdatedAt)
      .sort()
      .at(-1) ?? null;
  return {
    project: facts.project,
    stack: facts.stack,
    commit: context.commit,
    headline: headlineOf(facts, wallets, otherChanges),
    money: stackMoneyOf(wallets, context),
    coverage: coverageOf(wallets, context, ratesAsOf),
    warnings,
    wallets,
    otherChanges,
    unchanged: facts.steps.filter((step) => step.op === "same" && step.type !== "pulumi:pulumi:Stack").length,
    approval:
      strategyUpdates === 0
        ? null
        : {
            strategyUpdates,
            approverConfigured: context.approverConfigured,
            note: context.approverConfigured
              ? "The service may hold a strategy update for approval. This stack configures an approver " +
                "(portfolio-wallet:turnkey*), so `up` approves it at the signing provider and waits until the wallet " +
                "applies it; if other approvers must also sign, `up` ends with strategyChangeStatus pending_approval."
              : "The service may hold a strategy update for approval. No approver is configured for `up`, so it then " +
                "ends with strategyChangeStatus pending_approval and the wallet keeps its allocation until someone runs " +
                "`portfolio-wallet approve <signingActivityId>` (the id is in the strategyChange output).",
          },
    catalog: {
      source: context.catalogSource,
      readAt: context.catalogReadAt,
      ratesAsOf,
      positionKeys: context.catalog.length,
    },
    plan: context.planSha256 ? { sha256: context.planSha256 } : null,
    comment: decideComment({ wallets, warnings }, context.commentThresholds ?? DEFAULT_COMMENT_THRESHOLDS),
  };
}
