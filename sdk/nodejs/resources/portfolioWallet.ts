import type * as pulumi from "@pulumi/pulumi";
import type { PositionInput } from "../contract/allocation.ts";
import { noteManagedAllocation } from "./allocationOwnership.ts";
import { resourceClassOf } from "./packageResource.ts";
import type { portfolioWalletInputs } from "./portfolioWalletDescriptor.ts";
import { portfolioWalletDescriptor, type OnDelete } from "./portfolioWalletDescriptor.ts";
import { dynamicTypeToken, type ArgsOf } from "./resourceDescriptor.ts";

export const PORTFOLIO_WALLET_TYPE = dynamicTypeToken(portfolioWalletDescriptor);

export type { OnDelete };

/** Inputs of a {@link PortfolioWallet}; each is documented in portfolioWalletDescriptor.ts. */
export type PortfolioWalletArgs = ArgsOf<typeof portfolioWalletInputs, { positions: PositionInput[] }>;

/**
 * A portfolio wallet of the Portfolio Wallet Yield Service: stablecoin funds split across yield
 * sources by target weight. Exposes deposit addresses per chain and the blended rate as outputs.
 *
 * @example
 * const wallet = new PortfolioWallet("treasury", {
 *   positions: [
 *     { positionKey: "tbills", targetWeightBps: 6000 },
 *     { positionKey: "syrupUsdc", targetWeightBps: 4000 },
 *   ],
 * });
 * export const ethereumDepositAddress = wallet.depositAddressByChain.apply((a) => a.ethereum);
 */
export class PortfolioWallet extends resourceClassOf(portfolioWalletDescriptor) {
  // Its output properties, their types and docs: the descriptor's outputs (portfolioWalletDescriptor.ts).
  constructor(name: string, args: PortfolioWalletArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
    noteManagedAllocation(this.walletId, `PortfolioWallet "${name}"`);
  }
}
