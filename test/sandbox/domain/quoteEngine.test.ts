import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { StrategyCatalogEntry } from "../../../sdk/nodejs/contract/catalog.ts";
import { QuoteResponseSchema } from "../../../sdk/nodejs/contract/quote.ts";
import type { QuoteOption, QuoteRequest } from "../../../sdk/nodejs/contract/quote.ts";
import { buildQuoteOptions } from "../../../sandbox/domain/quoteEngine.ts";

// The checks below are written independently of the engine (their own duration table, their own
// liquidity profile), so that an engine bug cannot hide behind a shared helper.
const DURATION_SECONDS: Record<string, number> = {
  PT0H: 0,
  PT0S: 0,
  PT30M: 1_800,
  PT1H: 3_600,
  PT12H: 43_200,
  PT24H: 86_400,
  P1D: 86_400,
  PT72H: 259_200,
  P3D: 259_200,
  P1W: 604_800,
};
const DURATIONS = Object.keys(DURATION_SECONDS);
const secondsOf = (duration: string): number => {
  const seconds = DURATION_SECONDS[duration];
  if (seconds === undefined) throw new Error(`test table lacks ${duration}`);
  return seconds;
};

const RATE_UPDATED_AT = "2025-01-01T00:00:00Z";
const entry = (
  positionKey: string,
  asset: string,
  strategyType: string,
  maxProcessingTime: string,
  currentRateBps: number,
): StrategyCatalogEntry => ({
  positionKey,
  asset,
  strategyType,
  maxProcessingTime,
  currentRateBps,
  rateUpdatedAt: RATE_UPDATED_AT,
});

const CATALOG: StrategyCatalogEntry[] = [
  entry("tbills", "tbills", "tbills", "PT0H", 400),
  entry("syrupUsdc", "syrupUSDC", "overcollateralizedLending", "PT24H", 700),
  entry("resolvRlp", "rlp", "deltaNeutralStrategy", "PT72H", 1200),
];

const weightsOf = (option: QuoteOption): Record<string, number> =>
  Object.fromEntries(option.strategyConfig.positions.map((p) => [p.positionKey, p.targetWeightBps]));

function isExcluded(source: StrategyCatalogEntry, request: QuoteRequest): boolean {
  return (
    (request.yieldSourceTypeExclusions ?? []).includes(source.strategyType) ||
    (request.yieldSourceExclusions ?? []).includes(source.positionKey) ||
    (request.yieldSourceExclusions ?? []).includes(source.asset)
  );
}

type Weights = ReadonlyMap<StrategyCatalogEntry, number>;

function weightsByEntry(option: QuoteOption, catalog: readonly StrategyCatalogEntry[]): Weights {
  const weights = new Map<StrategyCatalogEntry, number>();
  for (const position of option.strategyConfig.positions) {
    const source = catalog.find((candidate) => candidate.positionKey === position.positionKey);
    if (source === undefined) throw new Error(`unknown positionKey ${position.positionKey}`);
    weights.set(source, position.targetWeightBps);
  }
  return weights;
}

const apyOf = (weights: Weights): number =>
  [...weights].reduce((sum, [source, weightBps]) => sum + weightBps * source.currentRateBps, 0) / 10_000;

/** Liquidity: for each duration of the eligible catalog, the bps withdrawable within it. */
function liquidityProfile(weights: Weights, durations: readonly number[]): number[] {
  return durations.map((limit) =>
    [...weights].reduce(
      (sum, [source, weightBps]) => sum + (secondsOf(source.maxProcessingTime) <= limit ? weightBps : 0),
      0,
    ),
  );
}

const EPSILON = 1e-9;
function dominates(a: Weights, b: Weights, durations: readonly number[]): boolean {
  const [apyA, apyB] = [apyOf(a), apyOf(b)];
  const [liqA, liqB] = [liquidityProfile(a, durations), liquidityProfile(b, durations)];
  const atLeastAsGood = apyA >= apyB - EPSILON && liqA.every((value, i) => value >= (liqB[i] ?? 0));
  const strictlyBetter = apyA > apyB + EPSILON || liqA.some((value, i) => value > (liqB[i] ?? 0));
  return atLeastAsGood && strictlyBetter;
}

function meetsConstraints(weights: Weights, request: QuoteRequest): boolean {
  if (request.minApyTargetBps !== undefined && apyOf(weights) < request.minApyTargetBps - EPSILON)
    return false;
  return (request.liquidityConstraints ?? []).every(
    (constraint) =>
      liquidityProfile(weights, [secondsOf(constraint.maxProcessingTime)])[0]! >= constraint.minWeightBps,
  );
}

const eligibleDurations = (catalog: readonly StrategyCatalogEntry[], request: QuoteRequest): number[] => [
  ...new Set(catalog.filter((s) => !isExcluded(s, request)).map((s) => secondsOf(s.maxProcessingTime))),
];

