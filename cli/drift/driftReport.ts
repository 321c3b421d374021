import { positionsOfWeights, sameWeights, weightOf } from "../../sdk/nodejs/contract/allocation.ts";
import type { StrategyCatalogEntry } from "../../sdk/nodejs/contract/catalog.ts";
import { moneyImpact, type WalletHoldings } from "../../sdk/nodejs/contract/moneyImpact.ts";
import type { ServiceWallets } from "../report/allocationReport.ts";
import type { Weights } from "../report/previewSteps.ts";
import {
  RESOURCE_DESCRIPTORS,
  RESOURCE_KINDS,
  type ResourceKind,
  type ResourceTypeName,
} from "../../sdk/nodejs/resources/resourceTypes.ts";
import {
  DRIFT_SUBJECT,
  type RecordedStrategyChange,
  type RefreshedResource,
  type RefreshFacts,
  type WebhookSettings,
} from "./refreshSteps.ts";

/**
 * Config drift of a stack, from a refresh preview: pure, so that the table, the markdown and the
 * JSON say the same thing and the rules can be tested without an engine. Drift is a difference
 * between what the code last applied and what the service holds in the settings the code owns
 * (allocations, strategy updates, webhook registrations, the wallets themselves). Balances,
 * accrued yield and rates move on their own and are never drift.
 */

export type DriftKind =
  "allocation" | "pending-strategy-update" | "webhook-disabled" | "webhook-changed" | "missing";

/** One yield source of a drifted allocation: what the code says and what the service applies. */
export interface SourceDrift {
  positionKey: string;
  codeBps: number | null;
  serviceBps: number | null;
  deltaBps: number;
}

export interface DriftFinding {
  kind: DriftKind;
  /** What happened and what to do, in words. */
  message: string;
}

/** One yield source of a drifted allocation in dollars: exact micros as decimal strings (JSON-safe). */
export interface SourceDollars {
  positionKey: string;
  /** The position's valueUsd at the service now. */
  serviceMicros: string;
  /** What the wallet's invested balance would hold there at the code's weights. */
  codeMicros: string;
  /** service − code: money sitting there beyond (+) or short of (−) what the code puts there. */
  deltaMicros: string;
}

/**
 * The dollars of an allocation drift, from the service's own wallet answer (spec 2.4) read against
 * the code's weights with the pull-request report's computation (contract/moneyImpact.ts); or why
 * they are not shown.
 */
export type DriftDollars =
  | {
      available: true;
      /** The money that sits where the code does not put it: what `up` would move back. */
      misplacedMicros: string;
      /** The wallet's invested balance (Σ valueUsd). */
      balanceMicros: string;
      sources: SourceDollars[];
    }
  | { available: false; reason: string };

export interface ResourceDrift {
  name: string;
  kind: ResourceTypeName;
  id: string | null;
  findings: DriftFinding[];
  /** Per yield source, for an allocation finding (every source of either side). */
  sources: SourceDrift[];
  /** The same in dollars, for an allocation finding; null for other findings. */
  dollars: DriftDollars | null;
}

export interface DriftReport {
  project: string | null;
  stack: string | null;
  checkedAt: string;
  drift: boolean;
  headline: string;
  /** Resources with drift, in the order of the refresh. */
  resources: ResourceDrift[];
  /**
   * Strategy updates the code asked for that still wait for approval: the wallet keeps its
   * previous allocation until then. Shown, never counted as drift.
   */
  awaitingApproval: { name: string; id: string | null; status: string; signingActivityId: string | null }[];
  /** Resources of this package checked without drift. */
  inSync: number;
  /** Σ of the allocation findings' misplaced dollars (micros, decimal string), over those with dollars. */
  misplacedMicros: string | null;
}

const typeNameOf = (kind: ResourceKind): ResourceTypeName => RESOURCE_DESCRIPTORS[kind].type;

/** Statuses of a strategy update that may still be applied. */
const OPEN_STATUSES = new Set(["pending_approval", "processing", "created"]);

const KIND_WORDS: Record<DriftKind, [string, string]> = {
  allocation: ["allocation changed at the service", "allocations changed at the service"],
  "pending-strategy-update": [
    "strategy update pending that the code did not ask for",
    "strategy updates pending that the code did not ask for",
  ],
  "webhook-disabled": ["webhook disabled", "webhooks disabled"],
  "webhook-changed": ["webhook changed", "webhooks changed"],
  missing: ["resource missing at the service", "resources missing at the service"],
};

const known = (weights: Weights) => (weights === null || weights === "unknown" ? null : weights);
// Drift's own words list the sources in locale order (the canonical allocation's is code-unit order):
// kept, so its output reads as it always has.
const describeWeights = (weights: Record<string, number>) =>
  positionsOfWeights(weights)
    .sort((a, b) => a.positionKey.localeCompare(b.positionKey))
    .map((p) => `${p.positionKey} ${p.targetWeightBps}`)
    .join(", ");

