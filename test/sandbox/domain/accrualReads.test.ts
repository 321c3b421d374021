import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ORG } from "../helpers.ts";
import {
  DAY_MS,
  expectGlobalGenerated,
  HOUR_MS,
  micros,
  PROPERTY_ALLOCATIONS as ALLOCATIONS,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../moneyHelpers.ts";

// Reads compute accrual and never write it (sandbox/domain/money/accrual.ts): the same money
// movements on the same clock give the same balances, yield generated and withdrawn, and ledger,
// to the micro, whether the wallets are read after every step, in any order, or only at the end.

const SOURCES = ["tbills", "resolvRlp", "syrupUsdc"];
const START = new Date("2026-03-01T00:00:00.000Z").getTime();
/** A period that straddles accrual entries (from an hour in, for a day and a half). */
const PERIOD = (ids: string[]) => ({
  periodStartIso: new Date(START + HOUR_MS).toISOString(),
  periodEndIso: new Date(START + HOUR_MS + 36 * HOUR_MS).toISOString(),
  portfolioWalletIds: ids,
});

type Movement =
  | { kind: "deposit"; wallet: number; amountMicros: number }
  | { kind: "advance"; ms: number }
  | { kind: "withdraw"; wallet: number; shareBps: number; failRedeem: boolean }
  | { kind: "rebalance"; wallet: number; allocation: number }
  | { kind: "rate"; source: number; bps: number };

type Read =
  | { kind: "wallet"; wallet: number }
  | { kind: "list" | "yield" | "yieldOfWallets" | "yieldOfPeriod" | "audit" | "entries" | "catalog" }
  | { kind: "withdrawals" | "deposits"; wallet: number };

const walletIndex = fc.integer({ min: 0, max: ALLOCATIONS.length - 1 });
const movement: fc.Arbitrary<Movement> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("deposit" as const),
      wallet: walletIndex,
      amountMicros: fc.oneof(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5_000_000_000_000 }),
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 3 * DAY_MS })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      wallet: walletIndex,
      shareBps: fc.integer({ min: 1, max: 10_000 }),
      failRedeem: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rebalance" as const),
      wallet: walletIndex,
      allocation: fc.integer({ min: 0, max: ALLOCATIONS.length - 1 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rate" as const),
      source: fc.integer({ min: 0, max: SOURCES.length - 1 }),
      bps: fc.integer({ min: 0, max: 3000 }),
    }),
  },
);
const read: fc.Arbitrary<Read> = fc.oneof(
  fc.record({ kind: fc.constant("wallet" as const), wallet: walletIndex }),
  fc.record({ kind: fc.constantFrom("withdrawals" as const, "deposits" as const), wallet: walletIndex }),
  fc.record({
    kind: fc.constantFrom(
      "list" as const,
      "yield" as const,
      "yieldOfWallets" as const,
      "yieldOfPeriod" as const,
      "audit" as const,
      "entries" as const,
      "catalog" as const,
    ),
  }),
);

