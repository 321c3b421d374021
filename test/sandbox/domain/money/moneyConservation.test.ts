import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ORG, uuid } from "../../helpers.ts";
import {
  expectGlobalGenerated,
  PROPERTY_ALLOCATIONS as ALLOCATIONS,
  DAY_MS,
  micros,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../../moneyHelpers.ts";

// Conservation, checked through the public API after a long random sequence of money movements:
//   Σ wallet balances + Σ payouts completed + Σ payouts in flight = Σ deposits + yield generated
// exactly, in micro-units (epsilon 0): every amount the sandbox holds is a whole number of micros.

const CHAINS = ["ethereum", "solana", "base", "arbitrum"];
const SOURCES = ["tbills", "resolvRlp", "syrupUsdc"];

type Action =
  | { kind: "deposit"; wallet: number; amountMicros: number; chain: number }
  | { kind: "replayDeposit" }
  | { kind: "advance"; ms: number }
  | {
      kind: "withdraw";
      wallet: number;
      shareBps: number;
      failLeg: "instant" | "redeem" | null;
      approval: "approve" | "reject" | null;
    }
  | { kind: "rebalance"; wallet: number; allocation: number }
  | { kind: "rate"; source: number; bps: number };

const wallet = fc.integer({ min: 0, max: 2 });
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      wallet,
      chain: fc.integer({ min: 0, max: 3 }),
      amountMicros: fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 5_000_000_000 })),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "replayDeposit" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      ms: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 9 * DAY_MS })),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      wallet,
      shareBps: fc.integer({ min: 1, max: 10_000 }),
      failLeg: fc.constantFrom("instant" as const, "redeem" as const, null, null),
      approval: fc.constantFrom("approve" as const, "reject" as const, null, null),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("rebalance" as const),
      wallet,
      allocation: fc.integer({ min: 0, max: ALLOCATIONS.length - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rate" as const),
      source: fc.integer({ min: 0, max: 2 }),
      bps: fc.integer({ min: 0, max: 3000 }),
    }),
  },
);

interface Figures {
  balances: number;
  deposits: number;
  paid: number;
  inFlight: number;
  generated: number;
  withdrawnYield: number;
  unfinished: number;
}

/** Everything the invariant needs, read through the typed client (admin calls only for the ledger). */
async function figures(m: MoneySandbox, walletIds: string[]): Promise<Figures> {
  const f: Figures = {
    balances: 0,
    deposits: 0,
    paid: 0,
    inFlight: 0,
    generated: 0,
    withdrawnYield: 0,
    unfinished: 0,
  };
  let holdingMoney = 0;
  for await (const w of m.client.wallets.list({ pageSize: 100 })) {
    f.balances += micros(w.totalBalanceUsd);
    holdingMoney += w.positions.filter((p) => p.valueUsd > 0).length;
  }
  for (const id of walletIds) {
    for await (const d of m.client.deposits.list(id, { pageSize: 100 })) f.deposits += micros(d.amountUsd);
    for await (const item of m.client.withdrawals.list(id, { pageSize: 100 })) {
      const w = await m.client.withdrawals.retrieve(id, item.id);
      if (["processing", "partially_completed", "pending_approval"].includes(w.status)) f.unfinished += 1;
      for (const payout of w.payouts ?? []) {
        if (payout.status === "completed") f.paid += micros(payout.amount);
        if (payout.status === "processing") f.inFlight += micros(payout.amount);
      }
    }
  }
  const metrics = await m.client.yieldMetrics.retrieve({ portfolioWalletIds: walletIds });
  // Conservation holds wallet by wallet, with the yield each wallet's balances hold: the wallets'
  // generated figures. Global is exact and rounded once (docs/sandbox.md, "Yield metrics"): at
  // least their sum, less than one micro per position holding money × its growth above it (rates
  // under 30% a year, over at most 548 days of sandbox time here).
  f.generated = Object.values(metrics.portfolioWallets).reduce((sum, w) => sum + micros(w.generated), 0);
  f.withdrawnYield = micros(metrics.global.withdrawn);
  const years = (m.clock.now().getTime() - Date.parse("2026-03-01T00:00:00.000Z")) / (365 * DAY_MS);
  expectGlobalGenerated(micros(metrics.global.generated), f.generated, holdingMoney, 0.3 * years * 1.2);
  return f;
}

