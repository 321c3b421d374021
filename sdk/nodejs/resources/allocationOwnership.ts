import * as pulumi from "@pulumi/pulumi";

/**
 * Which resource of this program manages each wallet's allocation. A PortfolioWallet and a
 * WalletStrategy (or two WalletStrategies) on the same wallet would undo each other's target on
 * every `up`, so the second one is reported as an error. This sees one program only; across
 * stacks, the symptom is a refresh showing the other stack's allocation (see docs/provider.md).
 *
 * The record belongs to the program run, which is one process, and resource constructors cannot be
 * handed a context; so it is one process-wide map, under a `Symbol.for` key so that the ES-module
 * and the CommonJS copy of this package, loaded by the same program, share it.
 */
const PROGRAM_ALLOCATION_MANAGERS = Symbol.for("@portfolio-wallet/pulumi.programAllocationManagers");

function allocationManagersOfThisProgram(): Map<string, string> {
  const holder = globalThis as { [PROGRAM_ALLOCATION_MANAGERS]?: Map<string, string> };
  return (holder[PROGRAM_ALLOCATION_MANAGERS] ??= new Map());
}

export function noteManagedAllocation(walletId: pulumi.Input<string>, manager: string): void {
  void pulumi.output(walletId).apply((id) => {
    // Unknown during preview of a new wallet: nothing to compare yet.
    if (typeof id !== "string" || id === "") return;
    const managers = allocationManagersOfThisProgram();
    const existing = managers.get(id);
    if (existing !== undefined && existing !== manager) {
      void pulumi.log.error(
        `${manager} and ${existing} both manage the target allocation of wallet ${id}; each \`pulumi up\` would ` +
          "undo the other's change. Keep the allocation in one resource: drop WalletStrategy for a wallet " +
          "this program creates with PortfolioWallet, or use a single WalletStrategy per wallet.",
      );
      return;
    }
    managers.set(id, manager);
  });
}
