import type { ReportContext, WalletAtService } from "../../cli/report/allocationReport.ts";
import type { StrategyCatalogEntry } from "../../sdk/nodejs/contract/index.ts";

/**
 * `pulumi preview --json` documents shaped like the engine's (see a real one in
 * test/consumer/layouts.engine.test.ts), for the report's tests: steps with `op`, `urn`, and the old and
 * new state of each resource.
 */

const STACK = "prod";
const PROJECT = "treasury";
const PROVIDER = 'exports.handler = __f0;\nconst provider = require("@portfolio-wallet/pulumi/provider");\n';
const TYPES = {
  wallet: "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet",
  strategy: "pulumi-nodejs:dynamic/walletstrategy:WalletStrategy",
  webhook: "pulumi-nodejs:dynamic/webhookregistration:WebhookRegistration",
  bucket: "aws:s3/bucket:Bucket",
} as const;

export const urnOf = (type: keyof typeof TYPES, name: string) =>
  `urn:pulumi:${STACK}::${PROJECT}::${TYPES[type]}::${name}`;

export const CATALOG: StrategyCatalogEntry[] = [
  {
    positionKey: "tbills",
    asset: "tbills",
    strategyType: "tbills",
    maxProcessingTime: "PT24H",
    currentRateBps: 430,
    rateUpdatedAt: "2026-11-20T00:00:00.000Z",
  },
  {
    positionKey: "syrupUsdc",
    asset: "syrupUSDC",
    strategyType: "overcollateralizedLending",
    maxProcessingTime: "PT0H",
    currentRateBps: 650,
    rateUpdatedAt: "2026-11-21T00:00:00.000Z",
  },
  {
    positionKey: "resolvRlp",
    asset: "rlp",
    strategyType: "deltaNeutralStrategy",
    maxProcessingTime: "PT168H",
    currentRateBps: 1050,
    rateUpdatedAt: "2026-11-22T00:00:00.000Z",
  },
];

function walletState(
  name: string,
  weights: Record<string, number> | string,
  walletId: string,
  onDelete = "fail-if-funded",
) {
  const inputs = {
    __provider: PROVIDER,
    resourceUrn: urnOf("wallet", name),
    targetWeightsBps: weights,
    onDelete,
  };
  return {
    urn: urnOf("wallet", name),
    type: TYPES.wallet,
    inputs,
    outputs: {
      ...inputs,
      walletId,
      status: "active",
      blendedRateBps: 518,
      depositAddressByChain: { ethereum: "0xabc" },
    },
  };
}

export type FixtureStep = Record<string, unknown>;

export const step = {
  sameStack: (): FixtureStep => ({
    op: "same",
    urn: `urn:pulumi:${STACK}::${PROJECT}::pulumi:pulumi:Stack::${PROJECT}-${STACK}`,
    oldState: { type: "pulumi:pulumi:Stack" },
    newState: { type: "pulumi:pulumi:Stack" },
  }),
  walletUpdate: (
    name: string,
    before: Record<string, number>,
    after: Record<string, number>,
    walletId: string,
  ): FixtureStep => ({
    op: "update",
    urn: urnOf("wallet", name),
    oldState: walletState(name, before, walletId),
    newState: { ...walletState(name, after, walletId), outputs: {} },
    detailedDiff: null,
  }),
  walletSame: (name: string, weights: Record<string, number>, walletId: string): FixtureStep => ({
    op: "same",
    urn: urnOf("wallet", name),
    oldState: walletState(name, weights, walletId),
    newState: walletState(name, weights, walletId),
  }),
  walletCreate: (name: string, weights: Record<string, number>): FixtureStep => ({
    op: "create",
    urn: urnOf("wallet", name),
    newState: { ...walletState(name, weights, ""), outputs: {} },
  }),
  walletDelete: (
    name: string,
    weights: Record<string, number>,
    walletId: string,
    onDelete = "fail-if-funded",
  ): FixtureStep => ({
    op: "delete",
    urn: urnOf("wallet", name),
    oldState: walletState(name, weights, walletId, onDelete),
  }),
  webhookReplace: (name: string): FixtureStep => ({
    op: "replace",
    urn: urnOf("webhook", name),
    oldState: {
      type: TYPES.webhook,
      inputs: {
        url: "https://user:hunter2@hooks.example.com/old",
        eventTypes: ["portfolio_wallet.balance.updated"],
      },
      outputs: {
        secret: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "x" },
      },
    },
    newState: {
      type: TYPES.webhook,
      inputs: {
        url: "https://user:hunter2@hooks.example.com/new",
        eventTypes: ["portfolio_wallet.balance.updated"],
      },
    },
  }),
  webhookCreateReplacement: (name: string): FixtureStep => ({
    op: "create-replacement",
    urn: urnOf("webhook", name),
  }),
  webhookDeleteReplaced: (name: string): FixtureStep => ({
    op: "delete-replaced",
    urn: urnOf("webhook", name),
  }),
  otherCreate: (name: string): FixtureStep => ({
    op: "create",
    urn: urnOf("bucket", name),
    newState: { type: TYPES.bucket },
  }),
};

/** A preview document; `config` as the engine prints it (secrets masked, plain values in clear). */
export function previewOf(steps: FixtureStep[], config: Record<string, string> = {}): string {
  const changeSummary: Record<string, number> = {};
  for (const s of steps) changeSummary[s["op"] as string] = (changeSummary[s["op"] as string] ?? 0) + 1;
  return JSON.stringify({ config, steps, duration: 1_234_567_890, changeSummary }, null, 4);
}

