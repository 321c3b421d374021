import type * as pulumi from "@pulumi/pulumi";
import type { PositionInput } from "../contract/allocation.ts";
import { noteManagedAllocation } from "./allocationOwnership.ts";
import { resourceClassOf } from "./packageResource.ts";
import { portfolioWalletDescriptor, type OnDelete } from "./portfolioWalletDescriptor.ts";
import { dynamicTypeToken } from "./resourceDescriptor.ts";

export const PORTFOLIO_WALLET_TYPE = dynamicTypeToken(portfolioWalletDescriptor);

export type { OnDelete };

/** Inputs of a {@link PortfolioWallet}. */
export interface PortfolioWalletArgs {
  /**
   * Target allocation: yield sources (`positionKey` from the strategy catalog) with weights in
   * basis points that sum to exactly 10000. The positions of a quote option can be passed as they
   * are; extra fields are ignored. Changing it rebalances the wallet through a strategy update,
   * which may need an approval.
   */
  positions: pulumi.Input<pulumi.Input<PositionInput>[]>;
  /** Free label. Fixed at creation: the service cannot rename a wallet. */
  label?: pulumi.Input<string>;
  /**
   * What `pulumi destroy` (or removing the resource) does. The service has no wallet delete.
   * - `"fail-if-funded"` (default): an empty wallet leaves the stack; a wallet holding any balance,
   *   including pending allocations, makes the delete fail with its balance.
   * - `"retain"`: the resource leaves the stack while the wallet and its funds stay at the service.
   * Apply the change with `pulumi up` before destroying: delete reads the value from state.
   */
  onDelete?: pulumi.Input<OnDelete>;
  /**
   * Bring an existing wallet under management instead of creating one. The wallet must belong to
   * the API token's organization; its allocation is then reconciled to `positions`. Fixed after
   * creation. (With the native provider, `pulumi import` adopts a wallet too; TypeScript's dynamic
   * resources cannot be imported, so this is their way.)
   */
  adoptWalletId?: pulumi.Input<string>;
}

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
