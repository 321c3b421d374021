import { z } from "zod";
import { UuidSchema } from "../../sdk/nodejs/contract/index.ts";
import { MAX_CLOCK_ADVANCE_MS } from "../clock.ts";

/**
 * The request bodies and queries of the admin API, which its table (adminOperations.ts) declares
 * for each operation: the table validates with them and documents them, and the handlers
 * (admin.ts, moneyAdmin.ts, snapshotAdmin.ts, signing/adminRoutes.ts) receive what they parsed.
 * Kept apart from both, so that the table and the handlers each import them, not each other.
 */

const approvals = z
  .number()
  .int("must be a whole number")
  .min(0, "must be 0 (no approval) or more")
  .max(10, "must be at most 10");
export const PolicySchema = z.object({
  strategyUpdateApprovals: approvals.optional(),
  withdrawalApprovals: approvals.optional(),
});
/** What an admin change acts on: the caller's organization (the default), or every organization. */
export const ChangeScopeSchema = z
  .enum(["organization", "sandbox"], {
    error: "must be organization (the caller's organization only) or sandbox (every organization)",
  })
  .default("organization");
export const RateSchema = z.object({
  currentRateBps: z
    .number()
    .finite()
    .min(0, "must not be negative")
    .max(100_000, "must be at most 100000 bps (1000.00% a year)"),
  scope: ChangeScopeSchema,
});
export const AdvanceSchema = z
  .object({
    scope: ChangeScopeSchema,
    ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_CLOCK_ADVANCE_MS, `must be at most ${MAX_CLOCK_ADVANCE_MS} ms (100 years)`)
      .optional(),
    seconds: z
      .number()
      .min(0)
      .max(MAX_CLOCK_ADVANCE_MS / 1000, `must be at most ${MAX_CLOCK_ADVANCE_MS / 1000} seconds (100 years)`)
      .optional(),
  })
  .refine((b) => b.ms !== undefined || b.seconds !== undefined, "give ms or seconds");
export const RateLimitSchema = z
  .object({
    requestsPerSecond: z
      .number()
      .finite()
      .gt(0, "must be above 0 (null: no limit)")
      .max(100_000, "must be at most 100000")
      .nullable(),
    burst: z.number().int("must be a whole number").min(1).max(100_000).optional(),
  })
  .refine((b) => b.requestsPerSecond !== null || b.burst === undefined, {
    message: "a burst needs a requestsPerSecond",
    path: ["burst"],
  });
export const StrategyFaultSchema = z.object({
  walletId: UuidSchema,
  reason: z.string().min(1).max(500).default("rebalance failed (injected fault)"),
});
export const RejectSchema = z.object({ reason: z.string().min(1).max(500).optional() });

export const LegFaultSchema = z.object({
  walletId: UuidSchema,
  legKey: z.string().min(1).max(100).default("redeem"),
  reason: z.string().min(1).max(500).default("payout failed (injected fault)"),
});
const LimitSchema = z.coerce.number().int().min(1).max(1000).default(100);
/** The admin API's webhook delivery records query (the console's has its own). */
export const DeliveryQuerySchema = z.object({
  status: z.enum(["pending", "succeeded", "failed", "cancelled"]).optional(),
  registrationId: z.string().min(1).optional(),
  eventId: z.string().min(1).optional(),
  eventType: z.string().min(1).optional(),
  limit: LimitSchema,
});
export const LedgerQuerySchema = z.object({
  walletId: UuidSchema.optional(),
  limit: LimitSchema,
});

/**
 * A file of the sandbox's snapshot directory, by name only: the admin API never reads or writes a
 * path a caller chooses (options.ts `snapshotDir`).
 */
export const SnapshotFileSchema = z.object({
  file: z
    .string()
    .max(200, "must be at most 200 characters")
    .regex(
      /^[A-Za-z0-9_][A-Za-z0-9._-]*$/,
      "must be a file name (letters, digits, '.', '_', '-'; no directory): files live in the sandbox's snapshot directory (--snapshot-dir)",
    ),
});

export const PublicKeySchema = z
  .string()
  .regex(
    /^0[23][0-9a-fA-F]{64}$/,
    "must be a compressed P-256 public key: 66 hex characters starting with 02 or 03",
  )
  .transform((key) => key.toLowerCase());
export const RegisterKeySchema = z.object({
  publicKey: PublicKeySchema,
  userName: z.string().min(1).max(200).optional(),
});
