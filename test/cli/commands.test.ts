import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { loadAllocation } from "../../sdk/nodejs/allocationFile.ts";
import { generateTurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";
import { ORG, TOKEN, startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";
import { previewOf, step } from "./previewFixtures.ts";

/**
 * Every service command of `portfolio-wallet`, as a user runs it, against the sandbox over HTTP:
 * its table and --json output, and its errors (a bad flag, a missing token, an unknown wallet).
 */

let t: TestSandbox;
const cwd = useCliDirectory();
beforeAll(async () => {
  // Deposits are allocated after an hour and redeem legs pay out after a day, on the sandbox clock.
  t = await startTestSandbox({ depositProcessingDelayMs: 3_600_000 });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 0, withdrawalApprovals: 0 } });
});

const env = () => ({ PORTFOLIO_WALLET_BASE_URL: t.url, PORTFOLIO_WALLET_API_TOKEN: TOKEN });
const run = (args: string[], extraEnv: Record<string, string> = {}) =>
  portfolioWallet(args, { cwd: cwd(), env: { ...env(), ...extraEnv } });
const json = async <T>(args: string[], extraEnv: Record<string, string> = {}): Promise<T> => {
  const result = await run(["--json", ...args], extraEnv);
  expect(result.stderr, result.stderr).not.toMatch(/^portfolio-wallet:/m);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
};

