import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createManualClock } from "../../../sandbox/index.ts";
import { completeCatalog, DEFAULT_CATALOG } from "../../../sandbox/domain/catalog.ts";
import { DATABASE_FILE } from "../../../sandbox/store/db.ts";
import { YIELD_NUMERATOR_DENOMINATOR } from "../../../sandbox/domain/money/arithmetic/sourceAccrualSums.ts";
import { organizationYieldNumeratorAt } from "../../../sandbox/domain/money/organizationYield.ts";
import { rebuildSourceAccruals } from "../../../sandbox/store/sourceAccrualStore.ts";
import { ORG } from "../helpers.ts";
import {
  DAY_MS,
  expectGlobalGenerated,
  fundedWallet,
  HOUR_MS,
  micros,
  PROPERTY_ALLOCATIONS as ALLOCATIONS,
  startMoneySandbox,
  withdrawBody,
  type MoneySandbox,
} from "../moneyHelpers.ts";

// The organization's global yield comes from running sums per yield source, kept as money moves
// (sandbox/store/sourceAccrualStore.ts), never from its wallets. Over thousands of deposits,
// withdrawals, rebalances and rate changes: global − Σ wallets stays in [0, one micro per position
// holding money × its growth), periods add up exactly, and the sums kept step by step are the
// ones built from the wallets at the end (no drift: less than a millionth of a micro apart).

const SOURCES = ["tbills", "resolvRlp", "syrupUsdc"];
const MAX_RATE_BPS = 3000;
const WALLETS = ALLOCATIONS.length * 2;
const MOVEMENTS = 1500;
const CHECK_EVERY = 150;

type Movement =
  | { kind: "deposit"; wallet: number; amountMicros: number }
  | { kind: "advance"; ms: number }
  | { kind: "withdraw"; wallet: number; shareBps: number }
  | { kind: "rebalance"; wallet: number; allocation: number }
  | { kind: "rate"; source: number; bps: number };

const walletIndex = fc.integer({ min: 0, max: WALLETS - 1 });
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
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      ms: fc.oneof(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 6 * HOUR_MS })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("withdraw" as const),
      wallet: walletIndex,
      shareBps: fc.integer({ min: 1, max: 10_000 }),
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
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("rate" as const),
      source: fc.integer({ min: 0, max: SOURCES.length - 1 }),
      bps: fc.integer({ min: 0, max: MAX_RATE_BPS }),
    }),
  },
);

