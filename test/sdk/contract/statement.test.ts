import { describe, expect, test } from "vitest";
import {
  StatementPeriodSchema,
  StatementSchema,
  csvField,
  statementCsv,
  walletStatement,
  type Deposit,
  type StatementInputs,
  type Withdrawal,
} from "../../../sdk/nodejs/contract/index.ts";

const WALLET = "6f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70";
const DEPOSIT = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const WITHDRAWAL = "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e";

const deposit = (createdAt: string, amountUsd: number, status = "completed"): Deposit => ({
  id: DEPOSIT,
  portfolioWalletId: WALLET,
  chain: "ethereum",
  address: "0xabc",
  amountUsd,
  txHash: "0xfeed",
  status,
  legStatuses: {},
  createdAt,
  updatedAt: createdAt,
});

const payout = (legKey: string, amount: number, times: Record<string, string | null>) => ({
  legKey,
  amount,
  token: "usdc",
  chain: "ethereum",
  destinationAddress: "0xdead",
  status: times["paidAt"] ? "completed" : "failed",
  ...times,
});

const withdrawal = (payouts: ReturnType<typeof payout>[]): Withdrawal => ({
  id: WITHDRAWAL,
  requestId: WITHDRAWAL,
  portfolioWalletId: WALLET,
  status: "failed",
  withdrawalAmount: 0,
  destinationToken: "usdc",
  destinationChain: "ethereum",
  destinationAddress: "0xdead",
  createdAt: "2026-11-10T00:00:00.000Z",
  updatedAt: "2026-11-10T00:00:00.000Z",
  payouts,
});

const inputs = (overrides: Partial<StatementInputs> = {}): StatementInputs => ({
  wallet: { id: WALLET, label: 'Ops, "main"' },
  period: { from: "2026-11-01T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" },
  deposits: [deposit("2026-10-01T00:00:00.000Z", 1000), deposit("2026-11-05T00:00:00.000Z", 0.1)],
  withdrawals: [
    withdrawal([
      payout("instant", 100.2, { debitedAt: "2026-11-10T00:00:00.000Z", paidAt: "2026-11-10T00:00:00.000Z" }),
      payout("redeem", 50, { debitedAt: "2026-11-10T00:00:00.000Z", returnedAt: "2026-11-11T00:00:00.000Z" }),
    ]),
  ],
  yieldInPeriod: { generated: 0.3, withdrawn: 0, accruedDelta: 0.3 },
  yieldThroughEnd: { generated: 1.7, withdrawn: 0, accruedDelta: 1.7 },
  ...overrides,
});

describe("walletStatement", () => {
  test("adds up to the micro: 0.1 + 0.2 is no float's 0.30000000000000004", () => {
    const statement = walletStatement(inputs());
    expect(StatementSchema.parse(statement)).toEqual(statement);
    expect(statement).toMatchObject({
      depositsMicros: "100000",
      withdrawalsMicros: "150200000",
      returnedMicros: "50000000",
      payoutsMicros: "100200000",
      yieldMicros: "300000",
      // 1000 + 0.1 − 150.2 + 50 + 1.7
      closingBalanceMicros: "901600000",
      // closing − 0.1 + 150.2 − 50 − 0.3
      openingBalanceMicros: "1001400000",
    });
    expect(statement.movements.map((m) => [m.kind, m.legKey, m.balanceChangeMicros])).toEqual([
      ["deposit", null, "100000"],
      ["withdrawal", "instant", "-100200000"],
      ["withdrawal", "redeem", "-50000000"],
      ["payout", "instant", "0"],
      ["returned", "redeem", "50000000"],
      ["yield", null, "300000"],
    ]);
  });

  test("a failed deposit and movements after the period never count", () => {
    const statement = walletStatement(
      inputs({
        deposits: [deposit("2026-11-05T00:00:00.000Z", 5, "failed"), deposit("2026-12-02T00:00:00.000Z", 7)],
        withdrawals: [],
        yieldThroughEnd: { generated: 0.3, withdrawn: 0, accruedDelta: 0.3 },
      }),
    );
    expect(statement).toMatchObject({
      depositsMicros: "0",
      openingBalanceMicros: "0",
      closingBalanceMicros: "300000",
    });
  });

  test("a payout the service does not date cannot be placed in a period: said, not guessed", () => {
    const undated = withdrawal([payout("instant", 1, { paidAt: "2026-11-10T00:00:00.000Z" })]);
    expect(() => walletStatement(inputs({ withdrawals: [undated] }))).toThrow(/carries no debitedAt/);
  });

  test("a period is (from, to]: a movement at from belongs to the period before, one at to to this one", () => {
    const at = (from: string, to: string) =>
      walletStatement(inputs({ period: { from, to }, withdrawals: [] })).depositsMicros;
    expect(at("2026-11-05T00:00:00.000Z", "2026-11-06T00:00:00.000Z")).toBe("0");
    expect(at("2026-11-04T00:00:00.000Z", "2026-11-05T00:00:00.000Z")).toBe("100000");
  });

  test("a period refused names its field", () => {
    const problems = (from: string, to: string) =>
      StatementPeriodSchema.safeParse({ from, to }).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(problems("2026-12-01T00:00:00Z", "2026-11-01T00:00:00Z")).toEqual([
      ["to", "must be after from (2026-12-01T00:00:00Z): a period ends after it starts"],
    ]);
    expect(problems("2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z")?.[0]?.[0]).toBe("to");
    expect(problems("1 November", "2026-11-01T00:00:00Z")?.[0]?.[0]).toBe("from");
    expect(() => walletStatement(inputs({ period: { from: "x", to: "2026-11-01T00:00:00Z" } }))).toThrow(
      /^from /,
    );
  });
});

describe("statementCsv", () => {
  test("quotes what RFC 4180 needs quoted and keeps a label from running as a formula", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("Ops, main")).toBe('"Ops, main"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField(" padded")).toBe('" padded"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-150.200000")).toBe("-150.200000");
  });

  test("summary rows then movements, amounts to the micro, lines ending in CRLF", () => {
    const lines = statementCsv(walletStatement(inputs())).split("\r\n");
    expect(lines[0]).toBe("record,time,kind,id,leg,amount_usd,balance_change_usd,related");
    expect(lines[1]).toBe(
      `summary,2026-11-01T00:00:00.000Z,opening_balance,${WALLET},,1001.400000,,"Ops, ""main"""`,
    );
    expect(lines[7]).toBe(
      `summary,2026-12-01T00:00:00.000Z,closing_balance,${WALLET},,901.600000,,"Ops, ""main"""`,
    );
    expect(lines[8]).toBe(
      `movement,2026-11-05T00:00:00.000Z,deposit,${DEPOSIT},,0.100000,0.100000,ethereum transaction 0xfeed`,
    );
    expect(lines[9]).toBe(
      `movement,2026-11-10T00:00:00.000Z,withdrawal,${WITHDRAWAL},instant,100.200000,-100.200000,usdc to 0xdead on ethereum`,
    );
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(8 + 6 + 1);
  });
});
