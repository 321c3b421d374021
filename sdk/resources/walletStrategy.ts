import type * as pulumi from "@pulumi/pulumi";
import type { PositionInput } from "../contract/allocation.ts";
import { noteManagedAllocation } from "./allocationOwnership.ts";
import { typeTokenOf } from "./resourceTypes.ts";
import { PackageResource } from "./packageResource.ts";
import type { StrategyChangeState } from "./strategyChangeState.ts";

export const WALLET_STRATEGY_TYPE = typeTokenOf("walletStrategy");

/** Inputs of a {@link WalletStrategy}. */
export interface WalletStrategyArgs {
  /** Id of an existing wallet, for example from another stack's outputs through a `StackReference`. */
  walletId: pulumi.Input<string>;
  /**
   * Target allocation: `positionKey`s from the catalog with weights in basis points summing to
   * exactly 10000. Applied through a strategy update, which may need an approval.
   */
  positions: pulumi.Input<pulumi.Input<PositionInput>[]>;
}

/**
 * The target allocation of a wallet this stack does not create. Deleting it stops managing the
 * allocation and leaves the wallet's allocation as it is. Do not manage the same wallet's
 * allocation with a PortfolioWallet as well.
 */
export class WalletStrategy extends PackageResource {
  declare readonly walletId: pulumi.Output<string>;
  /** The target allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`: what allocation diffs show. */
  declare readonly targetWeightsBps: pulumi.Output<Record<string, number>>;
  /** Blended rate of the wallet in basis points. */
  declare readonly blendedRateBps: pulumi.Output<number>;
  /** The latest strategy change (requestId, status, signingActivityId, approvals still needed). */
  declare readonly strategyChange: pulumi.Output<StrategyChangeState | null>;
  /** `completed`, `pending_approval`, `processing`, or null. */
  declare readonly strategyChangeStatus: pulumi.Output<string | null>;

  constructor(name: string, args: WalletStrategyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      "walletStrategy",
      name,
      {
        ...args,
        targetWeightsBps: undefined,
        blendedRateBps: undefined,
        strategyChange: undefined,
        strategyChangeStatus: undefined,
      },
      opts,
    );
    noteManagedAllocation(args.walletId, `WalletStrategy "${name}"`);
  }
}
