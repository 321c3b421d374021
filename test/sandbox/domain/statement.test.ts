import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PortfolioWalletClient } from "../../../sdk/nodejs/client/index.ts";
import { usdToMicros, type Statement } from "../../../sdk/nodejs/contract/index.ts";
import { ETHEREUM_PAYOUT } from "../../support/sandboxAccess.ts";
import { TOKEN, TWO_SOURCES, startTestSandbox, type TestSandbox } from "../helpers.ts";

/**
 * A statement against the sandbox's own books (issue 58, "done when"): its totals equal the
 * wallet's yield metrics and its ledger for the same period, to the micro, with movements before,
 * inside and after the period (deposits, a two-leg withdrawal, one whose leg failed and came back,
 * a reweight, accrual over advanced time). The clock stands still between advances, so each balance read is the balance at an instant.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestSandbox;
let client: PortfolioWalletClient;

interface LedgerRow {
  kind: string;
  amountMicros: number;
  refId: string | null;
  at: string;
}

/** What the scenario saw as it went: the period, and the wallet's balance read at each end. */
const seen = {
  walletId: "",
  createdAt: "",
  from: "",
  to: "",
  balanceAtFrom: 0n,
  balanceAtTo: 0n,
  depositInPeriod: "",
  withdrawalInPeriod: "",
  returnedInPeriod: "",
};

const now = async (): Promise<string> => (await t.api("GET", "/_sandbox/clock")).body.now as string;
const advance = async (ms: number) =>
  expect((await t.api("POST", "/_sandbox/clock/advance", { body: { ms } })).status).toBe(200);
const balanceNow = async () => usdToMicros((await client.wallets.retrieve(seen.walletId)).totalBalanceUsd);

