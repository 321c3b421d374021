import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import {
  requestCounts as requestCountsOf,
  requestsInFlight as requestsInFlightOf,
  resetRequestCounts as resetRequestCountsOf,
} from "../support/sandboxAccess.ts";
import {
  callResource,
  configure as configureProvider,
  type ResourceKind,
  type ResourceMethod,
} from "../../provider/implementation.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import type { SandboxOptions } from "../../sandbox/index.ts";
import type { StrategyUpdate } from "../../sdk/nodejs/contract/strategy.ts";
import { startTestSandbox, ORG, TOKEN, type TestSandbox } from "../sandbox/helpers.ts";
import { generateTurnkeyApiKeyPair, type TurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";

const execFileAsync = promisify(execFile);

export { ORG, TOKEN, OTHER_TOKEN, OTHER_ORG, type TestSandbox } from "../sandbox/helpers.ts";

/**
 * Test harness for the provider methods, called the way the adapters call them:
 * `callResource(kind, method, ...args)` after `configure(config)`.
 */

export const POSITIONS_A = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
export const POSITIONS_B = [
  { positionKey: "tbills", targetWeightBps: 2500 },
  { positionKey: "syrupUsdc", targetWeightBps: 7500 },
];
export const POSITIONS_C = [
  { positionKey: "resolvRlp", targetWeightBps: 2000 },
  { positionKey: "syrupUsdc", targetWeightBps: 8000 },
];

/** A URN as the resource classes compute it; unique per call so tests never share requestIds. */
export function urnOf(type: string, name = `r-${randomUUID()}`): string {
  return `urn:pulumi:test::portfolio-wallet::pulumi-nodejs:dynamic/${type.toLowerCase()}:${type}::${name}`;
}

export type ConfigMap = Record<string, string>;

/** The stack configuration the engine hands to `configure`: an object with `get(key)`. */
export function configSource(values: ConfigMap) {
  return { get: (key: string) => values[key] };
}

export function baseConfig(t: TestSandbox, token = TOKEN): ConfigMap {
  return { "portfolio-wallet:baseUrl": t.url, "portfolio-wallet:apiToken": token };
}

export function approverConfig(t: TestSandbox, keys: TurnkeyApiKeyPair, organizationId = ORG): ConfigMap {
  return {
    "portfolio-wallet:turnkeyApiBaseUrl": t.url,
    "portfolio-wallet:turnkeyOrganizationId": organizationId,
    "portfolio-wallet:turnkeyApiPublicKey": keys.apiPublicKey,
    "portfolio-wallet:turnkeyApiPrivateKey": keys.apiPrivateKey,
  };
}

// Provider results are loose JSON by nature; tests read them as such.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** One resource kind's provider, called through dispatch with a configuration. */
export interface ProviderUnderTest {
  configure(config: ConfigMap): Promise<void>;
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Loose>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Loose>;
  create(inputs: Record<string, unknown>): Promise<Loose>;
  read(id: string, props: Record<string, unknown>): Promise<Loose>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Loose>;
  delete(id: string, props: Record<string, unknown>): Promise<void>;
}

/** A call into the implementation with loose test values (tests pass states they made up). */
const dispatch = callResource as (
  kind: ResourceKind,
  method: ResourceMethod,
  ...args: unknown[]
) => Promise<Loose>;

export function providerOf(kind: ResourceKind): ProviderUnderTest {
  return {
    configure: async (config) => {
      configureProvider(configSource(config));
    },
    check: (olds, news) => dispatch(kind, "check", olds, news),
    diff: (id, olds, news) => dispatch(kind, "diff", id, olds, news),
    create: (inputs) => dispatch(kind, "create", inputs),
    read: (id, props) => dispatch(kind, "read", id, props),
    update: (id, olds, news) => dispatch(kind, "update", id, olds, news),
    delete: async (id, props) => {
      await dispatch(kind, "delete", id, props);
    },
  };
}

/** check() that must pass; returns the checked inputs the engine would pass on. */
export async function checked(
  provider: ProviderUnderTest,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await provider.check(olds, news);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs;
}

/** A sandbox with a fast rebalance, for provider tests. */
export async function startProviderSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  return startTestSandbox({ rebalanceDelayMs: 5, ...options });
}

