import * as pulumi from "@pulumi/pulumi";

/**
 * Wallets whose allocation a resource of this program manages. A PortfolioWallet and a
 * WalletStrategy (or two WalletStrategies) on the same wallet would undo each other's target on
 * every `up`, so the second one is reported as an error. This sees one program only; across
 * stacks, the symptom is a refresh showing the other stack's allocation (see docs/provider.md).
 */
const allocationManagers = new Map<string, string>();

export function noteManagedAllocation(walletId: pulumi.Input<string>, manager: string): void {
  void pulumi.output(walletId).apply((id) => {
    // Unknown during preview of a new wallet: nothing to compare yet.
    if (typeof id !== "string" || id === "") return;
    const existing = allocationManagers.get(id);
    if (existing !== undefined && existing !== manager) {
      void pulumi.log.error(
        `${manager} and ${existing} both manage the target allocation of wallet ${id}; each \`pulumi up\` would ` +
          "undo the other's change. Keep the allocation in one resource: drop WalletStrategy for a wallet " +
          "this program creates with PortfolioWallet, or use a single WalletStrategy per wallet.",
      );
      return;
    }
    allocationManagers.set(id, manager);
  });
}
