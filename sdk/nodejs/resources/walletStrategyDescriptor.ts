import { z } from "zod";
import { AllocationSchema, CheckedWeightsSchema } from "../contract/allocation.ts";
import { UuidSchema } from "../contract/common.ts";
import { describeResource, ResourceUrnSchema } from "./resourceDescriptor.ts";
import {
  ALLOCATION_SECRETS_CARRY_OVER,
  AppliedRatesSchema,
  StrategyChangeStateSchema,
  WeightsByKeySchema,
} from "./strategyChangeState.ts";

/**
 * The inputs of a WalletStrategy, each documented here: the class's `WalletStrategyArgs` and the
 * package schema read these docs (resourceDescriptor.ts's ArgsOf says why a shape of its own).
 */
export const walletStrategyInputs = {
  resourceUrn: ResourceUrnSchema,
  /** Id of an existing wallet, for example from another stack's outputs through a `StackReference`. */
  walletId: UuidSchema,
  /**
   * Target allocation: `positionKey`s from the catalog with weights in basis points summing to
   * exactly 10000. Applied through a strategy update, which may need an approval.
   */
  positions: AllocationSchema,
};

/** WalletStrategy, described once (resourceDescriptor.ts says what follows from it). */
export const walletStrategyDescriptor = describeResource({
  kind: "walletStrategy",
  type: "WalletStrategy",
  module: "walletstrategy",
  classFile: "sdk/nodejs/resources/walletStrategy.ts",
  allocation: "manages",
  allocationFields: {
    walletId: "walletId",
    positions: "positions",
    weights: "targetWeightsBps",
    strategyChange: "strategyChange",
  },
  serviceIdOutput: "walletId",
  inputs: z.object(walletStrategyInputs),
  /** The program's `positions` become `targetWeightsBps`, the map state keeps and diffs show. */
  checkedInputs: z.object({
    resourceUrn: ResourceUrnSchema,
    walletId: UuidSchema,
    targetWeightsBps: CheckedWeightsSchema,
  }),
  outputs: z.object({
    walletId: UuidSchema,
    /** The target allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`: what allocation diffs show. */
    targetWeightsBps: WeightsByKeySchema,
    /** Blended rate of the wallet in basis points. */
    blendedRateBps: z.number(),
    /** The latest strategy change (requestId, status, signingActivityId, approvals still needed). */
    strategyChange: StrategyChangeStateSchema.nullable(),
    /** `completed`, `pending_approval`, `processing`, or null. */
    strategyChangeStatus: z.string().nullable(),
    /**
     * Each target source's catalog rate in basis points when this stack last set the allocation
     * (at creation, or at the strategy update that asked for it), `{ tbills: 512, syrupUsdc: 640 }`:
     * what `portfolio-wallet watch` compares today's rates with. Null when not recorded (set before
     * this output existed, or the allocation was changed outside the stack).
     */
    appliedRatesBps: AppliedRatesSchema,
  }),
  secretOutputs: [],
  secretCarriesOver: ALLOCATION_SECRETS_CARRY_OVER,
});
