import { z } from "zod";
import { DateTimeSchema, UuidSchema, openEnum, pageOf } from "./common.ts";

export const DEPOSIT_STATUSES = ["processing", "completed", "failed"] as const;
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number] | (string & {});
export const DEPOSIT_LEG_STATUSES = ["pending", "processing", "completed", "skipped", "failed"] as const;

/**
 * A deposit (spec 2.7 shows `status` and `legStatuses`; the other fields are this project's
 * documented choice). `legStatuses` is keyed by positionKey.
 */
export const DepositSchema = z.looseObject({
  id: UuidSchema,
  portfolioWalletId: UuidSchema,
  chain: z.string(),
  address: z.string(),
  amountUsd: z.number(),
  txHash: z.string(),
  status: openEnum(DEPOSIT_STATUSES),
  legStatuses: z.record(z.string(), openEnum(DEPOSIT_LEG_STATUSES)),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  completedAt: DateTimeSchema.nullish(),
  failureReason: z.string().nullish(),
});
export type Deposit = z.infer<typeof DepositSchema>;

/** GET /v2/portfolio-wallets/{id}/deposits (spec 4.11; shape not shown, same as the withdrawals list). */
export const DepositListSchema = pageOf(DepositSchema);
export type DepositList = z.infer<typeof DepositListSchema>;
