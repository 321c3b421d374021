import { z } from "zod";
import { DurationSchema, TOTAL_WEIGHT_BPS, UuidSchema, openEnum } from "./common.ts";

const bpsOutOfTotal = z
  .number({ error: "must be a number of basis points" })
  .int("must be a whole number of basis points")
  .min(0, "must not be negative")
  .max(TOTAL_WEIGHT_BPS, `must be at most ${TOTAL_WEIGHT_BPS}`);

export const LiquidityConstraintSchema = z.looseObject({
  maxProcessingTime: DurationSchema,
  minWeightBps: bpsOutOfTotal,
});
export type LiquidityConstraint = z.infer<typeof LiquidityConstraintSchema>;

/** POST /v2/portfolio-wallets/quote body (spec 4.1); every field is optional. */
export const QuoteRequestSchema = z.looseObject({
  requestId: UuidSchema.optional(),
  minApyTargetBps: z
    .number({ error: "must be a whole number of basis points" })
    .int("must be a whole number of basis points")
    .min(0, "must not be negative")
    .optional(),
  liquidityConstraints: z.array(LiquidityConstraintSchema).optional(),
  yieldSourceTypeExclusions: z.array(z.string().min(1, "must not be empty")).optional(),
  yieldSourceExclusions: z.array(z.string().min(1, "must not be empty")).optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;

/** What an option was optimized for when constraints could not all be met (label name not shown; see docs). */
export const QUOTE_OPTIMIZATIONS = ["APY", "LIQUIDITY", "BALANCED"] as const;

export const QuotePositionSchema = z.looseObject({
  positionKey: z.string(),
  targetWeightBps: z.number(),
  currentApy: z.number().optional(),
  maxProcessingTime: z.string().optional(),
});
export type QuotePosition = z.infer<typeof QuotePositionSchema>;

/** One Pareto-optimal allocation (spec 2.6). */
export const QuoteOptionSchema = z.looseObject({
  strategyConfig: z.looseObject({ positions: z.array(QuotePositionSchema) }),
  blendedRateBps: z.number(),
  constraintsSatisfied: z.boolean(),
  optimizedFor: openEnum(QUOTE_OPTIMIZATIONS).optional(),
});
export type QuoteOption = z.infer<typeof QuoteOptionSchema>;

export const QuoteResponseSchema = z.array(QuoteOptionSchema);
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;
