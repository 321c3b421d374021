import { z } from "zod";
import { DateTimeSchema, UuidSchema } from "./common.ts";

/** POST /v2/portfolio-wallets/yield body (spec 4.12); all optional. */
export const YieldMetricsRequestSchema = z.looseObject({
  periodStartIso: DateTimeSchema.optional(),
  periodEndIso: DateTimeSchema.optional(),
  portfolioWalletIds: z.array(UuidSchema).optional(),
});
export type YieldMetricsRequest = z.infer<typeof YieldMetricsRequestSchema>;

export const YieldFiguresSchema = z.looseObject({
  generated: z.number(),
  withdrawn: z.number(),
  accruedDelta: z.number(),
});
export type YieldFigures = z.infer<typeof YieldFiguresSchema>;

/** Yield metrics (spec 2.9). */
export const YieldMetricsSchema = z.looseObject({
  /**
   * What the figures count: `{ start, end }` date-times (spec 2.9). A request without a start counts
   * from the organization's first wallet (its creation), or from the end when it has none.
   */
  period: z.looseObject({ start: DateTimeSchema, end: DateTimeSchema }),
  global: YieldFiguresSchema,
  portfolioWallets: z.record(z.string(), YieldFiguresSchema),
});
export type YieldMetrics = z.infer<typeof YieldMetricsSchema>;
