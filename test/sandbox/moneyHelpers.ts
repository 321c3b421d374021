import { afterAll, beforeAll, expect } from "vitest";
import { createManualClock, type SandboxClock, type SandboxOptions } from "../../sandbox/index.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { fundedWallet as fundedWalletOf } from "../support/sandboxAccess.ts";
import { ORG, startTestSandbox, TOKEN, uuid, type TestSandbox } from "./helpers.ts";

/** Deposits reach their positions after this much sandbox time in money tests. */
export const DEPOSIT_DELAY_MS = 1000;
export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;
/** A well-formed EVM payout address. */
export const EVM_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
/** A well-formed Solana payout address (32 bytes in base58). */
export const SOLANA_ADDRESS = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";

export interface MoneySandbox {
  t: TestSandbox;
  client: PortfolioWalletClient;
  /**
   * org-a's clock, over a stopped shared clock: nothing moves unless a test advances it, so figures
   * compare to the micro. Advancing it moves org-a's clock, as the admin API's advance does.
   */
  clock: SandboxClock;
  /** Advances the sandbox clock through the admin API (due work settles). */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** An in-memory sandbox on a manual clock, with a typed client for org-a. */
export async function startMoneySandbox(options: SandboxOptions = {}): Promise<MoneySandbox> {
  const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
  const t = await startTestSandbox({ clock, depositProcessingDelayMs: DEPOSIT_DELAY_MS, ...options });
  const client = new PortfolioWalletClient({
    baseUrl: t.url,
    apiToken: TOKEN,
    maxRetries: 0,
    env: {},
  });
  const clocks = t.sandbox.clocks;
  const organizationClock: SandboxClock = {
    now: () => clocks.now(ORG),
    advance: (ms) => clocks.advance(ORG, ms),
    offsetMs: () => clock.offsetMs() + clocks.leadMs(ORG),
  };
  return {
    t,
    client,
    clock: organizationClock,
    async advance(ms) {
      const res = await t.api("POST", "/_sandbox/clock/advance", { body: { ms } });
      expect(res.status).toBe(200);
    },
    async close() {
      await client.close();
      await t.close();
    },
  };
}

/** A money sandbox for a file's tests: started before them, closed after; call it inside a test. */
export function useMoneySandbox(options: SandboxOptions = {}): () => MoneySandbox {
  let sandbox: MoneySandbox | undefined;
  beforeAll(async () => {
    sandbox = await startMoneySandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (sandbox === undefined) throw new Error("the money sandbox starts in beforeAll: use it inside a test");
    return sandbox;
  };
}

/** Simulates an on-chain transfer to the wallet's deposit address on `chain` (admin call). */
export async function deposit(
  m: MoneySandbox,
  walletId: string,
  amount: number,
  options: { chain?: string; txHash?: string; token?: string } = {},
) {
  const wallet = await m.client.wallets.retrieve(walletId);
  const chain = options.chain ?? "ethereum";
  const address = wallet.depositAddresses[chain]?.address;
  const res = await m.t.api("POST", "/_sandbox/deposits", {
    body: { chain, address, amount, txHash: options.txHash ?? `0x${uuid().replaceAll("-", "")}` },
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string; amountUsd: number };
}

/** The id of a wallet of org-a on `positions`, funded with `amount` that has reached its positions. */
export async function fundedWallet(m: MoneySandbox, amount: number, positions?: unknown[]): Promise<string> {
  const access = { url: m.t.url, token: TOKEN };
  const options = { settleMs: DEPOSIT_DELAY_MS, ...(positions === undefined ? {} : { positions }) };
  return (await fundedWalletOf(access, amount, options)).wallet.id;
}

/** A withdraw body to a valid Ethereum address. */
export function withdrawBody(withdrawalAmount: number, overrides: Record<string, unknown> = {}) {
  return {
    requestId: uuid(),
    withdrawalAmount,
    destinationToken: "usdc",
    destinationChain: "ethereum",
    destinationAddress: EVM_ADDRESS,
    ...overrides,
  };
}

/** The allocations the money property tests draw wallets from: several sources, one, uneven thirds. */
export const PROPERTY_ALLOCATIONS = [
  [
    { positionKey: "tbills", targetWeightBps: 6000 },
    { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  ],
  [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
  [
    { positionKey: "tbills", targetWeightBps: 3333 },
    { positionKey: "resolvRlp", targetWeightBps: 3334 },
    { positionKey: "syrupUsdc", targetWeightBps: 3333 },
  ],
  [{ positionKey: "resolvRlp", targetWeightBps: 10000 }],
];

export const micros = (usd: number) => Math.round(usd * 1_000_000);

/**
 * The invariant between the global yield generated and the wallets' (docs/sandbox.md, "Yield
 * metrics"): global is the exact sum rounded down once, each wallet's unsettled yield is rounded
 * down per position, so global − Σ wallets is at least 0 and less than one micro per position
 * holding money, times its growth since its last settlement (at most 1 + `growth`).
 */
export function expectGlobalGenerated(
  globalMicros: number,
  walletsMicros: number,
  positionsHoldingMoney: number,
  growth = 0.1,
): void {
  const gap = globalMicros - walletsMicros;
  expect(gap, `global ${globalMicros} − Σ wallets ${walletsMicros}`).toBeGreaterThanOrEqual(0);
  expect(gap, `global ${globalMicros} − Σ wallets ${walletsMicros}`).toBeLessThanOrEqual(
    Math.floor(positionsHoldingMoney * (1 + growth)),
  );
}
