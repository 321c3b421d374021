import { readPositionMicros } from "../../store/holdingsStore.ts";
import { appendLedgerEntry } from "../../store/ledgerStore.ts";
import type { TargetRecord } from "../../store/walletStore.ts";
import { accrueWallet, setPositionMicros } from "./accrual.ts";
import { splitByWeights, sumMicros } from "./micros.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/**
 * Moves a wallet's invested money onto a new target allocation at `at` (a completed strategy
 * update): accrual is settled first, at the old weights; then the positions' total is split by
 * target weight in exact micros, and positions no longer targeted are emptied. Each change is a
 * signed `rebalance` ledger entry; the entries of one rebalance sum to zero. Pending allocations
 * and money in flight are untouched.
 */
export function rebalanceWallet(
  deps: MoneyDeps,
  wallet: { id: string; organizationId: string },
  targets: readonly TargetRecord[],
  at: string,
  strategyUpdateId: string,
): void {
  accrueWallet(deps.db, wallet, at);
  const held = readPositionMicros(deps.db, wallet.id);
  const total = sumMicros(held.values());
  const shares = splitByWeights(
    total,
    targets.map((t) => t.targetWeightBps),
  );
  const next = new Map<string, bigint>([...held.keys()].map((key) => [key, 0n]));
  targets.forEach((target, index) => next.set(target.positionKey, shares[index] ?? 0n));
  let moved = false;
  for (const [positionKey, micros] of next) {
    const delta = micros - (held.get(positionKey) ?? 0n);
    if (delta === 0n) continue;
    moved = true;
    setPositionMicros(deps.db, wallet, positionKey, micros, at);
    appendLedgerEntry(deps.db, {
      organizationId: wallet.organizationId,
      walletId: wallet.id,
      kind: "rebalance",
      positionKey,
      amountMicros: delta,
      yieldMicros: 0n,
      refId: strategyUpdateId,
      detail: null,
      fromAt: null,
      at,
    });
  }
  if (moved) deps.emitWalletFigures(wallet, at, { positionsMoved: true });
}
