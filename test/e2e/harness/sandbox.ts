import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { startSandbox, type Sandbox } from "../../../sandbox/index.ts";
import { canonicalAllocation } from "../../../sdk/nodejs/contract/allocation.ts";
import type { PortfolioWallet } from "../../../sdk/nodejs/contract/wallet.ts";
import { PortfolioWalletClient } from "../../../sdk/nodejs/client/index.ts";
import { generateTurnkeyApiKeyPair, type TurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";
import { requestCounts, resetRequestCounts } from "../../support/sandboxAccess.ts";

export type Allocation = { positionKey: string; targetWeightBps: number }[];

export interface AdminAnswer {
  status: number;
  // Admin answers are read as loose JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * The in-process sandbox of one e2e test file, with a distinctive API token (the secrets check
 * looks for it in every file the engine wrote), the typed client as an out-of-band user, and the
 * admin calls the steps use.
 */
export class E2eSandbox {
  static readonly organizationId = "e2e-org";
  readonly organizationId = E2eSandbox.organizationId;
  /** Distinctive, so that finding it anywhere in state or logs cannot be a coincidence. */
  readonly token: string;
  /** The service as a person or script outside Pulumi uses it (no retries: every call is deliberate). */
  readonly client: PortfolioWalletClient;
  private readonly sandbox: Sandbox;

  private constructor(sandbox: Sandbox, token: string) {
    this.sandbox = sandbox;
    this.token = token;
    this.client = new PortfolioWalletClient({ baseUrl: sandbox.url, apiToken: token, maxRetries: 0 });
  }

  /** One sandbox for the whole file: `destroy`/`refresh` use the URL recorded by the last `up`. */
  static async start(): Promise<E2eSandbox> {
    const token = `e2e-secret-token-${randomBytes(16).toString("hex")}`;
    const sandbox = await startSandbox({
      port: 0,
      dataDir: ":memory:",
      tokens: { [token]: E2eSandbox.organizationId },
      rebalanceDelayMs: 50,
    });
    return new E2eSandbox(sandbox, token);
  }

  get url(): string {
    return this.sandbox.url;
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.sandbox.close();
  }

  async admin(method: string, path: string, body?: unknown): Promise<AdminAnswer> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : JSON.parse(text) };
  }

  /** An admin call that must answer `expectedStatus`; its body otherwise. */
  async adminOk(
    method: string,
    path: string,
    body?: unknown,
    expectedStatus = 200,
  ): Promise<AdminAnswer["body"]> {
    const answer = await this.admin(method, path, body);
    if (answer.status !== expectedStatus) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  }

  requestCounts(): Promise<Record<string, number>> {
    return requestCounts({ url: this.url, token: this.token });
  }

  resetRequestCounts(): Promise<void> {
    return resetRequestCounts({ url: this.url, token: this.token });
  }

  async setStrategyUpdateApprovals(strategyUpdateApprovals: number): Promise<void> {
    await this.adminOk("PUT", "/_sandbox/policy", { strategyUpdateApprovals });
  }

  async addFault(fault: Record<string, unknown>): Promise<void> {
    await this.adminOk("POST", "/_sandbox/faults", fault, 201);
  }

  async clearFaults(): Promise<void> {
    await this.adminOk("DELETE", "/_sandbox/faults", undefined, 204);
  }

  /** A fresh Turnkey API key pair, registered as an approver of the organization. */
  async registerApproverKey(userName: string): Promise<TurnkeyApiKeyPair> {
    const keys = generateTurnkeyApiKeyPair();
    await this.adminOk("POST", "/_sandbox/signing/api-keys", { publicKey: keys.apiPublicKey, userName }, 201);
    return keys;
  }

  /** The target allocation the wallet applies now, canonical (sorted, only key and weight). */
  async appliedAllocation(walletId: string): Promise<Allocation> {
    const wallet = await this.client.wallets.retrieve(walletId);
    return canonicalAllocation(wallet.strategyConfig.positions);
  }

  /** Polls the wallet until it applies `target` (a rebalance takes the sandbox's delay). */
  async waitForAllocation(walletId: string, target: Allocation, timeoutMs = 30_000): Promise<void> {
    const wanted = JSON.stringify(canonicalAllocation(target));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const applied = JSON.stringify(await this.appliedAllocation(walletId));
      if (applied === wanted) return;
      if (Date.now() > deadline)
        throw new Error(`wallet ${walletId} still applies ${applied}, not ${wanted}`);
      await sleep(100);
    }
  }

  /** Every wallet of the organization. */
  async allWallets(): Promise<PortfolioWallet[]> {
    const wallets: PortfolioWallet[] = [];
    for await (const wallet of this.client.wallets.list({ pageSize: 100 })) wallets.push(wallet);
    return wallets;
  }
}

/** Request-counter keys that are not reads (POST, PATCH, DELETE, ...). */
export function mutatingCalls(counts: Record<string, number>): string[] {
  return Object.keys(counts).filter((key) => !key.startsWith("GET "));
}
