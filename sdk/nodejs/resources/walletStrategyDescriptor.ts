import { z } from "zod";
import { AllocationSchema } from "../contract/allocation.ts";
import { UuidSchema } from "../contract/common.ts";
import { describeResource, ResourceUrnSchema } from "./resourceDescriptor.ts";
import {
  ALLOCATION_SECRETS_CARRY_OVER,
  StrategyChangeStateSchema,
  WeightsByKeySchema,
} from "./strategyChangeState.ts";

/** WalletStrategy, described once (resourceDescriptor.ts says what follows from it). */
export const walletStrategyDescriptor = describeResource({
  kind: "walletStrategy",
  type: "WalletStrategy",
  module: "walletstrategy",
  classFile: "sdk/nodejs/resources/walletStrategy.ts",
  allocation: "manages",
  serviceIdOutput: "walletId",
  inputs: z.object({
    resourceUrn: ResourceUrnSchema,
    walletId: UuidSchema,
    positions: AllocationSchema,
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
  }),
  secretOutputs: [],
  secretCarriesOver: ALLOCATION_SECRETS_CARRY_OVER,
});