/** Requests that must answer 2xx; the answer's body. */
async function ok(m: MoneySandbox, method: string, path: string, body?: unknown) {
  const res = await m.t.api(method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function doRead(m: MoneySandbox, ids: string[], r: Read): Promise<void> {
  const id = "wallet" in r ? ids[r.wallet] : undefined;
  switch (r.kind) {
    case "wallet":
      return void (await ok(m, "GET", `/v2/portfolio-wallets/${id}`));
    case "withdrawals":
      return void (await ok(m, "GET", `/v2/portfolio-wallets/${id}/withdrawals?pageSize=5`));
    case "deposits":
      return void (await ok(m, "GET", `/v2/portfolio-wallets/${id}/deposits?pageSize=5`));
    case "list":
      return void (await ok(m, "GET", "/v2/portfolio-wallets?pageSize=2"));
    case "yield":
      return void (await ok(m, "POST", "/v2/portfolio-wallets/yield", {}));
    case "yieldOfWallets":
      return void (await ok(m, "POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: ids }));
    case "yieldOfPeriod":
      return void (await ok(m, "POST", "/v2/portfolio-wallets/yield", PERIOD(ids)));
    case "audit":
      return void (await ok(m, "GET", "/_sandbox/ledger"));
    case "entries":
      return void (await ok(m, "GET", "/_sandbox/ledger/entries?limit=10"));
    case "catalog":
      return void (await ok(m, "GET", "/v2/portfolio-wallets/strategies"));
  }
}

/** Applies one movement; what it answered (the same movements must be answered alike). */
async function move(m: MoneySandbox, ids: string[], step: Movement, index: number): Promise<number> {
  // Request ids and transaction hashes derive from the step, so both runs send the same bodies.
  const requestId = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  switch (step.kind) {
    case "deposit": {
      const wallet = await ok(m, "GET", `/v2/portfolio-wallets/${ids[step.wallet]}`);
      const res = await m.t.api("POST", "/_sandbox/deposits", {
        body: {
          chain: "ethereum",
          address: wallet.depositAddresses.ethereum.address,
          amount: step.amountMicros / 1e6,
          txHash: `0x${index.toString(16).padStart(64, "0")}`,
        },
      });
      return res.status;
    }
    case "advance":
      await m.advance(step.ms);
      return 200;
    case "withdraw": {
      const wallet = await ok(m, "GET", `/v2/portfolio-wallets/${ids[step.wallet]}`);
      const amount = Math.floor((micros(wallet.instantWithdrawableUsd ?? 0) * step.shareBps) / 10_000);
      if (step.failRedeem) {
        await ok(m, "POST", "/_sandbox/faults/withdrawal-leg", {
          walletId: ids[step.wallet],
          legKey: "redeem",
        });
      }
      const res = await m.t.api("POST", `/v2/portfolio-wallets/${ids[step.wallet]}/withdraw`, {
        body: withdrawBody(Math.max(amount, 1) / 1e6, { requestId }),
      });
      await ok(m, "DELETE", "/_sandbox/faults");
      return res.status;
    }
    case "rebalance": {
      const res = await m.t.api("PATCH", `/v2/portfolio-wallets/${ids[step.wallet]}/strategy`, {
        body: { requestId, positions: ALLOCATIONS[step.allocation] },
      });
      return res.status;
    }
    case "rate":
      await ok(m, "PUT", `/_sandbox/catalog/${SOURCES[step.source]}/rate`, { currentRateBps: step.bps });
      return 200;
  }
}

/** Everything the runs must agree on, in micros, with wallets named by their index. */
async function snapshot(m: MoneySandbox, ids: string[]) {
  const name = (text: string) =>
    ids.reduce((named, id, index) => named.replaceAll(id, `wallet${index}`), text);
  const wallets = [];
  for (const id of ids) {
    const w = await ok(m, "GET", `/v2/portfolio-wallets/${id}`);
    wallets.push({
      total: micros(w.totalBalanceUsd),
      pending: micros(w.pendingAllocationsUsd),
      positions: w.positions.map((p: { positionKey: string; valueUsd: number }) => [
        p.positionKey,
        micros(p.valueUsd),
      ]),
    });
  }
  const figures = (f: { generated: number; withdrawn: number; accruedDelta: number }) => ({
    generated: micros(f.generated),
    withdrawn: micros(f.withdrawn),
    accruedDelta: micros(f.accruedDelta),
  });
  const lifetime = await ok(m, "POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: ids });
  const period = await ok(m, "POST", "/v2/portfolio-wallets/yield", PERIOD(ids));
  const audit = await ok(m, "GET", "/_sandbox/ledger");
  const entries = await ok(m, "GET", "/_sandbox/ledger/entries?limit=1000");
  return {
    wallets,
    yield: {
      global: figures(lifetime.global),
      wallets: ids.map((id) => figures(lifetime.portfolioWallets[id])),
      period: [figures(period.global), ...ids.map((id) => figures(period.portfolioWallets[id]))],
    },
    audit: JSON.parse(name(JSON.stringify(audit))),
    // Every ledger row but the ids that differ between runs, sorted: work due at one instant is
    // taken in the order of its random ids, which differ between runs too.
    ledger: entries.data
      .map((e: Record<string, unknown>) =>
        name(JSON.stringify({ ...e, seq: undefined, refId: undefined, detail: undefined })),
      )
      .sort(),
  };
}

/** Runs the movements on a fresh sandbox, doing `readsAfter[i]` after movement i. */
async function run(movements: Movement[], readsAfter: Read[][]) {
  const m = await startMoneySandbox({
    rebalanceDelayMs: 500,
    policies: { [ORG]: { withdrawalApprovals: 0 } },
  });
  try {
    const ids: string[] = [];
    for (const [index, positions] of ALLOCATIONS.entries()) {
      const requestId = `00000000-0000-4000-9000-${String(index).padStart(12, "0")}`;
      ids.push((await ok(m, "POST", "/v2/portfolio-wallets", { requestId, positions })).id);
    }
    const answers: number[] = [];
    let reads = 0;
    for (const [index, step] of movements.entries()) {
      answers.push(await move(m, ids, step, index));
      for (const r of readsAfter[index] ?? []) {
        await doRead(m, ids, r);
        reads += 1;
      }
    }
    // Let every deposit, rebalance and payout leg finish, then look.
    await m.advance(8 * DAY_MS);
    return { answers, reads, snapshot: await snapshot(m, ids) };
  } finally {
    await m.close();
  }
}

describe("accrual is computed on reads and written only when money moves", () => {
  test("the same movements and clock, read after every step in any order or only at the end, agree to the micro", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(movement, { minLength: 8, maxLength: 24 }).chain((movements) =>
          fc.tuple(
            fc.constant(movements),
            fc.array(fc.array(read, { minLength: 1, maxLength: 5 }), {
              minLength: movements.length,
              maxLength: movements.length,
            }),
          ),
        ),
        async ([movements, readsAfter]) => {
          const rarely = await run(movements, []);
          const often = await run(movements, readsAfter);
          expect(often.reads).toBeGreaterThanOrEqual(movements.length);
          expect(often.answers).toEqual(rarely.answers);
          expect(often.snapshot).toEqual(rarely.snapshot);

          // Conservation, to the micro, in each run: the audit balances every wallet, and the
          // yield metrics' global figures are the sum of the wallets' and the audit's.
          const { audit, yield: metrics } = rarely.snapshot;
          expect(audit.total.discrepancyMicros).toBe(0);
          for (const wallet of Object.values(audit.wallets) as { discrepancyMicros: number }[])
            expect(wallet.discrepancyMicros).toBe(0);
          // Global is exact and rounded once, each wallet rounds down per position (docs/sandbox.md):
          // global − Σ wallets is in [0, one micro per position holding money × its growth). Rates
          // stay under 30% a year over at most 80 days here: growth under 7%.
          const sum = (key: "generated" | "withdrawn") =>
            metrics.wallets.reduce((total, w) => total + w[key], 0);
          const holdingMoney = rarely.snapshot.wallets.reduce(
            (count, w) => count + w.positions.filter((p: [string, number]) => p[1] > 0).length,
            0,
          );
          expectGlobalGenerated(metrics.global.generated, sum("generated"), holdingMoney, 0.07);
          expect(metrics.global.withdrawn).toBe(sum("withdrawn"));
          expect(sum("generated")).toBe(micros(audit.total.yieldGeneratedUsd));
          expect(metrics.global.withdrawn).toBe(micros(audit.total.yieldWithdrawnUsd));
        },
      ),
      { numRuns: 60 },
    );
  }, 180_000);
});
