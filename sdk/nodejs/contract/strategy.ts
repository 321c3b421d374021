import { z } from "zod";
import { AllocationSchema } from "./allocation.ts";
import { DateTimeSchema, UuidSchema, openEnum } from "./common.ts";

/** Strategy update statuses (spec 3.4). */
export const STRATEGY_UPDATE_STATUSES = ["pending_approval", "processing", "completed", "failed"] as const;
export type StrategyUpdateStatus = (typeof STRATEGY_UPDATE_STATUSES)[number] | (string & {});

/** PATCH /v2/portfolio-wallets/{id}/strategy body (spec 4.7). The requestId is required here; see docs. */
export const StrategyUpdateRequestSchema = z.looseObject({
  requestId: UuidSchema,
  positions: AllocationSchema,
});
export type StrategyUpdateRequest = z.infer<typeof StrategyUpdateRequestSchema>;

/**
 * A strategy update, as answered by the PATCH (spec 4.7 shows only `status` and
 * `signingActivityId`; the rest is this project's documented choice).
 */
export const StrategyUpdateSchema = z.looseObject({
  id: UuidSchema,
  requestId: UuidSchema,
  portfolioWalletId: UuidSchema,
  status: openEnum(STRATEGY_UPDATE_STATUSES),
  positions: z.array(z.looseObject({ positionKey: z.string(), targetWeightBps: z.number() })),
  signingActivityId: z.string().nullish(),
  signingActivityStatus: z.string().nullish(),
  failureReason: z.string().nullish(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type StrategyUpdate = z.infer<typeof StrategyUpdateSchema>;
