import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  AllocationSchema,
  canonicalAllocation,
  describeFieldProblems,
  fieldProblemsOf,
} from "./contract/index.ts";

/**
 * An allocation file: the target allocation a program applies, kept beside it in the repository so
 * that a pull request shows a change of weights as a change of this file. `portfolio-wallet quote
 * --write allocation.json` writes one from a quote option; a program reads it with `loadAllocation`.
 *
 * ```json
 * {
 *   "positions": [
 *     { "positionKey": "syrupUsdc", "targetWeightBps": 4000 },
 *     { "positionKey": "tbills", "targetWeightBps": 6000 }
 *   ],
 *   "quote": { "optimizedFor": "APY", "blendedRateBps": 505, "constraintsSatisfied": true, ... }
 * }
 * ```
 * `quote` records where the weights came from (`adopted` instead, when `portfolio-wallet adopt` wrote
 * the service's allocation into it); neither is read back.
 */
export const AllocationFileSchema = z.looseObject({
  positions: AllocationSchema,
  quote: z.record(z.string(), z.unknown()).optional(),
});
export type AllocationFile = z.infer<typeof AllocationFileSchema>;

/**
 * A position of an allocation file: what `PortfolioWallet` and `WalletStrategy` take as `positions`.
 * A type alias, not an interface: only an alias is assignable to the resources' `positions` type
 * (a loose object with an index signature), so `positions: loadAllocation(file)` type-checks.
 */
export type AllocationPosition = {
  positionKey: string;
  targetWeightBps: number;
};

/**
 * Reads an allocation file (a path relative to the working directory, which is the program's
 * directory under `pulumi up`) and returns its positions, sorted by positionKey. Every problem is
 * reported at once, naming the file and the field.
 *
 * @example
 * new PortfolioWallet("treasury", { positions: loadAllocation("allocation.json") });
 */
export function loadAllocation(file: string): AllocationPosition[] {
  const absolute = path.resolve(file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(absolute, "utf8"));
  } catch (error) {
    throw new Error(`allocation file ${absolute}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = AllocationFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `allocation file ${absolute} is invalid: ${describeFieldProblems(fieldProblemsOf(parsed.error))}. ` +
        "Write it with `portfolio-wallet quote --write` or fix the listed fields (weights are whole basis points summing to 10000).",
    );
  }
  return canonicalAllocation(parsed.data.positions);
}

/** Writes an allocation file: positions sorted by positionKey, two-space JSON, so diffs stay small. */
export function writeAllocationFile(
  file: string,
  positions: readonly AllocationPosition[],
  quote?: Record<string, unknown>,
): void {
  writeAllocationJson(file, {
    positions: canonicalAllocation(positions),
    ...(quote === undefined ? {} : { quote }),
  });
}

/**
 * Where an allocation file's weights came from when `portfolio-wallet adopt` wrote the service's
 * allocation into it (a change made at the service, kept in the code). Not read back.
 */
export interface AdoptedFrom {
  walletId: string | null;
  /** When the service's allocation was read. */
  readAt: string;
}

/**
 * Rewrites an allocation file with other positions, keeping its other fields. A `quote` no longer
 * says where the weights came from, so it gives way to `adopted`.
 */
export function adoptIntoAllocationFile(
  file: string,
  positions: readonly AllocationPosition[],
  adopted: AdoptedFrom,
): void {
  const { quote: _earlierQuote, ...kept } = AllocationFileSchema.parse(
    JSON.parse(readFileSync(file, "utf8")),
  );
  writeAllocationJson(file, { ...kept, positions: canonicalAllocation(positions), adopted });
}

function writeAllocationJson(file: string, content: AllocationFile): void {
  AllocationFileSchema.parse(content);
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}
