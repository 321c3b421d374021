import type * as pulumi from "@pulumi/pulumi";
import type { PositionInput } from "../contract/allocation.ts";
import { noteManagedAllocation } from "./allocationOwnership.ts";
import type { StrategyChangeState } from "./strategyChangeState.ts";
import { typeTokenOf, type OnDelete } from "./resourceTypes.ts";
import { PackageResource } from "./packageResource.ts";

export const PORTFOLIO_WALLET_TYPE = typeTokenOf("portfolioWallet");

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
export class PortfolioWallet extends PackageResource {
  /** The wallet id at the service (also the resource id). */
  declare readonly walletId: pulumi.Output<string>;
  /**
   * The target allocation as a map, `{ tbills: 6000, syrupUsdc: 4000 }`: what this resource
   * applies, and what allocation diffs show. After a refresh, the allocation the service applies.
   */
  declare readonly targetWeightsBps: pulumi.Output<Record<string, number>>;
  /** Free label, fixed at creation. */
  declare readonly label: pulumi.Output<string | undefined>;
  /** What `pulumi destroy` does with the wallet: `fail-if-funded` (default) or `retain`. */
  declare readonly onDelete: pulumi.Output<OnDelete>;
  /** `active`; other statuses may appear. */
  declare readonly status: pulumi.Output<string>;
  /**
   * Deposit addresses per chain, `{ ethereum: "0x…", solana: "…" }`, including chains added after
   * this package: what other stacks feed on. (Per-chain balances move on their own; read them live
   * with `getWallet()`.)
   */
  declare readonly depositAddressByChain: pulumi.Output<Record<string, string>>;
  /** Blended rate of the wallet in basis points, as of the last `up` or refresh. */
  declare readonly blendedRateBps: pulumi.Output<number>;
  /** The requestId the wallet was created with, derived from this resource's URN (null when adopted). */
  declare readonly creationRequestId: pulumi.Output<string | null>;
  /**
   * The latest strategy change: its requestId, status, signingActivityId and, while it waits for
   * approvers, how many approvals are still needed. Null when none was made.
   */
  declare readonly strategyChange: pulumi.Output<StrategyChangeState | null>;
  /**
   * The latest change's status alone (`completed`, `pending_approval`: approve it at the signing
   * provider, `processing`, or null): a scalar a pipeline can export and gate on, beside the record.
   */
  declare readonly strategyChangeStatus: pulumi.Output<string | null>;

  constructor(name: string, args: PortfolioWalletArgs, opts?: pulumi.CustomResourceOptions) {
    super("portfolioWallet", name, { ...args, ...outputPlaceholders }, opts);
    noteManagedAllocation(this.walletId, `PortfolioWallet "${name}"`);
  }
}

/**
 * Output properties start unknown; the provider fills them in. Each property costs the program
 * time per resource (the SDK tracks every one), so there are only as many as users need.
 */
const outputPlaceholders = {
  walletId: undefined,
  targetWeightsBps: undefined,
  status: undefined,
  depositAddressByChain: undefined,
  blendedRateBps: undefined,
  creationRequestId: undefined,
  strategyChange: undefined,
  strategyChangeStatus: undefined,
};
