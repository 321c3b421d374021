import { randomUUID } from "node:crypto";

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
}

// Tests read answers as loose JSON, so the body type is `any` on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function call(access: SandboxAccess, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${access.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${access.token}`,
      ...(access.adminToken === undefined ? {} : { "x-sandbox-admin-token": access.adminToken }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = text === "" ? null : (JSON.parse(text) as unknown);
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return json;
}

/** Requests the sandbox counted for the token's organization, by `METHOD /route`. */
export async function requestCounts(access: SandboxAccess): Promise<Record<string, number>> {
  return ((await call(access, "GET", "/_sandbox/request-counts")) as { counts: Record<string, number> })
    .counts;
}

export async function resetRequestCounts(access: SandboxAccess): Promise<void> {
  await call(access, "DELETE", "/_sandbox/request-counts");
}

const TWO_SOURCES = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

export interface FundedWalletOptions {
  positions?: readonly unknown[];
  label?: string;
  /** Sandbox time to advance after the deposit, so it reaches the positions (the sandbox's deposit delay). */
  settleMs?: number;
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
  const wallet = await call(access, "POST", "/v2/portfolio-wallets", {
    requestId: randomUUID(),
    positions: options.positions ?? TWO_SOURCES,
    ...(options.label === undefined ? {} : { label: options.label }),
  });
  const deposit = await call(access, "POST", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: amountUsd,
    txHash: `0x${randomUUID().replaceAll("-", "")}`,
  });
  if (options.settleMs !== undefined && options.settleMs > 0) {
    await call(access, "POST", "/_sandbox/clock/advance", { ms: options.settleMs });
  }
  const funded = await call(access, "GET", `/v2/portfolio-wallets/${wallet.id}`);
  if (funded.pendingAllocationsUsd !== 0) {
    throw new Error(
      `the deposit to wallet ${wallet.id} has not reached its positions (${funded.pendingAllocationsUsd} USD pending); settle it longer`,
    );
  }
  return { wallet, depositId: deposit.id };
}