export interface ProviderSandboxOptions {
  /** Options of the sandbox (a fast rebalance unless given). */
  sandbox?: SandboxOptions;
  /** Providers configured for this sandbox (and its default token) before each test. */
  configure?: ProviderUnderTest[];
  /** The test organization's approval policy before each test. */
  policy?: Record<string, number>;
}

/**
 * The sandbox of one provider test file: started before its tests and closed after them; before
 * each test, the given providers are configured for it, faults are cleared and the approval
 * policy is set. Returns the sandbox (usable once the tests run).
 */
export function useProviderSandbox(options: ProviderSandboxOptions = {}): TestSandbox {
  let started: TestSandbox | undefined;
  const current = (): TestSandbox => {
    if (started === undefined)
      throw new Error("the provider sandbox starts in beforeAll: use it inside a test");
    return started;
  };
  beforeAll(async () => {
    started = await startProviderSandbox(options.sandbox);
  });
  afterAll(() => started?.close());
  const sandbox: TestSandbox = {
    get sandbox() {
      return current().sandbox;
    },
    get url() {
      return current().url;
    },
    api: (method, path, apiOptions) => current().api(method, path, apiOptions),
    close: () => current().close(),
  };
  beforeEach(async () => {
    for (const provider of options.configure ?? []) await provider.configure(baseConfig(sandbox));
    await sandbox.api("DELETE", "/_sandbox/faults");
    if (options.policy !== undefined) await setPolicy(sandbox, options.policy);
  });
  return sandbox;
}

/** A client of the sandbox as the token's organization: what an out-of-band change uses. */
export function clientOf(t: TestSandbox, token = TOKEN): PortfolioWalletClient {
  return new PortfolioWalletClient({ baseUrl: t.url, apiToken: token, maxRetries: 0 });
}

/** The request counts of the token's organization (test/support/sandboxAccess.ts). */
export const requestCounts = (t: TestSandbox, token = TOKEN) => requestCountsOf({ url: t.url, token });
/** Requests in flight now and at peak for the token's organization (test/support/sandboxAccess.ts). */
export const requestsInFlight = (t: TestSandbox, token = TOKEN) => requestsInFlightOf({ url: t.url, token });

export const resetRequestCounts = (t: TestSandbox, token = TOKEN) =>
  resetRequestCountsOf({ url: t.url, token });

/** Request-counter keys that are not reads. */
export function mutatingKeys(counts: Record<string, number>): string[] {
  return Object.keys(counts).filter((key) => !key.startsWith("GET "));
}

export async function setPolicy(
  t: TestSandbox,
  policy: Record<string, number>,
  token = TOKEN,
): Promise<void> {
  const res = await t.api("PUT", "/_sandbox/policy", { token, body: policy });
  expect(res.status).toBe(200);
}

export async function addFault(t: TestSandbox, fault: Record<string, unknown>, token = TOKEN): Promise<void> {
  const res = await t.api("POST", "/_sandbox/faults", { token, body: fault });
  expect(res.status).toBe(201);
}

/** Generates a Turnkey API key pair and registers it as an approver of the token's organization. */
export async function registeredApproverKeys(t: TestSandbox, token = TOKEN): Promise<TurnkeyApiKeyPair> {
  const keys = generateTurnkeyApiKeyPair();
  const res = await t.api("POST", "/_sandbox/signing/api-keys", {
    token,
    body: { publicKey: keys.apiPublicKey, userName: "provider-test" },
  });
  expect(res.status).toBe(201);
  return keys;
}

/** Every wallet of the token's organization at the sandbox. */
export async function walletIds(t: TestSandbox, token = TOKEN): Promise<string[]> {
  const res = await t.api("GET", "/v2/portfolio-wallets?pageSize=100", { token });
  expect(res.status).toBe(200);
  return res.body.data.map((wallet: { id: string }) => wallet.id);
}

