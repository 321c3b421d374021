import { z } from "zod";
import { DateTimeSchema, DurationSchema, openEnum } from "./common.ts";
import { quoteValue, type FieldProblem } from "./errors.ts";

export const KNOWN_POSITION_KEYS = ["tbills", "resolvRlp", "syrupUsdc"] as const;
export const KNOWN_ASSETS = ["tbills", "rlp", "syrupUSDC"] as const;
export const KNOWN_STRATEGY_TYPES = ["tbills", "deltaNeutralStrategy", "overcollateralizedLending"] as const;

/** A yield source in the strategy catalog (spec 2.5). New keys, assets and types may appear. */
export const StrategyCatalogEntrySchema = z.looseObject({
  positionKey: z.string(),
  asset: openEnum(KNOWN_ASSETS),
  strategyType: openEnum(KNOWN_STRATEGY_TYPES),
  maxProcessingTime: DurationSchema,
  currentRateBps: z.number(),
  rateUpdatedAt: DateTimeSchema,
});
export type StrategyCatalogEntry = z.infer<typeof StrategyCatalogEntrySchema>;

/** GET /v2/portfolio-wallets/strategies (spec 4.3). */
export const StrategiesResponseSchema = z.looseObject({
  strategies: z.array(StrategyCatalogEntrySchema),
});
export type StrategiesResponse = z.infer<typeof StrategiesResponseSchema>;

/**
 * An entry of GET /v2/portfolio-wallets/yield-sources (spec 4.2, shape not shown): the catalog
 * entry plus a human-readable name. See docs/spec-gaps.md.
 */
export const YieldSourceSchema = StrategyCatalogEntrySchema.extend({
  displayName: z.string().optional(),
});
export type YieldSource = z.infer<typeof YieldSourceSchema>;

export const YieldSourcesResponseSchema = z.looseObject({
  yieldSources: z.array(YieldSourceSchema),
});
export type YieldSourcesResponse = z.infer<typeof YieldSourcesResponseSchema>;

/**
 * The unknown-positionKey rule, once for the client, the sandbox and the provider: every position
 * whose positionKey is not in the catalog is a problem at `<pathPrefix>[<index>].positionKey`, and
 * every reason lists the valid keys, so a caller fixes the request without another round trip.
 * Positions whose key is not a string are left to the schema.
 */
export function unknownPositionKeyProblems(
  positions: readonly { positionKey?: unknown }[],
  catalog: readonly { positionKey: string }[],
  pathPrefix = "positions",
): FieldProblem[] {
  const validKeys = catalog.map((entry) => entry.positionKey);
  const valid = new Set(validKeys);
  return positions.flatMap((position, index) =>
    typeof position.positionKey !== "string" || valid.has(position.positionKey)
      ? []
      : [
          {
            field: `${pathPrefix}[${index}].positionKey`,
            reason: `unknown positionKey ${quoteValue(position.positionKey)}; valid keys are: ${validKeys.join(", ")}`,
          },
        ],
  );
}