function sourcesOf(code: Record<string, number>, service: Record<string, number>): SourceDrift[] {
  return [...new Set([...Object.keys(code), ...Object.keys(service)])].sort().map((positionKey) => {
    const codeBps = weightOf(code, positionKey);
    const serviceBps = weightOf(service, positionKey);
    return { positionKey, codeBps, serviceBps, deltaBps: serviceBps - codeBps };
  });
}

function isOpen(change: RecordedStrategyChange | null): change is RecordedStrategyChange {
  return change !== null && OPEN_STATUSES.has(change.status);
}

function webhookFindings(code: WebhookSettings, service: WebhookSettings): DriftFinding[] {
  const findings: DriftFinding[] = [];
  if (code.enabled === true && service.enabled === false) {
    findings.push({
      kind: "webhook-disabled",
      message:
        `disabled at the service${service.disabledReason ? ` ("${service.disabledReason}")` : ""}: its endpoint ` +
        "receives no events. `pulumi up` alone changes nothing (the state still records it enabled): " +
        "`portfolio-wallet restore` prepares the reviewed change that enables it again; to keep it disabled, set `enabled: false` in the code.",
    });
  }
  const changed: string[] = [];
  if (code.enabled === false && service.enabled === true) changed.push("enabled at the service");
  if (code.url !== service.url) changed.push("url");
  if (JSON.stringify(code.eventTypes) !== JSON.stringify(service.eventTypes)) changed.push("eventTypes");
  if (code.description !== service.description) changed.push("description");
  if (changed.length > 0) {
    findings.push({
      kind: "webhook-changed",
      message:
        `changed at the service (${changed.join(", ")}). \`pulumi up\` alone changes nothing (the state still records the code's): ` +
        "`portfolio-wallet restore` prepares the reviewed change that sets it back (a changed url, event types or description " +
        "replace the registration, with a new signing secret); to keep the service's, write it into the code.",
    });
  }
  return findings;
}

function allocationFindings(resource: RefreshedResource, report: DriftReport): DriftFinding[] {
  const code = known(resource.codeWeights);
  const service = known(resource.serviceWeights);
  const change = resource.strategyChange;
  const findings: DriftFinding[] = [];
  const awaitsWhatCodeAsked = isOpen(change) && code !== null && sameWeights(change.target, code);
  if (code !== null && service !== null && !sameWeights(code, service)) {
    if (awaitsWhatCodeAsked) {
      // The code's update waits for approval; the wallet keeps its allocation until then (docs/provider.md).
      report.awaitingApproval.push({
        name: resource.name,
        id: resource.id,
        status: change.status,
        signingActivityId: change.signingActivityId,
      });
    } else {
      findings.push({
        kind: "allocation",
        message:
          `the service applies ${describeWeights(service)}, the code ${describeWeights(code)}. ` +
          "`pulumi up` refuses to overwrite it (docs/provider.md, What a merge applies): to set the code's allocation " +
          "again through review, `portfolio-wallet restore --plan restore-plan.json` prepares the preview that moves it " +
          "back, in dollars, and the plan its merge applies (a strategy update, which may need approval; docs/cli.md, " +
          "Ways back); or `portfolio-wallet adopt` writes the service's allocation into the code to keep it.",
      });
    }
  }
  if (isOpen(change) && !awaitsWhatCodeAsked) {
    const activity =
      change.signingActivityId === null ? "" : `, signing activity ${change.signingActivityId}`;
    findings.push({
      kind: "pending-strategy-update",
      message:
        `a strategy update to ${describeWeights(change.target)} is ${change.status} at the service${activity}, ` +
        "and the code does not ask for it: it is applied if someone approves it. Reject it" +
        (change.signingActivityId === null
          ? ""
          : ` (\`portfolio-wallet reject ${change.signingActivityId}\`)`) +
        " before anyone approves it, or put that allocation in the code (once applied, it is an allocation drift, " +
        "with `portfolio-wallet restore` and `adopt` as its ways back).",
    });
  }
  return findings;
}

const WALLET_MISSING =
  "not found at the service for this stack's API token. First check the token's organization and the wallet id " +
  "(`portfolio-wallet wallets show <walletId>` with the stack's token): a wrong token is mended in the stack config, " +
  "and nothing else changes. Only if the wallet is gone for good: `pulumi refresh` drops it from the stack, and the next " +
  "reviewed `up` creates a new wallet with new deposit addresses, which stacks reading them then change to.";

/** What a resource missing at the service means, per kind. */
const MISSING_MESSAGE: Record<ResourceKind, string> = {
  portfolioWallet: WALLET_MISSING,
  walletStrategy: WALLET_MISSING,
  webhookRegistration:
    "not found at the service (deleted there): its endpoint receives no events. `portfolio-wallet restore` prepares the " +
    "reviewed change that registers it again (after a refresh), with a new signing secret.",
};

function missingFinding(resource: RefreshedResource): DriftFinding {
  return { kind: "missing", message: MISSING_MESSAGE[resource.kind] };
}