// --- arbitraries --------------------------------------------------------------------------------

const ASSETS = ["tbills", "rlp", "syrupUSDC", "usdc", "eth"];
const TYPES = ["tbills", "deltaNeutralStrategy", "overcollateralizedLending", "basisTrade"];
// Coarse rates make ties (equal rates, equal speeds) common; cents exercise fractional bps.
const rateArb = fc.oneof(
  fc.integer({ min: 0, max: 15 }).map((step) => step * 100),
  fc.integer({ min: 0, max: 3_000 }),
  fc.integer({ min: 0, max: 300_000 }).map((cents) => cents / 100),
);

const catalogArb = (maxLength: number) =>
  fc
    .uniqueArray(
      fc.record({
        positionKey: fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/),
        asset: fc.constantFrom(...ASSETS),
        strategyType: fc.constantFrom(...TYPES),
        maxProcessingTime: fc.constantFrom(...DURATIONS),
        currentRateBps: rateArb,
        rateUpdatedAt: fc.constant(RATE_UPDATED_AT),
      }),
      { minLength: 1, maxLength: Math.ceil(maxLength / 2), selector: (source) => source.positionKey },
    )
    .chain((sources) =>
      // Twins: same speed and rate under another key (and maybe asset/type), so exact ties are common.
      fc
        .subarray(sources, { maxLength: Math.min(sources.length, Math.floor(maxLength / 2)) })
        .chain((originals) =>
          fc.tuple(...originals.map(() => fc.constantFrom(...ASSETS))).map((assets) =>
            originals.map((original, i) => ({
              ...original,
              positionKey: `${original.positionKey}_twin`,
              asset: assets[i] ?? original.asset,
            })),
          ),
        )
        .chain((twins) =>
          fc.shuffledSubarray([...sources, ...twins], { minLength: sources.length + twins.length }),
        ),
    );

const requestArb = (catalog: readonly StrategyCatalogEntry[]): fc.Arbitrary<QuoteRequest> =>
  fc.record(
    {
      minApyTargetBps: fc.integer({ min: 0, max: 3_500 }),
      liquidityConstraints: fc.array(
        fc.record({
          maxProcessingTime: fc.constantFrom(...DURATIONS),
          minWeightBps: fc.integer({ min: 0, max: 10_000 }),
        }),
        { maxLength: 3 },
      ),
      yieldSourceTypeExclusions: fc.subarray([...TYPES, "unknownType"], { maxLength: 2 }),
      yieldSourceExclusions: fc.subarray([...catalog.map((s) => s.positionKey), ...ASSETS, "unknownKey"], {
        maxLength: 3,
      }),
    },
    { requiredKeys: [] },
  );

const scenarioArb = (maxSources: number) =>
  catalogArb(maxSources).chain((catalog) => requestArb(catalog).map((request) => ({ catalog, request })));

/** Every allocation of 10000 bps over `count` sources in steps of `stepBps`. */
function* gridAllocations(count: number, stepBps: number, remaining = 10_000): Generator<number[]> {
  if (count === 1) {
    yield [remaining];
    return;
  }
  for (let first = 0; first <= remaining; first += stepBps) {
    for (const rest of gridAllocations(count - 1, stepBps, remaining - first)) yield [first, ...rest];
  }
}

// --- tests --------------------------------------------------------------------------------------

