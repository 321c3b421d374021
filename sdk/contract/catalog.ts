import { z } from "zod";
import { DateTimeSchema, DurationSchema, openEnum } from "./common.ts";

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