async function deposit(amount: number): Promise<string> {
  const wallet = await client.wallets.retrieve(seen.walletId);
  const answer = await t.api("POST", "/_sandbox/deposits", {
    body: {
      chain: "ethereum",
      address: wallet.depositAddresses["ethereum"]!.address,
      amount,
      txHash: `0x${randomUUID().replaceAll("-", "")}`,
    },
  });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

async function withdraw(amount: number): Promise<string> {
  const withdrawal = await client.withdrawals.create(seen.walletId, {
    requestId: randomUUID(),
    withdrawalAmount: amount,
    ...ETHEREUM_PAYOUT,
  });
  return withdrawal.id;
}

/** The wallet's ledger entries (the admin API's audit of every movement), oldest first. */
async function ledger(): Promise<LedgerRow[]> {
  const answer = await t.api("GET", `/_sandbox/ledger/entries?walletId=${seen.walletId}&limit=1000`);
  expect(answer.status).toBe(200);
  return (answer.body.data as LedgerRow[]).reverse();
}

/**
 * Where a statement disagrees with the ledger and the yield metrics of its own period: each total
 * against the ledger's entries in (from, to], the yield against the service's figure, the movements
 * against the totals, and opening + movements against closing. Empty when it reconciles.
 */
async function differences(statement: Statement): Promise<string[]> {
  const fromMs = Date.parse(statement.period.from);
  const toMs = Date.parse(statement.period.to);
  const inPeriod = (await ledger()).filter((e) => Date.parse(e.at) > fromMs && Date.parse(e.at) <= toMs);
  const ledgerSum = (kind: string) =>
    inPeriod.filter((e) => e.kind === kind).reduce((sum, e) => sum + BigInt(e.amountMicros), 0n);
  const metrics = await client.yieldMetrics.retrieve({
    periodStartIso: statement.period.from,
    periodEndIso: statement.period.to,
    portfolioWalletIds: [statement.walletId],
  });
  const movementSum = (kind: string) =>
    statement.movements.filter((m) => m.kind === kind).reduce((sum, m) => sum + BigInt(m.amountMicros), 0n);
  const expected: [string, bigint, bigint][] = [
    ["deposits vs ledger deposit_detected", BigInt(statement.depositsMicros), ledgerSum("deposit_detected")],
    [
      "withdrawals vs ledger withdrawal_debited",
      BigInt(statement.withdrawalsMicros),
      ledgerSum("withdrawal_debited"),
    ],
    ["payouts vs ledger payout_completed", BigInt(statement.payoutsMicros), ledgerSum("payout_completed")],
    ["returned vs ledger payout_returned", BigInt(statement.returnedMicros), ledgerSum("payout_returned")],
    [
      "yield vs yield metrics generated",
      BigInt(statement.yieldMicros),
      usdToMicros(metrics.portfolioWallets[statement.walletId]!.generated),
    ],
    ["deposits vs its movements", BigInt(statement.depositsMicros), movementSum("deposit")],
    ["withdrawals vs its movements", BigInt(statement.withdrawalsMicros), movementSum("withdrawal")],
    ["payouts vs its movements", BigInt(statement.payoutsMicros), movementSum("payout")],
    [
      "closing vs opening + balance changes",
      BigInt(statement.closingBalanceMicros),
      BigInt(statement.openingBalanceMicros) +
        statement.movements.reduce((sum, m) => sum + BigInt(m.balanceChangeMicros), 0n),
    ],
  ];
  return expected
    .filter(([, got, want]) => got !== want)
    .map(([what, got, want]) => `${what}: ${got} ≠ ${want}`);
}

beforeAll(async () => {
  t = await startTestSandbox({ manualClock: true, depositProcessingDelayMs: HOUR, rebalanceDelayMs: HOUR });
  client = new PortfolioWalletClient({ baseUrl: t.url, apiToken: TOKEN });
  const wallet = await client.wallets.create({
    requestId: randomUUID(),
    positions: TWO_SOURCES,
    label: 'Ops, "main" reserve',
  });
  seen.walletId = wallet.id;
  seen.createdAt = wallet.createdAt;
  // Before the period: a deposit, and ten days of yield.
  await deposit(10_000);
  await advance(HOUR);
  await advance(10 * DAY);
  seen.from = await now();
  seen.balanceAtFrom = await balanceNow();
  // Inside it: a deposit, a reweight, accrual, and a withdrawal paid in two legs (instant, then redeem).
  await advance(DAY);
  seen.depositInPeriod = await deposit(2_500.123457);
  await advance(HOUR);
  await client.wallets.updateStrategy(seen.walletId, {
    requestId: randomUUID(),
    positions: [
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "syrupUsdc", targetWeightBps: 5000 },
    ],
  });
  await advance(HOUR);
  await advance(3 * DAY);
  // More than syrupUsdc (instant) holds, so the rest is redeemed from tbills over 24 hours.
  seen.withdrawalInPeriod = await withdraw(8_000.5);
  await advance(2 * DAY);
  const paid = await client.withdrawals.retrieve(seen.walletId, seen.withdrawalInPeriod);
  expect(paid.status).toBe("completed");
  expect(paid.payouts?.map((p) => p.legKey).sort()).toEqual(["instant", "redeem"]);
  // A withdrawal whose redeem leg fails: its money comes back to the wallet, inside the period.
  const planned = await t.api("POST", "/_sandbox/faults/withdrawal-leg", {
    body: { walletId: seen.walletId },
  });
  expect(planned.status).toBe(201);
  seen.returnedInPeriod = await withdraw(1_000);
  await advance(2 * DAY);
  expect((await client.withdrawals.retrieve(seen.walletId, seen.returnedInPeriod)).status).toBe("failed");
  await advance(DAY);
  seen.to = await now();
  seen.balanceAtTo = await balanceNow();
  // After it: a deposit and a withdrawal that the statement must leave out.
  await advance(HOUR);
  await deposit(700);
  await advance(HOUR);
  await withdraw(150);
  await advance(5 * DAY);
}, 60_000);
afterAll(async () => {
  await client.close();
  await t.close();
});

