import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  liquidityBounds,
  microsToUsd,
  moneyImpact,
  stackMoneyImpact,
  type StrategyCatalogEntry,
} from "../../../sdk/nodejs/contract/index.ts";

/**
 * The money impact against a reference written straight from the definitions (docs/cli.md,
 * "Dollars"), with its own arithmetic: rates are drawn as whole hundredths of a bp and processing
 * times from a table of known hours, so the reference needs neither the duration reader nor the
 * split the implementation uses.
 */

const HOURS: Record<string, number> = { PT0H: 0, PT24H: 24, P3D: 72, P7D: 168 };
const KEYS = ["tbills", "syrupUsdc", "resolvRlp", "newSource", "gone"] as const;

function catalogEntry(positionKey: string, rateHundredths: number, time: string): StrategyCatalogEntry {
  return {
    positionKey,
    asset: positionKey,
    strategyType: "tbills",
    maxProcessingTime: time,
    currentRateBps: rateHundredths / 100,
    rateUpdatedAt: "2026-11-28T00:00:00Z",
  };
}

/** Weights over some keys that sum to exactly 10000, each positive. */
const targetArb = fc
  .uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: KEYS.length })
  .chain((keys) =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: 9_999 }), {
        minLength: keys.length - 1,
        maxLength: keys.length - 1,
      })
      .map((cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), 10_000];
        return Object.fromEntries(keys.map((key, index) => [key, points[index + 1]! - points[index]!]));
      }),
  );

/** Positions of a wallet in whole micros, as the service would give them (USD numbers). */
const holdingsArb = fc.array(
  fc.record({
    positionKey: fc.constantFrom(...KEYS),
    micros: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 5_000_000_000n * 1_000_000n })),
  }),
  { maxLength: 5 },
);

/** A catalog listing some of the keys (a key left out is "missing from the catalog"). */
const catalogArb = fc
  .uniqueArray(
    fc.record({
      key: fc.constantFrom(...KEYS),
      rateHundredths: fc.integer({ min: 0, max: 200_000 }),
      time: fc.constantFrom(...Object.keys(HOURS)),
    }),
    { selector: (entry) => entry.key, minLength: 1 },
  )
  .map((entries) => entries.map((e) => catalogEntry(e.key, e.rateHundredths, e.time)));

const abs = (n: bigint) => (n < 0n ? -n : n);