export async function walletTargets(t: TestSandbox, walletId: string, token = TOKEN) {
  const res = await t.api("GET", `/v2/portfolio-wallets/${walletId}`, { token });
  expect(res.status).toBe(200);
  return (res.body.strategyConfig.positions as { positionKey: string; targetWeightBps: number }[])
    .map(({ positionKey, targetWeightBps }) => ({ positionKey, targetWeightBps }))
    .sort(byPositionKey);
}

/**
 * Changes the wallet's allocation outside the stack (as a console or another tool would) and
 * waits for the service to apply it: the update stays `processing` for the rebalance delay, and
 * until it completes the wallet still reads the old allocation.
 */
export async function changeOutside(
  t: TestSandbox,
  walletId: string,
  positions: { positionKey: string; targetWeightBps: number }[],
): Promise<void> {
  await clientOf(t).wallets.updateStrategy(walletId, { requestId: randomUUID(), positions });
  await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 60 } });
  expect(await walletTargets(t, walletId)).toEqual(canonical(positions));
}

function byPositionKey(a: { positionKey: string }, b: { positionKey: string }): number {
  return a.positionKey < b.positionKey ? -1 : a.positionKey > b.positionKey ? 1 : 0;
}

/** Sorted by positionKey, only the used fields: how the provider keeps allocations in state. */
export function canonical(positions: { positionKey: string; targetWeightBps: number }[]) {
  return positions
    .map(({ positionKey, targetWeightBps }) => ({ positionKey, targetWeightBps }))
    .sort(byPositionKey);
}

/** The map form checked inputs keep an allocation in: `{ tbills: 6000, syrupUsdc: 4000 }`. */
export function weightsOf(positions: { positionKey: string; targetWeightBps: number }[]) {
  return Object.fromEntries(positions.map((p) => [p.positionKey, p.targetWeightBps]));
}

/** Whole text of a value, for "this secret appears nowhere" assertions. */
export function textOf(value: unknown): string {
  return JSON.stringify(value) ?? "";
}

export { generateTurnkeyApiKeyPair };

/** One resource registration as the mocked program's monitor saw it. */
export interface MockedRegistration {
  type: string;
  name: string;
  urn: string;
  inputs: Record<string, unknown>;
  additionalSecretOutputs: string[];
}

export interface MockedProgramReport {
  /** Error.stackTraceLimit once every resource was constructed (the program sets it to 17 first). */
  stackTraceLimitAfter: number;
  registrations: MockedRegistration[];
  /** What the program logged as errors (pulumi.log.error prints them without an engine). */
  errors: string[];
  hasErrors: boolean;
}

/**
 * Runs test/provider/programs/mockedProgram.ts in a plain Node process, as `pulumi up` runs a
 * program (see that file for why not in vitest), and returns its report.
 */
export async function runMockedProgram(
  scenario: string,
  env: Record<string, string> = {},
): Promise<MockedProgramReport> {
  const program = fileURLToPath(new URL("./programs/mockedProgram.ts", import.meta.url));
  const { stdout } = await execFileAsync(process.execPath, [program, scenario], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    env: { ...process.env, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const lastLine = stdout.trimEnd().split("\n").at(-1) ?? "";
  return JSON.parse(lastLine) as MockedProgramReport;
}

/** A strategy update as the service answers it, for tests of the provider's pure decisions. */
export function strategyUpdateAnswer(
  status: string,
  overrides: Partial<StrategyUpdate> = {},
): StrategyUpdate {
  return {
    id: "7a1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71",
    requestId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
    portfolioWalletId: "0d5e7a52-7f0e-4c1a-9d55-3c2a8b1f6e01",
    status,
    positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }],
    createdAt: "2026-11-23T00:00:00.000Z",
    updatedAt: "2026-11-23T00:00:00.000Z",
    ...overrides,
  };
}
