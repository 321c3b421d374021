import type { DatabaseSync } from "node:sqlite";
import { microsToUsd } from "../../../sdk/nodejs/contract/index.ts";
import { listWalletLedgerEntries, type StoredLedgerEntry } from "../../store/ledgerStore.ts";
import { findWallet } from "../../store/walletStore.ts";
import { NotFoundError } from "../errors.ts";

/** The most ledger entries a history replays: past it, the history stops there and says so. */
export const MAX_HISTORY_ENTRIES = 20_000;

/** A wallet's figures just after the ledger entries of one moment (sandbox clock). */
export interface WalletHistoryPoint {
  at: string;
  /** Positions plus pending allocations: what the wallet holds. */
  balanceUsd: number;
  /** Yield generated since the wallet was created. */
  yieldGeneratedUsd: number;
  /** What each yield source holds. */
  positions: Record<string, number>;
}

/** One source's move in a withdrawal leg's detail (withdrawalLedger.ts). */
const legSources = (entry: StoredLedgerEntry): { positionKey: string; micros: bigint }[] => {
  const parsed = JSON.parse(entry.detail ?? "{}") as { sources?: { positionKey: string; micros: string }[] };
  return (parsed.sources ?? []).map((source) => ({
    positionKey: source.positionKey,
    micros: BigInt(source.micros),
  }));
};

/**
 * A wallet's balance, positions and generated yield over sandbox time, replayed from its ledger
 * (one point per moment something was booked). Entries are applied in the order of their time:
 * an accrual entry grows in place while its period lasts (ledgerStore.ts), so its yield counts
 * at its last extension, a step where the wallet earned gradually. Yield accruing since the last
 * booking is not in the ledger yet: the wallet's own read has it.
 */
export function walletHistory(
  db: DatabaseSync,
  organizationId: string,
  walletId: string,
): { points: WalletHistoryPoint[]; truncated: boolean } {
  if (findWallet(db, organizationId, walletId) === null)
    throw new NotFoundError(`portfolio wallet ${walletId}`);
  const entries = listWalletLedgerEntries(db, walletId, MAX_HISTORY_ENTRIES + 1);
  const truncated = entries.length > MAX_HISTORY_ENTRIES;
  const ordered = entries
    .slice(0, MAX_HISTORY_ENTRIES)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.seq - b.seq));
  const positions = new Map<string, bigint>();
  const move = (positionKey: string | null, micros: bigint) => {
    if (positionKey !== null) positions.set(positionKey, (positions.get(positionKey) ?? 0n) + micros);
  };
  let pending = 0n;
  let generated = 0n;
  const points: WalletHistoryPoint[] = [];
  for (const entry of ordered) {
    switch (entry.kind) {
      case "deposit_detected":
        pending += entry.amountMicros;
        break;
      case "deposit_allocated":
        pending -= entry.amountMicros;
        move(entry.positionKey, entry.amountMicros);
        break;
      case "accrual":
        generated += entry.amountMicros;
        move(entry.positionKey, entry.amountMicros);
        break;
      case "rebalance":
        move(entry.positionKey, entry.amountMicros);
        break;
      case "withdrawal_debited":
        for (const source of legSources(entry)) move(source.positionKey, -source.micros);
        break;
      case "payout_returned":
        for (const source of legSources(entry)) move(source.positionKey, source.micros);
        break;
      case "payout_completed":
        break;
    }
    let held = pending;
    for (const micros of positions.values()) held += micros;
    const point: WalletHistoryPoint = {
      at: entry.at,
      balanceUsd: microsToUsd(held),
      yieldGeneratedUsd: microsToUsd(generated),
      positions: Object.fromEntries([...positions].map(([key, micros]) => [key, microsToUsd(micros)])),
    };
    // Entries of one moment make one point: the figures after all of them.
    if (points.at(-1)?.at === entry.at) points[points.length - 1] = point;
    else points.push(point);
  }
  return { points, truncated };
}
