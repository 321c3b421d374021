import { z } from "zod";
import { DateTimeSchema, UuidSchema, openEnum, pageOf } from "./common.ts";

/** Withdrawal statuses (spec 3.3). */
export const WITHDRAWAL_STATUSES = [
  "pending_approval",
  "created",
  "processing",
  "partially_completed",
  "completed",
  "failed",
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number] | (string & {});

/** Payout leg statuses: spec shows completed and processing; the rest are this project's choice. */
export const PAYOUT_STATUSES = ["pending", "processing", "completed", "skipped", "failed"] as const;

/** Tokens and chains a withdrawal may pay out in (spec shows usdc on ethereum; see docs). */
export const WITHDRAWAL_TOKENS = ["usdc", "usdt"] as const;

/** POST /v2/portfolio-wallets/{id}/withdraw body (spec 4.8). All fields are required; see docs. */
export const WithdrawRequestSchema = z.looseObject({
  requestId: UuidSchema,
  destinationAddress: z
    .string({ error: "must be the chain-native address to pay out to" })
    .min(1, "must not be empty"),
  withdrawalAmount: z
    .number({ error: "must be a USD amount as a JSON number" })
    .positive("must be greater than 0")
    .finite("must be a finite number"),
  destinationToken: z.string({ error: "must be a token such as usdc" }).min(1, "must not be empty"),
  destinationChain: z.string({ error: "must be a chain such as ethereum" }).min(1, "must not be empty"),
});
export type WithdrawRequest = z.infer<typeof WithdrawRequestSchema>;

/** A planned payout leg (fields not shown in the spec; see docs). */
export const PlannedLegSchema = z.looseObject({
  legKey: z.string(),
  amount: z.number(),
  positionKeys: z.array(z.string()).optional(),
  maxProcessingTime: z.string().optional(),
});
export type PlannedLeg = z.infer<typeof PlannedLegSchema>;

export const PayoutSchema = z.looseObject({
  legKey: z.string(),
  amount: z.number(),
  token: z.string(),
  chain: z.string(),
  destinationAddress: z.string(),
  status: openEnum(PAYOUT_STATUSES),
  /**
   * When the leg's money left the wallet's positions (in flight from then). Not shown in the spec:
   * this project's addition, which a statement needs to date a withdrawal (docs/spec-gaps.md).
   */
  debitedAt: DateTimeSchema.nullish(),
  /** When the leg reached its destination; null until then (the same addition). */
  paidAt: DateTimeSchema.nullish(),
  /** When a failed or stopped leg's money went back to the wallet; null otherwise (the same addition). */
  returnedAt: DateTimeSchema.nullish(),
});
export type Payout = z.infer<typeof PayoutSchema>;

/** A withdrawal (spec 2.8). */
export const WithdrawalSchema = z.looseObject({
  id: UuidSchema,
  requestId: UuidSchema,
  portfolioWalletId: UuidSchema,
  status: openEnum(WITHDRAWAL_STATUSES),
  withdrawalAmount: z.number(),
  destinationToken: z.string(),
  destinationChain: z.string(),
  destinationAddress: z.string(),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  failureReason: z.string().nullish(),
  plannedLegs: z.array(PlannedLegSchema).optional(),
  legStatuses: z.record(z.string(), z.string()).optional(),
  completedAt: DateTimeSchema.nullish(),
  signingActivityId: z.string().nullish(),
  signingActivityStatus: z.string().nullish(),
  payouts: z.array(PayoutSchema).optional(),
});
export type Withdrawal = z.infer<typeof WithdrawalSchema>;

/** An item of the withdrawals list (spec 2.8, last paragraph). */
export const WithdrawalListItemSchema = z.looseObject({
  id: UuidSchema,
  requestId: UuidSchema,
  status: openEnum(WITHDRAWAL_STATUSES),
  withdrawalAmount: z.number(),
  destinationChain: z.string(),
  destinationToken: z.string(),
  destinationAddress: z.string(),
});
export type WithdrawalListItem = z.infer<typeof WithdrawalListItemSchema>;

/** GET /v2/portfolio-wallets/{id}/withdrawals (spec 4.9). */
export const WithdrawalListSchema = pageOf(WithdrawalListItemSchema);
export type WithdrawalList = z.infer<typeof WithdrawalListSchema>;