async function ok(m: MoneySandbox, method: string, path: string, body?: unknown) {
  const res = await m.t.api(method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function move(m: MoneySandbox, ids: string[], step: Movement, index: number): Promise<void> {
  const requestId = `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const id = "wallet" in step ? (ids[step.wallet] as string) : "";
  switch (step.kind) {
    case "deposit": {
      const wallet = await ok(m, "GET", `/v2/portfolio-wallets/${id}`);
      await ok(m, "POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: step.amountMicros / 1e6,
        txHash: `0x${index.toString(16).padStart(64, "0")}`,
      });
      return;
    }
    case "advance":
      return m.advance(step.ms);
    case "withdraw": {
      const wallet = await ok(m, "GET", `/v2/portfolio-wallets/${id}`);
      const amount = Math.floor((micros(wallet.instantWithdrawableUsd ?? 0) * step.shareBps) / 10_000);
      if (amount > 0) {
        await ok(
          m,
          "POST",
          `/v2/portfolio-wallets/${id}/withdraw`,
          withdrawBody(amount / 1e6, { requestId }),
        );
      }
      return;
    }
    case "rebalance":
      // 409 while the wallet's previous change is still under way: the movement is then a no-op.
      await m.t.api("PATCH", `/v2/portfolio-wallets/${id}/strategy`, {
        body: { requestId, positions: ALLOCATIONS[step.allocation] },
      });
      return;
    case "rate":
      await ok(m, "PUT", `/_sandbox/catalog/${SOURCES[step.source]}/rate`, { currentRateBps: step.bps });
      return;
  }
}

/** Global against the wallets' sum under the invariant, and periods that add up, now. */
async function checkFigures(m: MoneySandbox, ids: string[], startMs: number): Promise<void> {
  const metrics = await ok(m, "POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: ids });
  let walletsGenerated = 0;
  let walletsWithdrawn = 0;
  for (const id of ids) {
    walletsGenerated += micros(metrics.portfolioWallets[id].generated);
    walletsWithdrawn += micros(metrics.portfolioWallets[id].withdrawn);
  }
  let holdingMoney = 0;
  for (const id of ids) {
    const wallet = await ok(m, "GET", `/v2/portfolio-wallets/${id}`);
    holdingMoney += (wallet.positions as { valueUsd: number }[]).filter((p) => p.valueUsd > 0).length;
  }
  // Growth since a settlement is at most the highest rate over the whole run (compounded: × 1.1).
  const nowMs = m.clock.now().getTime();
  const growth = ((MAX_RATE_BPS / 10_000) * (nowMs - startMs) * 1.1) / (365 * DAY_MS);
  expectGlobalGenerated(micros(metrics.global.generated), walletsGenerated, holdingMoney, growth);
  expect(micros(metrics.global.withdrawn)).toBe(walletsWithdrawn);

  // Yield generated by a time, rounded once: consecutive periods add up to the whole exactly.
  const at = (fraction: number) => new Date(startMs + Math.floor((nowMs - startMs) * fraction)).toISOString();
  const generated = async (periodStartIso: string, periodEndIso: string) =>
    micros(
      (await ok(m, "POST", "/v2/portfolio-wallets/yield", { periodStartIso, periodEndIso })).global.generated,
    );
  const [first, second, whole] = [
    await generated(at(0), at(0.37)),
    await generated(at(0.37), at(1)),
    await generated(at(0), at(1)),
  ];
  expect(first + second).toBe(whole);
  expect(first).toBeGreaterThanOrEqual(0);
  expect(second).toBeGreaterThanOrEqual(0);
}

describe("global yield from running sums per organization and source", () => {
  test("over thousands of movements and rate changes, global keeps to the wallets' sum and the sums do not drift", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(movement, { minLength: MOVEMENTS, maxLength: MOVEMENTS }),
        async (movements) => {
          const dataDir = mkdtempSync(join(tmpdir(), "sandbox-yield-sums-"));
          try {
            const m = await startMoneySandbox({
              dataDir,
              rebalanceDelayMs: 500,
              policies: { [ORG]: { withdrawalApprovals: 0 } },
            });
            const startMs = m.clock.now().getTime();
            let nowMs = startMs;
            try {
              const ids: string[] = [];
              for (let index = 0; index < WALLETS; index += 1) {
                const positions = ALLOCATIONS[index % ALLOCATIONS.length];
                ids.push(
                  (
                    await ok(m, "POST", "/v2/portfolio-wallets", {
                      requestId: crypto.randomUUID(),
                      positions,
                    })
                  ).id,
                );
              }
              for (const [index, step] of movements.entries()) {
                await move(m, ids, step, index);
                if ((index + 1) % CHECK_EVERY === 0) await checkFigures(m, ids, startMs);
              }
              expect(movements.filter((step) => step.kind === "rate").length).toBeGreaterThan(MOVEMENTS / 10);
              await m.advance(8 * DAY_MS);
              await checkFigures(m, ids, startMs);
              nowMs = m.clock.now().getTime();
            } finally {
              await m.close();
            }

            // The sums kept movement by movement against the same sums built from the wallets now.
            const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
            try {
              const kept = organizationYieldNumeratorAt(db, ORG, nowMs);
              db.exec("BEGIN");
              rebuildSourceAccruals(db, ORG);
              const built = organizationYieldNumeratorAt(db, ORG, nowMs);
              db.exec("ROLLBACK");
              expect(kept).toBeGreaterThan(0n);
              // Rolls round down once per source, never per position: kept ≥ built, by less than 1e-6 micro.
              expect(kept - built >= 0n, `kept ${kept} built ${built}`).toBe(true);
              expect(
                (kept - built) * 1_000_000n < YIELD_NUMERATOR_DENOMINATOR,
                `kept ${kept} built ${built}`,
              ).toBe(true);
            } finally {
              db.close();
            }
          } finally {
            rmSync(dataDir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 2, endOnFailure: true },
    );
  }, 300_000);
});

describe("a rate recorded with a time before the organization's last movement", () => {
  test("a catalog loaded with an older rateUpdatedAt: the sums are built again, global keeps to the wallets", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "sandbox-yield-late-rate-"));
    const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
    try {
      // Wallet a settles on day 0; wallet b's deposit on day 2 writes the organization's sums then.
      let m = await startMoneySandbox({ dataDir, clock });
      const a = await fundedWallet(m, 1_000_000, [{ positionKey: "tbills", targetWeightBps: 10000 }]);
      await m.advance(2 * DAY_MS);
      const b = await fundedWallet(m, 1000, [{ positionKey: "tbills", targetWeightBps: 10000 }]);
      await m.close();

      // Restarted with tbills at 50% since day 1: a has earned it since day 1, not since day 2.
      const catalog = completeCatalog(DEFAULT_CATALOG, "2026-03-01T00:00:00.000Z").map((source) =>
        source.positionKey === "tbills"
          ? { ...source, currentRateBps: 5000, rateUpdatedAt: "2026-03-02T00:00:00.000Z" }
          : source,
      );
      m = await startMoneySandbox({ dataDir, clock, catalog });
      try {
        await m.advance(DAY_MS);
        const metrics = await ok(m, "POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: [a, b] });
        const wallets =
          micros(metrics.portfolioWallets[a].generated) + micros(metrics.portfolioWallets[b].generated);
        // About two days at 50% on a million, and a day at 4.3% before them.
        expect(wallets).toBeGreaterThan(micros(2700));
        expectGlobalGenerated(micros(metrics.global.generated), wallets, 2);
      } finally {
        await m.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