async function run(m: MoneySandbox, walletIds: string[], actions: Action[]): Promise<void> {
  let lastDeposit: Record<string, unknown> | null = null;
  for (const a of actions) {
    switch (a.kind) {
      case "deposit": {
        const id = walletIds[a.wallet] ?? "";
        const chain = CHAINS[a.chain] ?? "ethereum";
        const address = (await m.client.wallets.retrieve(id)).depositAddresses[chain]?.address;
        lastDeposit = {
          chain,
          address,
          amount: a.amountMicros / 1e6,
          txHash: `0x${uuid().replaceAll("-", "")}`,
        };
        expect((await m.t.api("POST", "/_sandbox/deposits", { body: lastDeposit })).status).toBe(201);
        break;
      }
      case "replayDeposit":
        if (lastDeposit !== null)
          expect((await m.t.api("POST", "/_sandbox/deposits", { body: lastDeposit })).status).toBe(200);
        break;
      case "advance":
        await m.advance(a.ms);
        break;
      case "withdraw": {
        const id = walletIds[a.wallet] ?? "";
        const held = (await m.client.wallets.retrieve(id)).positions.reduce(
          (sum, p) => sum + micros(p.valueUsd),
          0,
        );
        const amount = Math.floor((held * a.shareBps) / 10_000);
        if (amount === 0) break;
        if (a.failLeg !== null) {
          await m.t.api("POST", "/_sandbox/faults/withdrawal-leg", {
            body: { walletId: id, legKey: a.failLeg },
          });
        }
        if (a.approval !== null)
          await m.t.api("PUT", "/_sandbox/policy", { body: { withdrawalApprovals: 1 } });
        const w = await m.client.withdrawals.create(id, withdrawBody(amount / 1e6));
        if (a.approval !== null) {
          await m.t.api("PUT", "/_sandbox/policy", { body: { withdrawalApprovals: 0 } });
          const decided = await m.t.api(
            "POST",
            `/_sandbox/signing-activities/${w.signingActivityId}/${a.approval}`,
          );
          expect(decided.status).toBe(200);
        }
        // Faults not used by this withdrawal (no such leg) must not leak into the next ones.
        await m.t.api("DELETE", "/_sandbox/faults");
        break;
      }
      case "rebalance": {
        const id = walletIds[a.wallet] ?? "";
        const res = await m.t.api("PATCH", `/v2/portfolio-wallets/${id}/strategy`, {
          body: { requestId: uuid(), positions: ALLOCATIONS[a.allocation] },
        });
        expect([200, 409]).toContain(res.status); // 409: the previous rebalance is still running
        break;
      }
      case "rate":
        await m.t.api("PUT", `/_sandbox/catalog/${SOURCES[a.source]}/rate`, {
          body: { currentRateBps: a.bps },
        });
        break;
    }
    const ledger = await m.t.api("GET", "/_sandbox/ledger");
    expect(ledger.body.total.discrepancyMicros).toBe(0);
  }
}

describe("money conservation", () => {
  test("balances + paid out (+ in flight) = deposits + yield generated, exactly, after any sequence", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 20, maxLength: 60 }), async (actions) => {
        const m = await startMoneySandbox({
          rebalanceDelayMs: 500,
          policies: { [ORG]: { withdrawalApprovals: 0 } },
        });
        try {
          const walletIds: string[] = [];
          for (const positions of ALLOCATIONS.slice(0, 3)) {
            walletIds.push((await m.client.wallets.create({ requestId: uuid(), positions })).id);
          }
          await run(m, walletIds, actions);

          const during = await figures(m, walletIds);
          expect(during.balances + during.paid + during.inFlight).toBe(during.deposits + during.generated);

          // Let every deposit, rebalance and payout leg finish: nothing is left in flight.
          await m.advance(8 * DAY_MS);
          const after = await figures(m, walletIds);
          expect(after.unfinished).toBe(0);
          expect(after.inFlight).toBe(0);
          expect(after.balances + after.paid).toBe(after.deposits + after.generated);
          expect(after.withdrawnYield).toBeGreaterThanOrEqual(0);
          expect(after.withdrawnYield).toBeLessThanOrEqual(after.generated);
        } finally {
          await m.close();
        }
      }),
      { numRuns: 12 },
    );
  });
});
