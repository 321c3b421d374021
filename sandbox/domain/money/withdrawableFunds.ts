import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../../sdk/nodejs/contract/index.ts";
import { readPositionMicros } from "../../store/holdingsStore.ts";
import { listTargets } from "../../store/walletStore.ts";
import { heldForApprovalMicros } from "../../store/withdrawalStore.ts";
import { sumMicros } from "./micros.ts";
import type { HeldPosition } from "./payoutRouting.ts";

/** Positions holding money, with the liquidity limit the wallet shows for them (walletView's rule). */
export function heldPositions(
  db: DatabaseSync,
  walletId: string,
  catalog: readonly YieldSource[],
): HeldPosition[] {
  const targets = listTargets(db, walletId);
  return [...readPositionMicros(db, walletId)]
    .filter(([, micros]) => micros > 0n)
    .map(([positionKey, micros]) => ({
      positionKey,
      micros,
      maxProcessingTime:
        targets.find((t) => t.positionKey === positionKey)?.maxProcessingTime ??
        catalog.find((e) => e.positionKey === positionKey)?.maxProcessingTime ??
        "PT0H",
    }));
}

/**
 * Micros the wallet can still withdraw: what its positions hold, less what withdrawals awaiting
 * approval hold (`exceptWithdrawalId`'s own hold aside). Pending allocations are not invested yet,
 * so not withdrawable.
 */
export function withdrawableMicros(
  db: DatabaseSync,
  walletId: string,
  exceptWithdrawalId: string | null,
): bigint {
  const held = sumMicros(readPositionMicros(db, walletId).values());
  return held - heldForApprovalMicros(db, walletId, exceptWithdrawalId);
}