describe("moneyImpact against the definitions", () => {
  test("sums, moves, yields and liquidity are exact to the micro", () => {
    fc.assert(
      fc.property(holdingsArb, targetArb, catalogArb, (holdings, target, catalog) => {
        const wallet = {
          positions: holdings.map((h) => ({ positionKey: h.positionKey, valueUsd: microsToUsd(h.micros) })),
        };
        const impact = moneyImpact(wallet, target, catalog);
        // Reference: the balance and the USD now per source.
        const now = new Map<string, bigint>();
        for (const h of holdings) now.set(h.positionKey, (now.get(h.positionKey) ?? 0n) + h.micros);
        const balance = [...now.values()].reduce((a, b) => a + b, 0n);
        expect(impact.balanceMicros).toBe(balance);
        expect(impact.funded).toBe(balance > 0n);
        const byKey = new Map(impact.sources.map((s) => [s.positionKey, s]));
        // Every source held or targeted is listed, once.
        expect(new Set(byKey.keys())).toEqual(new Set([...now.keys(), ...Object.keys(target)]));
        let afterSum = 0n;
        let increases = 0n;
        let decreases = 0n;
        for (const [key, source] of byKey) {
          expect(source.nowMicros).toBe(now.get(key) ?? 0n);
          // After: within a micro of balance × weight / 10000 (×10000 to stay in integers).
          const exactTimes10000 = balance * BigInt(target[key] ?? 0);
          expect(abs(source.afterMicros * 10_000n - exactTimes10000) < 10_000n).toBe(true);
          if (target[key] === undefined) expect(source.afterMicros).toBe(0n);
          expect(source.deltaMicros).toBe(source.afterMicros - source.nowMicros);
          afterSum += source.afterMicros;
          if (source.deltaMicros > 0n) increases += source.deltaMicros;
          else decreases -= source.deltaMicros;
        }
        expect(afterSum).toBe(balance);
        expect(increases).toBe(decreases);
        expect(impact.movedMicros).toBe(increases);
        // Yield: value × (hundredths / 100) / 10000 per source = value × hundredths / 1e6, rounded.
        const entries = new Map(catalog.map((e) => [e.positionKey, e]));
        const yieldOf = (micros: bigint, key: string) => {
          const entry = entries.get(key);
          if (entry === undefined) return 0n;
          const hundredths = BigInt(Math.round(entry.currentRateBps * 100));
          return (2n * micros * hundredths + 1_000_000n) / 2_000_000n;
        };
        const yieldNow = [...byKey.values()].reduce((t, s) => t + yieldOf(s.nowMicros, s.positionKey), 0n);
        const yieldAfter = [...byKey.values()].reduce(
          (t, s) => t + yieldOf(s.afterMicros, s.positionKey),
          0n,
        );
        expect(impact.yearlyYield).toEqual({
          nowMicros: yieldNow,
          afterMicros: yieldAfter,
          deltaMicros: yieldAfter - yieldNow,
        });
        // Liquidity: at once and within each catalog time, by the table of hours.
        const times = new Set(catalog.map((e) => e.maxProcessingTime));
        const expectedBounds = ["PT0H", ...[...times].filter((t) => HOURS[t]! > 0)].sort(
          (a, b) => HOURS[a]! - HOURS[b]!,
        );
        expect(impact.withdrawable.map((w) => w.within)).toEqual(expectedBounds);
        for (const row of impact.withdrawable) {
          const liquid = (key: string) => {
            const entry = entries.get(key);
            return entry !== undefined && HOURS[entry.maxProcessingTime]! <= HOURS[row.within]!;
          };
          const sumWhere = (pick: (s: { nowMicros: bigint; afterMicros: bigint }) => bigint) =>
            [...byKey.values()].filter((s) => liquid(s.positionKey)).reduce((t, s) => t + pick(s), 0n);
          expect(row.nowMicros).toBe(sumWhere((s) => s.nowMicros));
          expect(row.afterMicros).toBe(sumWhere((s) => s.afterMicros));
          expect(row.deltaMicros).toBe(row.afterMicros - row.nowMicros);
        }
        // Longest exit: the slowest source money leaves; unknown when one is not in the catalog.
        const leaving = [...byKey.values()].filter((s) => s.deltaMicros < 0n).map((s) => s.positionKey);
        if (leaving.length === 0) expect(impact.longestExit).toBeNull();
        else if (leaving.some((key) => !entries.has(key))) expect(impact.longestExit).toBe("unknown");
        else
          expect(HOURS[impact.longestExit!]).toBe(
            Math.max(...leaving.map((key) => HOURS[entries.get(key)!.maxProcessingTime]!)),
          );
        // Missing keys are reported, never priced.
        expect(impact.keysMissingFromCatalog).toEqual(
          [...byKey.keys()].filter((k) => !entries.has(k)).sort(),
        );
      }),
      { numRuns: 500 },
    );
  });

  test("an unfunded wallet moves $0 and earns nothing, at any target", () => {
    fc.assert(
      fc.property(targetArb, catalogArb, (target, catalog) => {
        const impact = moneyImpact({ positions: [{ positionKey: "tbills", valueUsd: 0 }] }, target, catalog);
        return (
          !impact.funded &&
          impact.movedMicros === 0n &&
          impact.yearlyYield.afterMicros === 0n &&
          impact.withdrawable.every((w) => w.nowMicros === 0n && w.afterMicros === 0n) &&
          impact.longestExit === null
        );
      }),
    );
  });

  test("a worked example: $1,000,000 from tbills into a new source the catalog adds", () => {
    const catalog = [
      catalogEntry("tbills", 45_000, "PT0H"),
      catalogEntry("syrupUsdc", 52_000, "P3D"),
      catalogEntry("newSource", 60_050, "PT24H"),
    ];
    const impact = moneyImpact(
      {
        positions: [
          { positionKey: "tbills", valueUsd: 600_000 },
          { positionKey: "syrupUsdc", valueUsd: 400_000 },
        ],
        pendingAllocationsUsd: 12.5,
      },
      { tbills: 3333, syrupUsdc: 3333, newSource: 3334 },
      catalog,
    );
    expect(impact.sources.map((s) => [s.positionKey, s.deltaMicros])).toEqual([
      ["newSource", 333_400_000_000n],
      ["syrupUsdc", -66_700_000_000n],
      ["tbills", -266_700_000_000n],
    ]);
    expect(impact.movedMicros).toBe(333_400_000_000n);
    expect(impact.pendingMicros).toBe(12_500_000n);
    // 600000 × 4.5% + 400000 × 5.2% = 27000 + 20800; after 333300 × 4.5% + 333300 × 5.2% + 333400 × 6.005%.
    expect(impact.yearlyYield.nowMicros).toBe(47_800_000_000n);
    expect(impact.yearlyYield.afterMicros).toBe(52_350_770_000n);
    expect(impact.withdrawable.map((w) => [w.within, w.nowMicros, w.afterMicros])).toEqual([
      ["PT0H", 600_000_000_000n, 333_300_000_000n],
      ["PT24H", 600_000_000_000n, 666_700_000_000n],
      ["P3D", 1_000_000_000_000n, 1_000_000_000_000n],
    ]);
    expect(impact.longestExit).toBe("P3D");
  });

  test("a source held now and absent from the new target is emptied; one the catalog dropped is reported", () => {
    const catalog = [catalogEntry("tbills", 40_000, "PT0H")];
    const impact = moneyImpact(
      { positions: [{ positionKey: "gone", valueUsd: 250.000001 }] },
      { tbills: 10_000 },
      catalog,
    );
    expect(impact.sources).toEqual([
      {
        positionKey: "gone",
        nowMicros: 250_000_001n,
        afterMicros: 0n,
        deltaMicros: -250_000_001n,
        rateBps: null,
        maxProcessingTime: null,
      },
      {
        positionKey: "tbills",
        nowMicros: 0n,
        afterMicros: 250_000_001n,
        deltaMicros: 250_000_001n,
        rateBps: 400,
        maxProcessingTime: "PT0H",
      },
    ]);
    expect(impact.keysMissingFromCatalog).toEqual(["gone"]);
    expect(impact.longestExit).toBe("unknown");
  });
});