describe("a wallet's statement (client.statements.retrieve, the CLI's and the console's computation)", () => {
  test("equals the ledger and the yield metrics of its period to the micro, and the balances read at its ends", async () => {
    const statement = await client.statements.retrieve(seen.walletId, { from: seen.from, to: seen.to });
    expect(await differences(statement)).toEqual([]);
    // Each end falls inside an accrual the ledger booked as one entry (it grows until a day is
    // over), whose yield the metrics spread pro rata by time; the balance read at that instant
    // had its yield rounded down to the micro instead (docs/spec-gaps.md, "Statements").
    const microsFrom = (micros: string, read: bigint) => BigInt(micros) - read;
    expect([-1n, 0n, 1n]).toContain(microsFrom(statement.openingBalanceMicros, seen.balanceAtFrom));
    expect([-1n, 0n, 1n]).toContain(microsFrom(statement.closingBalanceMicros, seen.balanceAtTo));
    expect(statement.depositsMicros).toBe("2500123457");
    expect(statement.withdrawalsMicros).toBe("9000500000");
    expect(statement.returnedMicros).toBe("1000000000");
    expect(statement.payoutsMicros).toBe("8000500000");
    expect(BigInt(statement.yieldMicros)).toBeGreaterThan(0n);
    expect(statement.movements.map((m) => [m.kind, m.id, m.legKey])).toEqual([
      ["deposit", seen.depositInPeriod, null],
      ["withdrawal", seen.withdrawalInPeriod, "instant"],
      ["withdrawal", seen.withdrawalInPeriod, "redeem"],
      ["payout", seen.withdrawalInPeriod, "instant"],
      ["payout", seen.withdrawalInPeriod, "redeem"],
      ["withdrawal", seen.returnedInPeriod, "redeem"],
      ["returned", seen.returnedInPeriod, "redeem"],
      ["yield", seen.walletId, null],
    ]);
  });

  test("over the wallet's life: opens at zero and closes at the balance the wallet and the ledger audit hold now", async () => {
    const end = await now();
    const statement = await client.statements.retrieve(seen.walletId, {
      from: new Date(Date.parse(seen.createdAt) - 1).toISOString(),
      to: end,
    });
    expect(await differences(statement)).toEqual([]);
    const audit = (await t.api("GET", "/_sandbox/ledger")).body.wallets[seen.walletId];
    expect(statement.openingBalanceMicros).toBe("0");
    expect(BigInt(statement.closingBalanceMicros)).toBe(await balanceNow());
    expect(BigInt(statement.closingBalanceMicros)).toBe(usdToMicros(audit.balanceUsd));
    expect(BigInt(statement.depositsMicros)).toBe(usdToMicros(audit.depositsUsd));
    expect(BigInt(statement.payoutsMicros)).toBe(usdToMicros(audit.paidOutUsd));
    expect(BigInt(statement.yieldMicros)).toBe(usdToMicros(audit.yieldGeneratedUsd));
  });

  test("the check can fail: a micro more, or a movement left out, is found", async () => {
    const statement = await client.statements.retrieve(seen.walletId, { from: seen.from, to: seen.to });
    const aMicroMore = { ...statement, depositsMicros: (BigInt(statement.depositsMicros) + 1n).toString() };
    expect(await differences(aMicroMore)).toEqual([
      "deposits vs ledger deposit_detected: 2500123458 ≠ 2500123457",
      "deposits vs its movements: 2500123458 ≠ 2500123457",
    ]);
    const redeemLeftOut = {
      ...statement,
      movements: statement.movements.filter((m) => !(m.kind === "withdrawal" && m.legKey === "redeem")),
    };
    const found = await differences(redeemLeftOut);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^withdrawals vs its movements/);
    expect(found[1]).toMatch(/^closing vs opening \+ balance changes/);
  });

  test("a period that ends before it starts, or a date that is none, is refused naming its field before any request", async () => {
    await expect(
      client.statements.retrieve(seen.walletId, { from: seen.to, to: seen.from }),
    ).rejects.toMatchObject({
      name: "StatementError",
      field: "to",
    });
    await expect(
      client.statements.retrieve(seen.walletId, { from: seen.from, to: seen.from }),
    ).rejects.toMatchObject({
      field: "to",
    });
    await expect(
      client.statements.retrieve(seen.walletId, { from: "yesterday", to: seen.to }),
    ).rejects.toMatchObject({
      field: "from",
    });
  });
});
