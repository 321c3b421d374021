import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ETHEREUM_PAYOUT } from "../support/sandboxAccess.ts";
import { TOKEN, TWO_SOURCES, startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";

/**
 * `portfolio-wallet statement` as a user runs it, against an in-process sandbox whose clock stands
 * still: CSV and JSON, stdout and a file, the same statement the console's API answers, and each
 * bad period refused naming its flag (docs/cli.md "statement").
 */

let t: TestSandbox;
const cwd = useCliDirectory();
let walletId = "";
let from = "";
let to = "";

const run = (args: string[]) =>
  portfolioWallet(args, {
    cwd: cwd(),
    env: { PORTFOLIO_WALLET_BASE_URL: t.url, PORTFOLIO_WALLET_API_TOKEN: TOKEN },
  });
const clockNow = async () => (await t.api("GET", "/_sandbox/clock")).body.now as string;
const advance = async (ms: number) =>
  expect((await t.api("POST", "/_sandbox/clock/advance", { body: { ms } })).status).toBe(200);

beforeAll(async () => {
  t = await startTestSandbox({ manualClock: true });
  const wallet = await t.api("POST", "/v2/portfolio-wallets", {
    body: { requestId: randomUUID(), positions: TWO_SOURCES, label: 'Treasury, "EU"' },
  });
  walletId = wallet.body.id;
  from = await clockNow();
  await advance(1000);
  const deposit = await t.api("POST", "/_sandbox/deposits", {
    body: {
      chain: "ethereum",
      address: wallet.body.depositAddresses.ethereum.address,
      amount: 1234.56,
      txHash: "0xabc1",
    },
  });
  expect(deposit.status).toBe(201);
  await advance(86_400_000);
  const withdrawal = await t.api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
    body: { requestId: randomUUID(), withdrawalAmount: 100, ...ETHEREUM_PAYOUT },
  });
  expect(withdrawal.status).toBe(201);
  await advance(1000);
  to = await clockNow();
});
afterAll(() => t.close());

describe("portfolio-wallet statement", () => {
  test("CSV on stdout: the summary rows, then each movement, the label quoted", async () => {
    const result = await run(["statement", walletId, "--from", from, "--to", to]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\r\n");
    expect(lines[0]).toBe("record,time,kind,id,leg,amount_usd,balance_change_usd,related");
    expect(lines[1]).toMatch(/^summary,.*,opening_balance,.*,0\.000000,,"Treasury, ""EU"""$/);
    expect(lines[2]).toMatch(/^summary,.*,deposits,.*,1234\.560000,,/);
    expect(lines[3]).toMatch(/^summary,.*,withdrawals,.*,100\.000000,,/);
    expect(lines.filter((line) => line.startsWith("movement,")).map((line) => line.split(",")[2])).toEqual([
      "deposit",
      "withdrawal",
      "payout",
      "yield",
    ]);
  });

  test("--format json to --output is the statement the console's API answers for the same period", async () => {
    const file = path.join(cwd(), "statement.json");
    const result = await run([
      "statement",
      walletId,
      "--from",
      from,
      "--to",
      to,
      "--format",
      "json",
      "--output",
      file,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^wrote the statement of wallet .* to .*statement\.json \(json, 4 movements\)\n$/,
    );
    const console = await t.api(
      "GET",
      `/_console/api/wallets/${walletId}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    );
    expect(console.status).toBe(200);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(console.body);
  });

  test("a bad period is refused naming its flag, exit 2, nothing printed on stdout", async () => {
    const notADate = await run(["statement", walletId, "--from", "last tuesday", "--to", to]);
    expect(notADate.code).toBe(2);
    expect(notADate.stderr).toMatch(
      /option '--from <date-time>' argument 'last tuesday' is invalid\. must be an ISO 8601 date-time/,
    );
    const backwards = await run(["statement", walletId, "--from", to, "--to", from]);
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/option --to must be after from \(.*\): a period ends after it starts/);
    expect(backwards.stdout).toBe("");
    const missing = await run(["statement", walletId, "--from", from]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--to <date-time>' not specified/);
  });

  test("the console's API refuses the same period at its field", async () => {
    const answer = await t.api(
      "GET",
      `/_console/api/wallets/${walletId}/statement?from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toEqual([
      { field: "to", reason: expect.stringMatching(/^must be after from/) },
    ]);
  });
});
