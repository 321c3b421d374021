import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../../clock.ts";
import { findWallet } from "../../store/walletStore.ts";
import type { ApprovalDeps } from "../approvals.ts";
import type { EventSink } from "../events/eventSink.ts";
import type { FaultRegistry } from "../faults.ts";
import { walletView } from "../walletView.ts";

/** What the money-flow functions need, built once per sandbox. */
export interface MoneyDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  /** The catalog as an organization sees it (its own rates, where it has them). */
  catalog: (organizationId: string) => YieldSource[];
  events: EventSink;
  approvals: ApprovalDeps;
  faults: FaultRegistry;
  /** How long a detected deposit takes to reach its positions, in sandbox-clock ms. */
  depositProcessingDelayMs: number;
  /** Tells the due-work scheduler that new work was scheduled (domain/dueWorkScheduler.ts). */
  wake(): void;
}

/**
 * Emits `portfolio_wallet.balance.updated` and, when positions moved, `portfolio_wallet.position.updated`
 * with the wallet's figures as the API shows them. Accrual alone emits nothing: a balance that
 * grows every millisecond would flood receivers; the next event carries the current figures.
 */
export function emitWalletFigures(
  deps: MoneyDeps,
  wallet: { id: string; organizationId: string },
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
