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

/** The values of `onDelete`: what `pulumi destroy` does with a wallet (the service has no wallet delete). */
export const ON_DELETE_CHOICES = ["fail-if-funded", "retain"] as const;

/**
 * What `pulumi destroy` (or removing the resource) does with a wallet; see
 * `PortfolioWalletArgs.onDelete`. The provider accepts exactly these values.
 */
export type OnDelete = (typeof ON_DELETE_CHOICES)[number];

/**
 * The inputs of a PortfolioWallet, each documented here: the class's `PortfolioWalletArgs` and the
 * package schema read these docs (resourceDescriptor.ts's ArgsOf says why a shape of its own).
 * They reuse the contract's request schemas, so a value the service would reject is rejected by
 * check() first, before any network call.
 */
export const portfolioWalletInputs = {
  resourceUrn: ResourceUrnSchema,
  /**
   * Target allocation: yield sources (`positionKey` from the strategy catalog) with weights in
   * basis points that sum to exactly 10000. The positions of a quote option can be passed as they
   * are; extra fields are ignored. Changing it rebalances the wallet through a strategy update,
   * which may need an approval.
   */
  positions: AllocationSchema,
  /** Free label. Fixed at creation: the service cannot rename a wallet. */
  label: z.string().max(200, "must be at most 200 characters").optional(),
  /**
   * What `pulumi destroy` (or removing the resource) does. The service has no wallet delete.
   * - `"fail-if-funded"` (default): an empty wallet leaves the stack; a wallet holding any balance,
   *   including pending allocations, makes the delete fail with its balance.
   * - `"retain"`: the resource leaves the stack while the wallet and its funds stay at the service.
   * Apply the change with `pulumi up` before destroying: delete reads the value from state.
   */
  onDelete: z
    .enum(ON_DELETE_CHOICES, { error: 'must be "fail-if-funded" (the default) or "retain"' })
    .optional(),
  /**
   * Bring an existing wallet under management instead of creating one. The wallet must belong to
   * the API token's organization; its allocation is then reconciled to `positions`. Fixed after
   * creation. (With the native provider, `pulumi import` adopts a wallet too; TypeScript's dynamic
   * resources cannot be imported, so this is their way.)
   */
  adoptWalletId: UuidSchema.optional(),
};

/** PortfolioWallet, described once (resourceDescriptor.ts says what follows from it). */
export const portfolioWalletDescriptor = describeResource({
  kind: "portfolioWallet",
  type: "PortfolioWallet",
  module: "portfoliowallet",
  classFile: "sdk/nodejs/resources/portfolioWallet.ts",
  allocation: "owns",
  allocationFields: {
    walletId: "walletId",
    adoptWalletId: "adoptWalletId",
    positions: "positions",
    weights: "targetWeightsBps",
    strategyChange: "strategyChange",
  },
  serviceIdOutput: "walletId",
  inputs: z.object(portfolioWalletInputs),
  /** The program's `positions` become `targetWeightsBps`, the map state keeps and diffs show. */
  checkedInputs: z.object({
    resourceUrn: ResourceUrnSchema,
    targetWeightsBps: CheckedWeightsSchema,
    label: portfolioWalletInputs.label,
    onDelete: portfolioWalletInputs.onDelete,
    adoptWalletId: portfolioWalletInputs.adoptWalletId,
  }),
  outputs: z.object({
    /** The wallet id at the service (also the resource id). */
    walletId: UuidSchema,
    /**
     * The target allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`: what this resource
     * applies, and what allocation diffs show. After a refresh, the allocation the service applies.
     */
    targetWeightsBps: WeightsByKeySchema,
    /** Free label, fixed at creation. */
    label: z.string().optional(),
    /** What `pulumi destroy` does with the wallet: `fail-if-funded` (default) or `retain`. */
    onDelete: z.enum(ON_DELETE_CHOICES),
    adoptWalletId: UuidSchema.optional(),
    /** `active`; other statuses may appear. */
    status: z.string(),
    /**
     * Deposit addresses per chain, `{ ethereum: "0x…", solana: "…" }`, including chains added after
     * this package: what other stacks feed on. (Per-chain balances move on their own; read them live
     * with `getWallet()`.)
     */
    depositAddressByChain: z.record(z.string(), z.string()),
    /** Blended rate of the wallet in basis points, as of the last `up` or refresh. */
    blendedRateBps: z.number(),
    /** The requestId the wallet was created with, derived from this resource's URN (null when adopted). */
    creationRequestId: z.string().nullable(),
    /**
     * The latest strategy change: its requestId, status, signingActivityId and, while it waits for
     * approvers, how many approvals are still needed. Null when none was made.
     */
    strategyChange: StrategyChangeStateSchema.nullable(),
    /**
     * The latest change's status alone (`completed`, `pending_approval`: approve it at the signing
     * provider, `processing`, or null): a scalar a pipeline can export and gate on, beside the record.
     */
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
