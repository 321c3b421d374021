import { randomUUID } from "node:crypto";
import { request, type Dispatcher } from "undici";

/**
 * What every suite does to a sandbox over plain HTTP, written once: read and reset the request
 * counts, and make a funded wallet. Any sandbox will do (in-process, a child process, the one a
 * Pulumi program talks to), so these take its URL and tokens rather than a harness. Benchmarks use
 * them too, so they throw plain errors instead of using a test runner's assertions.
 */
export interface SandboxAccess {
  url: string;
  /** An API token: the organization the calls act for. */
  token: string;
  /** The admin token, when the sandbox requires one for `/_sandbox/*`. */
  adminToken?: string | undefined;
  /**
   * The connections to send on (an undici Agent), where a caller keeps its own as each Pulumi
   * provider process does (the load benches); undici's shared pool otherwise.
   */
  connections?: Dispatcher | undefined;
}

/** A sandbox's answer: its status, its body as text, and that text read as JSON (null when empty). */
export interface SandboxAnswer {
  status: number;
  text: string;
  // Tests read answers as loose JSON, so the body type is `any` on purpose.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** Sends one request as `access`'s organization (JSON in, JSON out), whatever the status. */
export async function sendToSandbox(
  access: SandboxAccess,
  method: string,
  path: string,
  body?: unknown,
): Promise<SandboxAnswer> {
  const answer = await request(`${access.url}${path}`, {
    method: method as Dispatcher.HttpMethod,
    headers: {
      authorization: `Bearer ${access.token}`,
      ...(access.adminToken === undefined ? {} : { "x-sandbox-admin-token": access.adminToken }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(access.connections === undefined ? {} : { dispatcher: access.connections }),
  });
  const text = await answer.body.text();
  return { status: answer.statusCode, text, body: text === "" ? null : JSON.parse(text) };
}

/** sendToSandbox for a request that must succeed: any other answer throws, quoting it. */
export async function callSandbox(
  access: SandboxAccess,
  method: string,
  path: string,
  body?: unknown,
): Promise<SandboxAnswer["body"]> {
  const answer = await sendToSandbox(access, method, path, body);
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return answer.body;
}

/** Requests the sandbox counted for the token's organization, by `METHOD /route`. */
export async function requestCounts(access: SandboxAccess): Promise<Record<string, number>> {
  return (
    (await callSandbox(access, "GET", "/_sandbox/request-counts")) as { counts: Record<string, number> }
  ).counts;
}

/** The organization's API requests in flight now, and the most at once since the counts were reset. */
export async function requestsInFlight(access: SandboxAccess): Promise<{ now: number; peak: number }> {
  return (
    (await callSandbox(access, "GET", "/_sandbox/request-counts")) as {
      inFlight: { now: number; peak: number };
    }
  ).inFlight;
}

export async function resetRequestCounts(access: SandboxAccess): Promise<void> {
  await callSandbox(access, "DELETE", "/_sandbox/request-counts");
}

/** A two-source allocation (60% tbills, 40% syrupUsdc), the suites' usual wallet. */
export const TWO_SOURCES = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

/** A payout destination every suite may send a withdrawal to: usdc on ethereum. */
export const ETHEREUM_PAYOUT = {
  destinationToken: "usdc",
  destinationChain: "ethereum",
  destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
};

export interface FundedWalletOptions {
  positions?: readonly unknown[];
  label?: string;
  /** Sandbox time to advance after the deposit, so it reaches the positions (the sandbox's deposit delay). */
  settleMs?: number;
}

/**
 * A simulated on-chain deposit of `amountUsd` to a wallet's Ethereum address, the sandbox clock then
 * moved `settleMs`, and its funds checked to have reached the positions (nothing left pending
 * allocation). Answers the deposit's id.
 */
export async function depositInto(
  access: SandboxAccess,
  walletId: string,
  amountUsd: number,
  settleMs: number,
): Promise<string> {
  const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
  const deposit = await callSandbox(access, "POST", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: amountUsd,
    txHash: `0x${randomUUID().replaceAll("-", "")}`,
  });
  if (settleMs > 0) await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: settleMs });
  const funded = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
  if (funded.pendingAllocationsUsd !== 0) {
    throw new Error(
      `the deposit to wallet ${walletId} has not reached its positions (${funded.pendingAllocationsUsd} USD pending); settle it longer`,
    );
  }
  return deposit.id as string;
}

/**
 * A new wallet funded by a simulated on-chain deposit of `amountUsd` to its Ethereum address, whose
 * funds have reached its positions (checked: nothing is left pending allocation).
 */
export async function fundedWallet(
  access: SandboxAccess,
  amountUsd: number,
  options: FundedWalletOptions = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ wallet: any; depositId: string }> {
  const wallet = await callSandbox(access, "POST", "/v2/portfolio-wallets", {
    requestId: randomUUID(),
    positions: options.positions ?? TWO_SOURCES,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
  const depositId = await depositInto(access, wallet.id, amountUsd, options.settleMs ?? 0);
  return { wallet, depositId };
}

/** The target allocation a wallet applies at the sandbox, `{ tbills: 6000, syrupUsdc: 4000 }`. */
export async function appliedWeightsOf(
  access: SandboxAccess,
  walletId: string,
): Promise<Record<string, number>> {
  const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
  return Object.fromEntries(
    wallet.strategyConfig.positions.map((p: { positionKey: string; targetWeightBps: number }) => [
      p.positionKey,
      p.targetWeightBps,
    ]),
  );
}

/**
 * Waits for the sandbox to apply a strategy update to `weights`: its rebalance runs on the sandbox
 * clock, which this moves a second at a time.
 */
export async function waitForWeightsOf(
  access: SandboxAccess,
  walletId: string,
  weights: Record<string, number>,
): Promise<void> {
  const wanted = JSON.stringify(Object.entries(weights).sort());
  for (let attempt = 0; attempt < 100; attempt++) {
    if (JSON.stringify(Object.entries(await appliedWeightsOf(access, walletId)).sort()) === wanted) return;
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`wallet ${walletId} never applied ${JSON.stringify(weights)}`);
}
