import type * as pulumi from "@pulumi/pulumi";
import type { PositionInput } from "../contract/allocation.ts";
import { noteManagedAllocation } from "./allocationOwnership.ts";
import { resourceClassOf } from "./packageResource.ts";
import { dynamicTypeToken, type ArgsOf } from "./resourceDescriptor.ts";
import type { walletStrategyInputs } from "./walletStrategyDescriptor.ts";
import { walletStrategyDescriptor } from "./walletStrategyDescriptor.ts";

export const WALLET_STRATEGY_TYPE = dynamicTypeToken(walletStrategyDescriptor);

/** Inputs of a {@link WalletStrategy}; each is documented in walletStrategyDescriptor.ts. */
export type WalletStrategyArgs = ArgsOf<typeof walletStrategyInputs, { positions: PositionInput[] }>;

/**
 * The target allocation of a wallet this stack does not create. Deleting it stops managing the
 * allocation and leaves the wallet's allocation as it is. Do not manage the same wallet's
 * allocation with a PortfolioWallet as well.
 */
export class WalletStrategy extends resourceClassOf(walletStrategyDescriptor) {
  // Its output properties, their types and docs: the descriptor's outputs (walletStrategyDescriptor.ts).
  constructor(name: string, args: WalletStrategyArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
    noteManagedAllocation(args.walletId, `WalletStrategy "${name}"`);
  }
}
