import {
  blendedRateBps,
  keysMissingFromCatalog,
  withdrawableShareBps,
  type StrategyCatalogEntry,
} from "../../sdk/nodejs/contract/index.ts";
import { formatUsd as formatUsdAmount } from "../../sdk/nodejs/contract/money.ts";
import type { PreviewFacts, PreviewStep, Weights } from "./previewSteps.ts";

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
  name: string;
  kind: "PortfolioWallet" | "WalletStrategy";
  /** `create`, `update`, `delete`, `replace`, ...: the engine's operation. */
  op: string;
  /** What it does to the allocation, in words: `reweighted`, `created`, `removed from the stack`, ... */
  action: string;
  walletId: string | null;
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
}

export interface ReportWarning {
  kind: "delete-refused" | "delete" | "replace" | "unknown-keys";
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
  warnings: ReportWarning[];
  wallets: WalletChange[];
  /** Webhook registrations and any other resource that changes. */
  otherChanges: OtherChange[];
  unchanged: number;
  approval: { strategyUpdates: number; approverConfigured: boolean; note: string } | null;
  catalog: { source: string; readAt: string; ratesAsOf: string | null; positionKeys: number };
  /** The plan saved with this preview (`pulumi preview --save-plan`), which the merge job applies. */
  plan: { sha256: string } | null;
}

export interface ReportContext {
  catalog: readonly StrategyCatalogEntry[];
  /** Where the catalog came from (`the service at <url>`, `file <path>`) and when it was read. */
  catalogSource: string;
  catalogReadAt: string;
  commit: string | null;
  /** USD balance of wallets being deleted, by wallet id, when the service could be asked. */
  balances: ReadonlyMap<string, number>;
  /** Whether an approver is configured for `up` (stack config or environment; values never read). */
  approverConfigured: boolean;
  /** SHA-256 of the plan saved with the preview, when there is one. */
  planSha256?: string | null;
}

const WALLET_KINDS = { portfolioWallet: "PortfolioWallet", walletStrategy: "WalletStrategy" } as const;
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

function actionOf(step: PreviewStep, before: Weights, after: Weights): string {
  switch (step.op) {
    case "create":
      return step.kind === "walletStrategy" ? "starts managing the allocation" : "created";
    case "delete":
      return step.kind === "walletStrategy" ? "stops managing the allocation" : "removed from the stack";
    case "replace":
      return "replaced (moves to another wallet)";
    case "update":
      return JSON.stringify(before) !== JSON.stringify(after) ? "reweighted" : "settings changed";
    default:
      return step.op;
  }
}

function walletChangeOf(step: PreviewStep, context: ReportContext): WalletChange {
  const before = step.op === "create" ? null : known(step.before);
  const after = step.op === "delete" ? null : known(step.after);
  const measured = (measure: (weights: Record<string, number>) => number) => figure(before, after, measure);
  const sendsUpdate =
    step.op === "replace" ||
    (step.op === "update" && step.after !== "unknown" && JSON.stringify(before) !== JSON.stringify(after)) ||
    (step.op === "update" && step.after === "unknown") ||
    (step.op === "create" && step.kind === "walletStrategy");
  return {
    name: step.name,
    kind: WALLET_KINDS[step.kind as keyof typeof WALLET_KINDS],
    op: step.op,
    action: actionOf(step, step.before, step.after),
    walletId: step.walletId,
    rows: rowsOf(before, after),
    sumBeforeBps: sum(before),
    sumAfterBps: sum(after),
    afterUnknown: step.op !== "delete" && step.after === "unknown",
    blendedRateBps: measured((weights) => blendedRateBps(weights, context.catalog)),
    instantShareBps: measured((weights) => withdrawableShareBps(weights, context.catalog, "PT0H")),
    unknownKeys: after === null ? [] : keysMissingFromCatalog(after, context.catalog),
    strategyUpdate: sendsUpdate,
  };
}

function warningsOf(steps: PreviewStep[], wallets: WalletChange[], context: ReportContext): ReportWarning[] {
  const warnings: ReportWarning[] = [];
  for (const step of steps) {
    const resource = `${step.type.split(":").at(-1)} "${step.name}"`;
    if (step.op === "delete" && step.kind === "portfolioWallet") {
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
            `${resource} cannot leave the stack: the wallet holds ${formatUsdAmount(balance)}, and the provider refuses ` +
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
    } else if (step.op === "delete" && step.kind === "webhookRegistration") {
      warnings.push({
        kind: "delete",
        resource,
        message: `${resource} is deleted: its endpoint stops receiving events.`,
      });
    } else if (step.op === "replace" && step.kind === "webhookRegistration") {
      warnings.push({
        kind: "replace",
        resource,
        message: `${resource} is replaced: the new registration gets a new signing secret; the receiver must take the new \`secret\` output.`,
      });
    } else if (step.op === "replace") {
      warnings.push({
        kind: "replace",
        resource,
        message: `${resource} is replaced (created anew, then the old one deleted).`,
      });
    } else if (step.op === "delete" && step.kind === null) {
      warnings.push({ kind: "delete", resource, message: `${resource} is deleted.` });
    }
  }
  for (const wallet of wallets) {
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
  // Refused deletes first: they are the ones that will stop `up`.
  const order = ["delete-refused", "unknown-keys", "replace", "delete"];
  return warnings.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function headlineOf(facts: PreviewFacts, wallets: WalletChange[], others: OtherChange[]): string {
  const where = facts.project && facts.stack ? `${facts.project}/${facts.stack}` : (facts.stack ?? "stack");
  const phrases: string[] = [];
  const byAction = new Map<string, number>();
  for (const wallet of wallets) {
    const noun = wallet.kind === "PortfolioWallet" ? "wallet" : "wallet strategy";
    const key = `${noun}\0${wallet.action}`;
    byAction.set(key, (byAction.get(key) ?? 0) + 1);
  }
  for (const [key, n] of byAction) {
    const [noun, action] = key.split("\0") as [string, string];
    phrases.push(`${count(n, noun, noun === "wallet" ? "wallets" : "wallet strategies")} ${action}`);
  }
  const byOp = new Map<string, number>();
  for (const other of others) {
    const noun = other.type.endsWith(":WebhookRegistration") ? "webhook" : "other resource";
    const key = `${noun}\0${other.op}`;
    byOp.set(key, (byOp.get(key) ?? 0) + 1);
  }
  const past: Record<string, string> = {
    create: "created",
    update: "updated",
    delete: "deleted",
    replace: "replaced",
  };
  for (const [key, n] of byOp) {
    const [noun, op] = key.split("\0") as [string, string];
    phrases.push(`${count(n, noun)} ${past[op] ?? op}`);
  }
  return `${where}: ${phrases.length === 0 ? "no changes" : phrases.join(", ")}`;
}

/** The report's facts for a preview, read against the catalog. */
export function buildAllocationReport(facts: PreviewFacts, context: ReportContext): AllocationReport {
  const changed = facts.steps.filter((step) => !QUIET_OPS.has(step.op));
  const wallets = changed
    .filter((step) => step.kind === "portfolioWallet" || step.kind === "walletStrategy")
    .map((step) => walletChangeOf(step, context));
  const otherChanges = changed
    .filter((step) => step.kind !== "portfolioWallet" && step.kind !== "walletStrategy")
    .filter((step) => step.type !== "pulumi:pulumi:Stack")
    .map((step) => ({ name: step.name, type: step.type, op: step.op }));
  const strategyUpdates = wallets.filter((wallet) => wallet.strategyUpdate).length;
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
    warnings: warningsOf(changed, wallets, context),
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
  };
}