function headlineOf(report: DriftReport): string {
  const where =
    report.project && report.stack ? `${report.project}/${report.stack}` : (report.stack ?? "stack");
  if (!report.drift) return `${where}: no drift`;
  const counts = new Map<DriftKind, number>();
  for (const finding of report.resources.flatMap((resource) => resource.findings)) {
    counts.set(finding.kind, (counts.get(finding.kind) ?? 0) + 1);
  }
  // In the table's order of kinds, not the order the engine happened to refresh the resources in.
  const phrases = (Object.keys(KIND_WORDS) as DriftKind[])
    .filter((kind) => counts.has(kind))
    .map((kind) => {
      const n = counts.get(kind)!;
      return `${n} ${KIND_WORDS[kind][n === 1 ? 0 : 1]}`;
    });
  return `${where}: drift, ${phrases.join(", ")}`;
}

/** The drift of a refresh preview. `checkedAt` is when the refresh ran. */
export function buildDriftReport(facts: RefreshFacts, checkedAt: string): DriftReport {
  const report: DriftReport = {
    project: facts.project,
    stack: facts.stack,
    checkedAt,
    drift: false,
    headline: "",
    resources: [],
    awaitingApproval: [],
    inSync: 0,
    misplacedMicros: null,
  };
  for (const resource of facts.resources) {
    let findings: DriftFinding[];
    let sources: SourceDrift[] = [];
    const subject = DRIFT_SUBJECT[resource.kind];
    if (resource.missing) {
      findings = [missingFinding(resource)];
    } else if (subject === "webhook") {
      findings =
        resource.codeWebhook && resource.serviceWebhook
          ? webhookFindings(resource.codeWebhook, resource.serviceWebhook)
          : [];
    } else if (subject === "allocation") {
      findings = allocationFindings(resource, report);
      const code = known(resource.codeWeights);
      const service = known(resource.serviceWeights);
      if (findings.some((finding) => finding.kind === "allocation") && code && service) {
        sources = sourcesOf(code, service);
      }
    } else {
      // A new subject is a compile error here until it says what its findings are.
      const unhandled: never = subject;
      throw new Error(`no drift findings for subject ${String(unhandled)}`);
    }
    if (findings.length === 0) {
      report.inSync += 1;
      continue;
    }
    report.resources.push({
      name: resource.name,
      kind: typeNameOf(resource.kind),
      id: resource.id,
      findings,
      sources,
      dollars: null,
    });
  }
  // One order whatever order the engine refreshed in (it runs steps in parallel): the kinds' order
  // (wallets, then strategies, then webhooks), each by name, so that a report, and the issue it
  // updates, changes only when the drift does.
  const kindOrder = RESOURCE_KINDS.map(typeNameOf);
  report.resources.sort(
    (a, b) => kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind) || a.name.localeCompare(b.name),
  );
  report.drift = report.resources.length > 0;
  report.headline = headlineOf(report);
  return report;
}

const hasAllocationDrift = (resource: ResourceDrift) =>
  resource.findings.some((finding) => finding.kind === "allocation");

/** Whether a report has an allocation finding, whose dollars the service can tell. */
export const needsDollars = (report: DriftReport): boolean => report.resources.some(hasAllocationDrift);

/**
 * The report with each allocation finding's dollars: the wallet's positions at the service (the
 * list endpoint's answer, as the pull-request report reads them) against the code's weights, per
 * yield source. Where the service could not be asked, or does not list the wallet, the finding
 * says why instead. Pure: the command reads the service.
 */
export function withDriftDollars(
  report: DriftReport,
  facts: RefreshFacts,
  wallets: ServiceWallets<WalletHoldings>,
  catalog: readonly StrategyCatalogEntry[],
): DriftReport {
  let total = 0n;
  let counted = 0;
  const resources = report.resources.map((resource): ResourceDrift => {
    if (!hasAllocationDrift(resource)) return resource;
    const code = known(
      facts.resources.find((fact) => fact.id === resource.id && typeNameOf(fact.kind) === resource.kind)
        ?.codeWeights ?? null,
    );
    let dollars: DriftDollars;
    if (!wallets.available) dollars = { available: false, reason: wallets.reason };
    else if (resource.id === null || code === null)
      dollars = { available: false, reason: "the wallet or the code's allocation is not known" };
    else {
      const wallet = wallets.byId.get(resource.id);
      if (wallet === undefined) {
        dollars = { available: false, reason: `the service lists no wallet ${resource.id} for this token` };
      } else {
        const impact = moneyImpact(wallet, code, catalog);
        total += impact.movedMicros;
        counted += 1;
        dollars = {
          available: true,
          misplacedMicros: impact.movedMicros.toString(),
          balanceMicros: impact.balanceMicros.toString(),
          sources: impact.sources.map((source) => ({
            positionKey: source.positionKey,
            serviceMicros: source.nowMicros.toString(),
            codeMicros: source.afterMicros.toString(),
            deltaMicros: (source.nowMicros - source.afterMicros).toString(),
          })),
        };
      }
    }
    return { ...resource, dollars };
  });
  return { ...report, resources, misplacedMicros: counted === 0 ? null : total.toString() };
}
