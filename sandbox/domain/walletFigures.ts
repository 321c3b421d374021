import { findWallet } from "../store/walletStore.ts";
import type { MoneyDeps, WalletRef } from "./money/moneyDeps.ts";
import { walletView } from "./walletView.ts";

/**
 * Emits `portfolio_wallet.balance.updated` and, when positions moved, `portfolio_wallet.position.updated`
 * with the wallet's figures as the API shows them. Accrual alone emits nothing: a balance that
 * grows every millisecond would flood receivers; the next event carries the current figures.
 */
export function emitWalletFigures(
  deps: Pick<MoneyDeps, "db" | "catalog" | "events">,
  wallet: WalletRef,
  at: string,
  options: { positionsMoved: boolean },
): void {
  const record = findWallet(deps.db, wallet.organizationId, wallet.id);
  if (record === null) return;
  const view = walletView(deps.db, record, deps.catalog(wallet.organizationId), {
    includeRequestId: false,
    at,
  });
  deps.events.emit(
    wallet.organizationId,
    "portfolio_wallet.balance.updated",
    {
      portfolioWalletId: wallet.id,
      totalBalanceUsd: view.totalBalanceUsd,
      instantWithdrawableUsd: view.instantWithdrawableUsd,
      pendingAllocationsUsd: view.pendingAllocationsUsd,
    },
    at,
  );
  if (!options.positionsMoved) return;
  deps.events.emit(
    wallet.organizationId,
    "portfolio_wallet.position.updated",
    {
      portfolioWalletId: wallet.id,
      positions: view.positions.map((p) => ({
        positionKey: p.positionKey,
        valueUsd: p.valueUsd,
        weightBps: p.weightBps,
        balanceUnits: p.balanceUnits,
        driftBps: p.driftBps,
      })),
    },
    at,
  );
}