describe("buildQuoteOptions", () => {
  test("gives one satisfying option, the highest-APY feasible allocation, when constraints can be met", () => {
    const options = buildQuoteOptions(CATALOG, {
      minApyTargetBps: 500,
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 4_000 }],
    });

    expect(options).toEqual([
      {
        strategyConfig: {
          positions: [
            { positionKey: "tbills", targetWeightBps: 4_000, currentApy: 400, maxProcessingTime: "PT0H" },
            {
              positionKey: "resolvRlp",
              targetWeightBps: 6_000,
              currentApy: 1200,
              maxProcessingTime: "PT72H",
            },
          ],
        },
        blendedRateBps: 880,
        constraintsSatisfied: true,
      },
    ]);
    expect(QuoteResponseSchema.safeParse(options).success).toBe(true);
  });

  test("gives APY, LIQUIDITY and balanced Pareto options, none satisfying, when constraints cannot all be met", () => {
    const options = buildQuoteOptions(CATALOG, {
      minApyTargetBps: 1_000,
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 4_000 }],
    });

    expect(
      options.map((o) => [o.optimizedFor, weightsOf(o), o.blendedRateBps, o.constraintsSatisfied]),
    ).toEqual([
      ["APY", { resolvRlp: 10_000 }, 1200, false],
      // Reaches the 10% target with as much instantly withdrawable as that allows.
      ["BALANCED", { tbills: 2_500, resolvRlp: 7_500 }, 1000, false],
      // Keeps 40% instantly withdrawable with the best rate that allows.
      ["BALANCED", { tbills: 4_000, resolvRlp: 6_000 }, 880, false],
      ["LIQUIDITY", { tbills: 10_000 }, 400, false],
    ]);
  });

  test("marks an option satisfying only when it meets every constraint, even when a constraint no source can meet", () => {
    const slowOnly = CATALOG.filter((s) => s.positionKey !== "tbills");
    const options = buildQuoteOptions(slowOnly, {
      minApyTargetBps: 100,
      liquidityConstraints: [{ maxProcessingTime: "PT1H", minWeightBps: 1 }],
    });

    expect(options.length).toBeGreaterThanOrEqual(2);
    expect(options.every((o) => !o.constraintsSatisfied)).toBe(true);
    expect(options.map((o) => o.optimizedFor)).toEqual(expect.arrayContaining(["APY", "LIQUIDITY"]));
  });

  test("allocates only across sources not excluded by strategyType, positionKey or asset", () => {
    const byTypeAndAsset = buildQuoteOptions(CATALOG, {
      yieldSourceTypeExclusions: ["deltaNeutralStrategy"],
      yieldSourceExclusions: ["syrupUSDC"],
    });
    expect(byTypeAndAsset.map(weightsOf)).toEqual([{ tbills: 10_000 }]);

    const byKey = buildQuoteOptions(CATALOG, { yieldSourceExclusions: ["resolvRlp"] });
    expect(byKey.map(weightsOf)).toEqual([{ syrupUsdc: 10_000 }]);
  });

  test("returns no option when the exclusions remove every source", () => {
    const request: QuoteRequest = {
      yieldSourceTypeExclusions: ["deltaNeutralStrategy", "tbills"],
      yieldSourceExclusions: ["syrupUsdc"],
    };
    expect(buildQuoteOptions(CATALOG, request)).toEqual([]);
  });

  test("treats equal durations written differently (P1D, PT24H) as equally fast", () => {
    const catalog = [entry("a", "usdc", "x", "P1D", 500), entry("b", "usdc", "x", "PT24H", 300)];
    const options = buildQuoteOptions(catalog, {
      liquidityConstraints: [{ maxProcessingTime: "PT24H", minWeightBps: 10_000 }],
    });
    expect(options.map(weightsOf)).toEqual([{ a: 10_000 }]);
    expect(options[0]?.constraintsSatisfied).toBe(true);
  });

  test("prefers the faster of two equally paid sources, and breaks exact ties by positionKey", () => {
    const catalog = [
      entry("slow", "usdc", "x", "PT72H", 500),
      entry("zeta", "usdc", "x", "PT0H", 500),
      entry("alpha", "usdc", "x", "PT0H", 500),
    ];
    const options = buildQuoteOptions(catalog, { minApyTargetBps: 600 });
    expect(options.map((o) => [o.optimizedFor, weightsOf(o)])).toEqual([["APY", { alpha: 10_000 }]]);
  });

  test("property: weights are positive integers summing to 10000 over non-excluded catalog sources", () => {
    fc.assert(
      fc.property(scenarioArb(20), ({ catalog, request }) => {
        const options = buildQuoteOptions(catalog, request);
        expect(QuoteResponseSchema.safeParse(options).success).toBe(true);
        expect(options.length > 0).toBe(catalog.some((s) => !isExcluded(s, request)));
        for (const option of options) {
          const positions = option.strategyConfig.positions;
          expect(positions.reduce((sum, p) => sum + p.targetWeightBps, 0)).toBe(10_000);
          expect(new Set(positions.map((p) => p.positionKey)).size).toBe(positions.length);
          for (const position of positions) {
            expect(Number.isInteger(position.targetWeightBps) && position.targetWeightBps > 0).toBe(true);
            const source = catalog.find((s) => s.positionKey === position.positionKey);
            expect(source).toBeDefined();
            expect(isExcluded(source!, request)).toBe(false);
            expect(position.currentApy).toBe(source!.currentRateBps);
            expect(position.maxProcessingTime).toBe(source!.maxProcessingTime);
          }
          expect(option.blendedRateBps).toBeCloseTo(apyOf(weightsByEntry(option, catalog)), 6);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("property: no option is dominated by, or identical to, another", () => {
    fc.assert(
      fc.property(scenarioArb(20), ({ catalog, request }) => {
        const options = buildQuoteOptions(catalog, request);
        const durations = eligibleDurations(catalog, request);
        const allocations = options.map((o) => weightsByEntry(o, catalog));
        expect(new Set(options.map((o) => JSON.stringify(weightsOf(o)))).size).toBe(options.length);
        allocations.forEach((a, i) =>
          allocations.forEach((b, j) => {
            if (i !== j) expect(dominates(a, b, durations)).toBe(false);
          }),
        );
      }),
      { numRuns: 500 },
    );
  });

  test("property: no allocation of the eligible sources dominates a returned option", () => {
    const scenarioWithAllocationArb = scenarioArb(20).chain((scenario) =>
      fc.array(fc.nat(50), { minLength: 20, maxLength: 20 }).map((raw) => ({ ...scenario, raw })),
    );
    fc.assert(
      fc.property(scenarioWithAllocationArb, ({ catalog, request, raw }) => {
        const eligible = catalog.filter((s) => !isExcluded(s, request));
        const shares = eligible.map((_, i) => raw[i] ?? 0);
        const total = shares.reduce((sum, share) => sum + share, 0);
        fc.pre(total > 0);
        const weights = shares.map((share) => Math.floor((share * 10_000) / total));
        weights[0]! += 10_000 - weights.reduce((sum, w) => sum + w, 0);
        const randomChallenger = new Map(eligible.map((source, i) => [source, weights[i] ?? 0]));
        const durations = eligibleDurations(catalog, request);
        for (const option of buildQuoteOptions(catalog, request)) {
          const allocation = weightsByEntry(option, catalog);
          // Local challengers: move one position's weight, all of it or 1 bps, to another source.
          const challengers: Weights[] = [randomChallenger];
          for (const [from, fromBps] of allocation) {
            for (const to of eligible) {
              if (to === from) continue;
              for (const movedBps of [fromBps, 1]) {
                const moved = new Map(allocation);
                moved.set(from, fromBps - movedBps).set(to, (allocation.get(to) ?? 0) + movedBps);
                challengers.push(moved);
              }
            }
          }
          for (const challenger of challengers)
            expect(dominates(challenger, allocation, durations)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("property: constraintsSatisfied is honest; a satisfying answer is a single unlabelled option, otherwise APY and LIQUIDITY are offered", () => {
    fc.assert(
      fc.property(scenarioArb(20), ({ catalog, request }) => {
        const options = buildQuoteOptions(catalog, request);
        for (const option of options) {
          expect(option.constraintsSatisfied).toBe(
            meetsConstraints(weightsByEntry(option, catalog), request),
          );
        }
        if (options.some((o) => o.constraintsSatisfied)) {
          expect(options).toHaveLength(1);
          expect(options[0]?.optimizedFor).toBeUndefined();
          return;
        }
        if (options.length === 0) return;
        const eligible = catalog.filter((s) => !isExcluded(s, request));
        // One option only when a single source is both the fastest and the best paid.
        const oneSourceIsBest = eligible.some((best) =>
          eligible.every(
            (s) =>
              secondsOf(best.maxProcessingTime) <= secondsOf(s.maxProcessingTime) &&
              best.currentRateBps >= s.currentRateBps,
          ),
        );
        if (oneSourceIsBest) {
          expect(options.map((o) => o.optimizedFor)).toEqual(["APY"]);
        } else {
          expect(options.length).toBeGreaterThanOrEqual(2);
          expect(options[0]?.optimizedFor).toBe("APY");
          expect(options.at(-1)?.optimizedFor).toBe("LIQUIDITY");
        }
      }),
      { numRuns: 500 },
    );
  });

  test("property: finds a satisfying option whenever one exists, with an APY no grid allocation beats", () => {
    fc.assert(
      fc.property(scenarioArb(4), ({ catalog, request }) => {
        const eligible = catalog.filter((s) => !isExcluded(s, request));
        let bestFeasibleApy: number | undefined;
        for (const grid of gridAllocations(Math.max(eligible.length, 1), 500)) {
          const weights = new Map(eligible.map((source, i) => [source, grid[i] ?? 0]));
          if (eligible.length > 0 && meetsConstraints(weights, request)) {
            bestFeasibleApy = Math.max(bestFeasibleApy ?? -Infinity, apyOf(weights));
          }
        }
        const options = buildQuoteOptions(catalog, request);
        if (bestFeasibleApy === undefined) return;
        expect(options).toHaveLength(1);
        expect(options[0]?.constraintsSatisfied).toBe(true);
        expect(options[0]!.blendedRateBps).toBeGreaterThanOrEqual(bestFeasibleApy - EPSILON);
      }),
      { numRuns: 500 },
    );
  });

  test("is deterministic and independent of catalog order", () => {
    fc.assert(
      fc.property(scenarioArb(20), ({ catalog, request }) => {
        const first = buildQuoteOptions(catalog, request);
        expect(buildQuoteOptions(catalog, request)).toEqual(first);
        expect(buildQuoteOptions([...catalog].reverse(), request)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });
});