describe("stackMoneyImpact", () => {
  test("totals are the sums of the wallets; money in equals money out per stack", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(holdingsArb, targetArb), { maxLength: 6 }),
        catalogArb,
        (wallets, catalog) => {
          const impacts = wallets.map(([holdings, target]) =>
            moneyImpact(
              {
                positions: holdings.map((h) => ({
                  positionKey: h.positionKey,
                  valueUsd: microsToUsd(h.micros),
                })),
              },
              target,
              catalog,
            ),
          );
          const stack = stackMoneyImpact(impacts);
          const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
          expect(stack.movedMicros).toBe(sum(impacts.map((i) => i.movedMicros)));
          expect(sum(stack.flows.map((f) => f.inMicros))).toBe(stack.movedMicros);
          expect(sum(stack.flows.map((f) => f.outMicros))).toBe(stack.movedMicros);
          // Netted per source: each source's deltas over the wallets, which over all sources cancel out.
          for (const flow of stack.flows) {
            const deltas = impacts.flatMap((i) =>
              i.sources.filter((s) => s.positionKey === flow.positionKey),
            );
            expect(flow.netMicros).toBe(sum(deltas.map((s) => s.deltaMicros)));
            expect(flow.netMicros).toBe(flow.inMicros - flow.outMicros);
          }
          expect(sum(stack.flows.map((f) => f.netMicros))).toBe(0n);
          expect(stack.yearlyYield.deltaMicros).toBe(sum(impacts.map((i) => i.yearlyYield.deltaMicros)));
          expect(stack.fundedWallets).toBe(impacts.filter((i) => i.funded).length);
          const instant = stack.withdrawable.find((w) => w.within === "PT0H");
          if (impacts.length > 0)
            expect(instant?.deltaMicros).toBe(sum(impacts.map((i) => i.withdrawable[0]!.deltaMicros)));
          expect(stack.withdrawable.map((w) => w.within)).toEqual(
            impacts.length === 0 ? [] : liquidityBounds(catalog),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