async function newWallet(
  positions = [
    { positionKey: "tbills", targetWeightBps: 6000 },
    { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  ],
) {
  const res = await t.api("POST", "/v2/portfolio-wallets", { body: { requestId: randomUUID(), positions } });
  expect(res.status).toBe(201);
  return res.body as { id: string; depositAddresses: Record<string, { address: string }> };
}

async function fund(wallet: { depositAddresses: Record<string, { address: string }> }, amount: number) {
  const address = wallet.depositAddresses["ethereum"]!.address;
  const res = await t.api("POST", "/_sandbox/deposits", {
    body: { chain: "ethereum", address, amount, txHash: `0x${randomUUID().replaceAll("-", "")}` },
  });
  expect(res.status).toBe(201);
  await advance(7200);
}

/** `withdraw --wait` of `amountUsd` in USDC on Ethereum to a burn address. */
function waitingWithdrawal(walletId: string, amountUsd: number): string[] {
  return [
    "withdraw",
    "--wallet",
    walletId,
    "--amount",
    String(amountUsd),
    "--chain",
    "ethereum",
    "--token",
    "usdc",
    "--address",
    "0x000000000000000000000000000000000000dEaD",
    "--wait",
    "--timeout",
    "120",
  ];
}

async function advance(seconds: number) {
  const res = await t.api("POST", "/_sandbox/clock/advance", { body: { seconds } });
  expect(res.status).toBe(200);
}

describe("settings and errors", () => {
  test("a missing token: exit 1, saying where to set it", async () => {
    const result = await portfolioWallet(["wallets", "list"], {
      cwd: cwd(),
      env: { PORTFOLIO_WALLET_BASE_URL: t.url },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/apiToken is not set/);
    expect(result.stderr).toMatch(/PORTFOLIO_WALLET_API_TOKEN/);
    expect(result.stderr).toMatch(/--api-token/);
    // The problems, said the command-line tool's way: not the provider's preamble.
    expect(result.stderr).not.toMatch(/Portfolio wallet settings/);
  });

  test("a token the service refuses: exit 1 with the 401, and the token is never printed", async () => {
    const token = "pw-cli-refused-token-93b1";
    const result = await run(["wallets", "list"], { PORTFOLIO_WALLET_API_TOKEN: token });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  test("flags win over the environment", async () => {
    const result = await run(["--base-url", "http://127.0.0.1:9", "wallets", "list"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not reach the service/);
  });

  test("a bad flag value or an unknown flag: exit 2 naming the flag", async () => {
    const badValue = await run(["quote", "--min-apy-bps", "lots"]);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toMatch(/--min-apy-bps.*lots.*whole number/);
    const unknown = await run(["wallets", "list", "--colour"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--colour'/);
    const notUuid = await run(["wallets", "show", "wallet-1"]);
    expect(notUuid.code).toBe(2);
    expect(notUuid.stderr).toMatch(/must be a UUID/);
  });

  test("an unknown wallet: exit 1 with the service's 404", async () => {
    const result = await run(["wallets", "show", randomUUID()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/404/);
    expect(result.stderr).toMatch(/not found/);
  });
});

describe("quote", () => {
  test("shows the Pareto options as a table, and --write saves the chosen one as an allocation file", async () => {
    const table = await run(["quote", "--min-apy-bps", "600", "--instant-min-bps", "3000"]);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/meets constraints/);
    expect(table.stdout).toMatch(/^1 .* yes /m);

    const file = path.join(cwd(), "allocation.json");
    const written = await json<{ options: { constraintsSatisfied: boolean }[]; written: { option: number } }>(
      ["quote", "--min-apy-bps", "600", "--instant-min-bps", "3000", "--write", file],
    );
    expect(written.written.option).toBe(1);
    const positions = loadAllocation(file);
    expect(positions.reduce((sum, p) => sum + p.targetWeightBps, 0)).toBe(10_000);
    expect(JSON.parse(readFileSync(file, "utf8")).quote).toMatchObject({
      constraintsSatisfied: true,
      blendedRateBps: expect.any(Number),
    });
  });

  test("when no option meets the constraints, --write needs --option, and --option must exist", async () => {
    const file = path.join(cwd(), "unmet.json");
    const refused = await run([
      "quote",
      "--min-apy-bps",
      "5000",
      "--instant-min-bps",
      "9000",
      "--write",
      file,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no option meets every constraint.*--option/);
    expect(existsSync(file)).toBe(false);
    const tooFar = await run(["quote", "--min-apy-bps", "5000", "--write", file, "--option", "99"]);
    expect(tooFar.code).toBe(1);
    expect(tooFar.stderr).toMatch(/--option 99: the quote has \d+ option/);
    const chosen = await run(["quote", "--min-apy-bps", "5000", "--write", file, "--option", "1"]);
    expect(chosen.code).toBe(0);
    expect(loadAllocation(file).length).toBeGreaterThan(0);
  });
});

describe("wallets, deposits, withdrawals, yield", () => {
  test("wallets list and show: table and JSON", async () => {
    const wallet = await newWallet();
    const list = await run(["wallets", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(wallet.id);
    const shown = await json<{ id: string; positions: unknown[] }>(["wallets", "show", wallet.id]);
    expect(shown.id).toBe(wallet.id);
    const human = await run(["wallets", "show", wallet.id]);
    expect(human.stdout).toMatch(/drift bps/);
    expect(human.stdout).toContain(wallet.depositAddresses["ethereum"]!.address);
  });

  test("deposits list and show", async () => {
    const wallet = await newWallet();
    await fund(wallet, 250);
    const deposits = await json<{ id: string; status: string }[]>(["deposits", "list", wallet.id]);
    expect(deposits).toHaveLength(1);
    expect(deposits[0]!.status).toBe("completed");
    const shown = await run(["deposits", "show", wallet.id, deposits[0]!.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/\$250\.00/);
    expect(shown.stdout).toMatch(/tbills\s+completed/);
  });

  test("withdraw --wait follows the instant and redeem legs on the sandbox clock until completed", async () => {
    const wallet = await newWallet();
    await fund(wallet, 1000);
    const args = ["--json", ...waitingWithdrawal(wallet.id, 600)];
    const waiting = run(args);
    // Once the instant leg has paid and the redeem leg waits for its day, move the clock on.
    for (;;) {
      const list = await t.api("GET", `/v2/portfolio-wallets/${wallet.id}/withdrawals`);
      if (list.body.data.some((w: { status: string }) => w.status === "partially_completed")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await advance(90_000);
    const result = await waiting;
    expect(result.code).toBe(0);
    const withdrawal = JSON.parse(result.stdout) as {
      id: string;
      status: string;
      payouts: { legKey: string; status: string }[];
    };
    expect(withdrawal.status).toBe("completed");
    expect(withdrawal.payouts.map((p) => [p.legKey, p.status])).toEqual([
      ["instant", "completed"],
      ["redeem", "completed"],
    ]);
    // Progress was shown on stderr, leg by leg, as plain lines (not a terminal).
    expect(result.stderr).toMatch(/partially_completed; instant completed, redeem processing/);
    expect(result.stderr).toMatch(/completed; instant completed, redeem completed/);

    // Running the same command again pays nothing twice: the same requestId, the same withdrawal.
    const again = await run(args);
    expect(JSON.parse(again.stdout).id).toBe(withdrawal.id);
    const all = await json<{ id: string }[]>(["withdrawals", "list", wallet.id]);
    expect(all.map((w) => w.id)).toEqual([withdrawal.id]);

    const shown = await run(["withdrawals", "show", wallet.id, withdrawal.id]);
    expect(shown.stdout).toMatch(/instant\s+\$400\.00\s+completed/);
  });

  test("withdraw --wait exits 1 with the failure reason when a leg fails", async () => {
    const wallet = await newWallet();
    await fund(wallet, 1000);
    const fault = await t.api("POST", "/_sandbox/faults/withdrawal-leg", {
      body: { walletId: wallet.id, legKey: "redeem", reason: "redemption window closed" },
    });
    expect(fault.status).toBe(201);
    const waiting = run(waitingWithdrawal(wallet.id, 700));
    for (;;) {
      const list = await t.api("GET", `/v2/portfolio-wallets/${wallet.id}/withdrawals`);
      if (list.body.data.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await advance(90_000);
    const result = await waiting;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/failed: .*redemption window closed/);
  });

  test("yield over a period, globally and per wallet", async () => {
    const wallet = await newWallet();
    await fund(wallet, 500);
    await advance(86_400);
    const metrics = await json<{ global: { generated: number }; portfolioWallets: Record<string, unknown> }>([
      "yield",
      "--wallet",
      wallet.id,
    ]);
    expect(metrics.global.generated).toBeGreaterThan(0);
    expect(Object.keys(metrics.portfolioWallets)).toEqual([wallet.id]);
    const human = await run(["yield", "--wallet", wallet.id, "--start", "2020-01-01T00:00:00Z"]);
    expect(human.stdout).toMatch(/all wallets/);
  });
});

describe("approve and reject", () => {
  async function pendingStrategyUpdate() {
    const wallet = await newWallet();
    const update = await t.api("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
      body: { requestId: randomUUID(), positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }] },
    });
    expect(update.body.status).toBe("pending_approval");
    return update.body.signingActivityId as string;
  }

  async function approverEnv() {
    const keys = generateTurnkeyApiKeyPair();
    const registered = await t.api("POST", "/_sandbox/signing/api-keys", {
      body: { publicKey: keys.apiPublicKey, userName: `cli-${randomUUID()}` },
    });
    expect(registered.status).toBe(201);
    return {
      TURNKEY_API_BASE_URL: t.url,
      TURNKEY_ORGANIZATION_ID: ORG,
      TURNKEY_API_PUBLIC_KEY: keys.apiPublicKey,
      TURNKEY_API_PRIVATE_KEY: keys.apiPrivateKey,
    };
  }

  test("approve completes a pending strategy update, and never prints the key", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const activityId = await pendingStrategyUpdate();
    const keys = await approverEnv();
    const result = await run(["approve", activityId], keys);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/outcome:\s+completed/);
    expect(result.stdout).toMatch(/Approved/);
    expect(result.stdout + result.stderr).not.toContain(keys.TURNKEY_API_PRIVATE_KEY);
  });

  test("with two approvals required, one approval reports that consensus is still needed (exit 0)", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 2 } });
    const activityId = await pendingStrategyUpdate();
    const outcome = await json<{ kind: string; meaning: string }>(
      ["approve", activityId],
      await approverEnv(),
    );
    expect(outcome.kind).toBe("consensus_needed");
    expect(outcome.meaning).toMatch(/needs more approvals/);
  });

  test("reject fails the pending operation; approving it afterwards exits 1", async () => {
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const activityId = await pendingStrategyUpdate();
    const keys = await approverEnv();
    const rejected = await run(["reject", activityId], keys);
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toMatch(/outcome:\s+rejected/);
    const late = await run(["approve", activityId], keys);
    expect(late.code).toBe(1);
    expect(late.stdout).toMatch(/rejected/);
  });

  test("without approver settings, or for an unknown activity: exit 1 saying what to do", async () => {
    const unconfigured = await run(["approve", randomUUID()]);
    expect(unconfigured.code).toBe(1);
    expect(unconfigured.stderr).toMatch(/no Turnkey approver is configured/);
    const unknown = await run(["approve", randomUUID()], await approverEnv());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/has no activity .* Check the signingActivityId/);
  });
});

describe("report against the service", () => {
  const deleting = (walletId: string) =>
    previewOf([step.walletDelete("treasury", { tbills: 6000, syrupUsdc: 4000 }, walletId)]);
  const report = (preview: string) =>
    portfolioWallet(["report", "--format", "json"], { cwd: cwd(), env: env(), input: preview });

  test("reads the balance of a wallet the preview deletes; a wallet the service does not know has none", async () => {
    const wallet = await newWallet();
    await fund(wallet, 1000);
    const funded = await report(deleting(wallet.id));
    expect(funded.code, funded.stderr).toBe(0);
    expect(funded.stdout).toMatch(/"kind": "delete-refused"[^}]*the wallet holds \$1,000\.\d+/);
    const unknown = await report(deleting(randomUUID()));
    expect(unknown.code, unknown.stderr).toBe(0);
    expect(unknown.stdout).toMatch(/balance not checked for this report/);
  });

  test("an error reading that balance, other than not found, is said: the report is not made as if the wallet were empty", async () => {
    const wallet = await newWallet();
    // The report reads wallets with the list endpoint's pages (cli/commands/report.ts).
    const armed = await t.api("POST", "/_sandbox/faults", {
      body: {
        method: "GET",
        path: "/v2/portfolio-wallets",
        times: 10,
        kind: "status",
        status: 500,
      },
    });
    expect(armed.status).toBe(201);
    try {
      const result = await report(deleting(wallet.id));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/500/);
    } finally {
      await t.api("DELETE", "/_sandbox/faults");
    }
  });
});