/**
 * The engine's event log of `pulumi refresh --preview-only --event-log FILE` for refresh steps
 * given as `{ op, urn, oldState, newState }` (the state before, and the state the read found):
 * per resource a pre event of op `refresh` with the state before, and an outputs event with the
 * step's result op and the state read (none when the service no longer has it), then the summary.
 * `finished: false` leaves the summary out, as a refresh that did not finish does. The engine ends
 * every log with a cancel event, which closes its event stream.
 */
export function refreshEventLogOf(steps: FixtureStep[], options: { finished?: boolean } = {}): string {
  let sequence = 0;
  const event = (body: Record<string, unknown>) =>
    JSON.stringify({ sequence: sequence++, timestamp: 1_764_000_000 + sequence, ...body });
  const lines = [event({ preludeEvent: { config: {} } })];
  for (const s of steps) {
    const old = s["oldState"] ?? null;
    const type = (old as { type?: string } | null)?.type ?? "";
    const metadata = { urn: s["urn"], type, provider: "", old };
    lines.push(event({ resourcePreEvent: { metadata: { ...metadata, op: "refresh", new: old } } }));
    const deleted = s["op"] === "delete";
    lines.push(
      event({
        resOutputsEvent: {
          metadata: { ...metadata, op: s["op"], new: deleted ? null : (s["newState"] ?? null) },
        },
      }),
    );
  }
  if (options.finished ?? true) {
    lines.push(event({ summaryEvent: { maybeCorrupt: false, durationSeconds: 1, resourceChanges: {} } }));
  }
  lines.push(event({ cancelEvent: {} }));
  return `${lines.join("\n")}\n`;
}

/** The same step as a resource of the native plugin (`portfolio-wallet:index:<Type>`). */
export function asNativeStep(s: FixtureStep): FixtureStep {
  const native = (text: string) =>
    text.replace(/pulumi-nodejs:dynamic\/\w+:(\w+)/, "portfolio-wallet:index:$1");
  const state = (value: unknown) =>
    value === undefined || value === null
      ? value
      : {
          ...(value as Record<string, unknown>),
          type: native(String((value as { type?: string }).type ?? "")),
        };
  return {
    ...s,
    urn: native(String(s["urn"])),
    oldState: state(s["oldState"]),
    newState: state(s["newState"]),
  };
}

/** A wallet at the service: its target allocation (`applied`, in bps) and its positions in USD. */
export function holdings(
  applied: Record<string, number>,
  positions: Record<string, number>,
  pendingAllocationsUsd = 0,
): WalletAtService {
  return {
    strategyConfig: {
      positions: Object.entries(applied).map(([positionKey, targetWeightBps]) => ({
        positionKey,
        targetWeightBps,
      })),
    },
    positions: Object.entries(positions).map(([positionKey, valueUsd]) => ({ positionKey, valueUsd })),
    pendingAllocationsUsd,
  };
}

/** The report's context with the service's wallets `byId` (the fixture catalog, read at fixed times). */
export function serviceContext(
  byId: Map<string, WalletAtService>,
  overrides: Partial<ReportContext> = {},
): ReportContext {
  return {
    catalog: CATALOG,
    catalogSource: "the service at https://api.example.com",
    catalogReadAt: "2026-11-23T10:00:00.000Z",
    commit: "4f2c9e1",
    balances: new Map(),
    approverConfigured: false,
    wallets: { available: true, byId, readAt: "2026-11-23T10:00:05.000Z" },
    ...overrides,
  };
}

/** The wallet id of the refresh fixtures below. */
export const WALLET = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";

export type Change = { status: string; target: Record<string, number>; signingActivityId?: string };

export function refreshedWalletState(
  weights: Record<string, number>,
  change: Change | null,
  blendedRateBps = 518,
) {
  const inputs = {
    resourceUrn: urnOf("wallet", "treasury"),
    targetWeightsBps: weights,
    onDelete: "fail-if-funded",
  };
  return {
    type: "pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet",
    inputs,
    outputs: {
      ...inputs,
      walletId: WALLET,
      status: "active",
      blendedRateBps,
      strategyChange:
        change === null
          ? null
          : {
              revision: 1,
              requestId: "3f0c",
              status: change.status,
              targetPositions: Object.entries(change.target).map(([positionKey, targetWeightBps]) => ({
                positionKey,
                targetWeightBps,
              })),
              signingActivityId: change.signingActivityId ?? null,
            },
    },
  };
}

/** A wallet's refresh step: what the code last applied, and what a read of the service found. */
export function walletRefresh(
  code: Record<string, number>,
  service: Record<string, number>,
  options: { change?: Change | null; rates?: [number, number] } = {},
): FixtureStep {
  const [rateBefore, rateAfter] = options.rates ?? [518, 518];
  const before = refreshedWalletState(code, options.change ?? null, rateBefore);
  const after = refreshedWalletState(service, options.change ?? null, rateAfter);
  const same = JSON.stringify(before) === JSON.stringify(after);
  return {
    op: same ? "same" : "update",
    urn: urnOf("wallet", "treasury"),
    oldState: before,
    newState: after,
  };
}
