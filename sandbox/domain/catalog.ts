import { readFileSync } from "node:fs";
import { z } from "zod";
import {
  DateTimeSchema,
  StrategyCatalogEntrySchema,
  fieldProblemsOf,
  unknownPositionKeyProblems,
  describeFieldProblems,
  type FieldProblem,
  type YieldSource,
} from "../../sdk/nodejs/contract/index.ts";

/**
 * The default catalog: the three sources the spec names, with realistic liquidity limits and rates
 * (late-2025 levels: T-bills ~4.3%, Maple syrupUSDC ~6.5% and instantly withdrawable, Resolv RLP
 * ~10.5% with a multi-day redemption). `rateUpdatedAt` is filled in at startup.
 */
export const DEFAULT_CATALOG: readonly Omit<YieldSource, "rateUpdatedAt">[] = [
  {
    positionKey: "tbills",
    asset: "tbills",
    strategyType: "tbills",
    maxProcessingTime: "PT24H",
    currentRateBps: 430,
    displayName: "US Treasury bills",
  },
  {
    positionKey: "resolvRlp",
    asset: "rlp",
    strategyType: "deltaNeutralStrategy",
    maxProcessingTime: "PT168H",
    currentRateBps: 1050,
    displayName: "Resolv RLP (delta-neutral)",
  },
  {
    positionKey: "syrupUsdc",
    asset: "syrupUSDC",
    strategyType: "overcollateralizedLending",
    maxProcessingTime: "PT0H",
    currentRateBps: 650,
    displayName: "Maple syrupUSDC (overcollateralized lending)",
  },
];

/** One entry of a `--catalog` file: a catalog entry whose `rateUpdatedAt` may be left out. */
const CatalogFileEntrySchema = StrategyCatalogEntrySchema.extend({
  positionKey: z.string().min(1, "must not be empty"),
  currentRateBps: z.number().finite().min(0, "must not be negative"),
  rateUpdatedAt: DateTimeSchema.optional(),
  displayName: z.string().optional(),
});

/** A catalog file is `{ "yieldSources": [...] }` (the GET answer can be saved and reused) or a bare array. */
export const CatalogFileSchema = z
  .union([z.array(CatalogFileEntrySchema), z.looseObject({ yieldSources: z.array(CatalogFileEntrySchema) })])
  .transform((file) => (Array.isArray(file) ? file : file.yieldSources))
  .refine((entries) => entries.length > 0, "must hold at least one yield source")
  .refine(
    (entries) => new Set(entries.map((e) => e.positionKey)).size === entries.length,
    "must not list a positionKey twice",
  );

/** Fills in `rateUpdatedAt` so every entry is a complete yield source. */
export function completeCatalog(
  entries: readonly (Omit<YieldSource, "rateUpdatedAt"> & { rateUpdatedAt?: string | undefined })[],
  nowIso: string,
): YieldSource[] {
  return entries.map((entry) => ({ ...entry, rateUpdatedAt: entry.rateUpdatedAt ?? nowIso }) as YieldSource);
}

/** Reads and validates a catalog file; every problem is reported at once. */
export function loadCatalogFile(path: string, nowIso: string): YieldSource[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`catalog file ${path} is not readable JSON: ${(error as Error).message}`);
  }
  const parsed = CatalogFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `catalog file ${path} is invalid: ${describeFieldProblems(fieldProblemsOf(parsed.error))}`,
    );
  }
  return completeCatalog(parsed.data, nowIso);
}

/**
 * The contract's unknown-positionKey rule on a raw, not yet validated body: positions whose
 * positionKey is a non-empty string are checked, so an unknown key is reported alongside the
 * schema's own problems.
 */
export function unknownPositionKeysInRawBody(raw: unknown, catalog: readonly YieldSource[]): FieldProblem[] {
  if (raw === null || typeof raw !== "object" || !("positions" in raw) || !Array.isArray(raw.positions))
    return [];
  const positions = (raw.positions as unknown[]).map((position) => ({
    positionKey:
      position !== null &&
      typeof position === "object" &&
      "positionKey" in position &&
      position.positionKey !== ""
        ? position.positionKey
        : undefined,
  }));
  return unknownPositionKeyProblems(positions, catalog);
}
