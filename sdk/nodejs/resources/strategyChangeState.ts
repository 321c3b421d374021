import { z } from "zod";

/**
 * What PortfolioWallet and WalletStrategy share as outputs: the allocation as a map and the latest
 * strategy change, as schemas (with the types users see) that both descriptors use.
 */

/** A target allocation entry as state keeps it: only the used fields. */
export const TargetPositionSchema = z.object({ positionKey: z.string(), targetWeightBps: z.number().int() });
/** A target allocation in the form stored in state: only the used fields, sorted by positionKey. */
export type TargetPosition = z.output<typeof TargetPositionSchema>;

export const SupersededFailureSchema = z.object({
  requestId: z.string(),
  failureReason: z.string().nullable(),
});

/**
 * The latest strategy change of a PortfolioWallet or WalletStrategy, as its `strategyChange`
 * output shows it. The provider implementation writes it into state (provider/strategyChange/),
 * where it lets a later `up` reuse the same requestId for the same pending change and pick a
 * fresh one otherwise.
 */
export const StrategyChangeStateSchema = z.object({
  /** How many strategy changes this resource has started; folded into the requestId. */
  revision: z.number().int(),
  requestId: z.string(),
  /** `pending_approval`, `processing`, `completed` or `failed`; other statuses may appear. */
  status: z.string(),
  /** The allocation the change asks for, sorted by positionKey. */
  targetPositions: z.array(TargetPositionSchema),
  /** The approval activity at the signing provider, while or after the change waits for approval. */
  signingActivityId: z.string().nullable(),
  signingActivityStatus: z.string().nullable(),
  /** Approvals still missing at the signing provider, when known. */
  approvalsStillNeeded: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  /**
   * An earlier update of the same target that had failed (for example rejected at the signing
   * provider while it waited for approval), found when this change was requested again.
   */
  supersededFailure: SupersededFailureSchema.nullable(),
});
/** The latest strategy change of a PortfolioWallet or WalletStrategy (its `strategyChange` output). */
export type StrategyChangeState = z.output<typeof StrategyChangeStateSchema>;

/**
 * What the command-line tool reads of a recorded strategy change (drift, approvals): its status,
 * target and signing activity, from the one schema above. The other fields are not read, so a
 * state written by an earlier version of this package, which may lack some of them, still reads.
 */
export const RecordedChangeSchema = StrategyChangeStateSchema.pick({
  status: true,
  targetPositions: true,
})
  .extend({ signingActivityId: StrategyChangeStateSchema.shape.signingActivityId.optional() })
  .loose();

/** The allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`. */
export const WeightsByKeySchema = z.record(z.string(), z.number().int());

/**
 * A secret allocation stays secret in every output it shows in: the program's form (`positions`)
 * becomes the checked map (`targetWeightsBps`) and shows in the latest strategy change and in the
 * sources of the applied rates.
 */
export const ALLOCATION_SECRETS_CARRY_OVER = {
  positions: ["targetWeightsBps", "strategyChange", "appliedRatesBps"],
  targetWeightsBps: ["strategyChange", "appliedRatesBps"],
} as const;

/**
 * Each target source's catalog rate (`currentRateBps`) when this stack last set the allocation:
 * at creation, or at the strategy update that asked for it. What `portfolio-wallet watch` holds
 * today's rates to. Null when not recorded: set before this output existed, or changed outside the
 * stack (a refresh found another allocation).
 */
export const AppliedRatesSchema = z.record(z.string(), z.number()).nullable().optional();
