import {
  microsToUsd,
  type FieldProblem,
  type YieldFigures,
  type YieldMetrics,
  type YieldMetricsRequest,
} from "../../../sdk/contract/index.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { listWalletIds } from "../../store/holdingsStore.ts";
import { listLedgerEntriesOfKind } from "../../store/ledgerStore.ts";
import { accrueWallet } from "./accrual.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/**
 * Yield metrics over a period (spec 4.12), from the ledger:
 * - `generated`: yield accrued in the period. An accrual entry covers [fromAt, at]; the period
 *   counts the part inside it, pro rata by time (whole entries exactly, the one or two entries
 *   straddling a boundary rounded to the micro). Lifetime figures are exact sums.
 * - `withdrawn`: the yield share of payouts completed in (start, end]: a withdrawal carries the
 *   wallet's held yield pro rata (amount × yield held / balance when processing started), and
 *   that share counts as withdrawn when its leg pays out (a failed leg's share goes back and
 *   never counts).
 * - `accruedDelta` = generated − withdrawn: the change in yield still held (in wallets or in flight).
 * Global figures are the sum of the organization's wallets' figures, so the per-wallet figures of
 * all wallets add up to them exactly. Accrual is settled to now first.
 */
export function yieldMetrics(
  deps: MoneyDeps,
  organizationId: string,
  request: YieldMetricsRequest,
): YieldMetrics {
  const now = deps.clock.now().toISOString();
  const startIso = request.periodStartIso ?? null;
  const endIso = request.periodEndIso ?? now;
  const startMs = startIso === null ? Number.NEGATIVE_INFINITY : Date.parse(startIso);
  const endMs = Date.parse(endIso);
  if (startMs > endMs) {
    throw new ValidationError([
      { field: "periodStartIso", reason: `must not be after the period's end (${endIso})` },
    ]);
  }
  const walletIds = listWalletIds(deps.db, organizationId);
  const requested = request.portfolioWalletIds ?? [];
  const unknown: FieldProblem[] = requested.flatMap((id, index) =>
    walletIds.includes(id)
      ? []
      : [{ field: `portfolioWalletIds[${index}]`, reason: `no portfolio wallet ${id}` }],
  );
  if (unknown.length > 0) {
    throw new NotFoundError(`portfolio wallet ${unknown.map((u) => u.field).join(", ")}`, unknown);
  }
  for (const id of walletIds) accrueWallet(deps.db, { id, organizationId }, now);

  const whole = new Map<string, bigint>();
  // Pro rata shares of entries straddling a boundary: fractions of a micro, summed per wallet as
  // doubles and rounded to the micro once.
  const partial = new Map<string, number>();
  const addTo = (map: Map<string, bigint>, id: string, value: bigint) =>
    map.set(id, (map.get(id) ?? 0n) + value);
  for (const entry of listLedgerEntriesOfKind(deps.db, organizationId, "accrual", startIso)) {
    const fromMs = Date.parse(entry.fromAt ?? entry.at);
    const toMs = Date.parse(entry.at);
    if (fromMs >= endMs) continue;
    if (fromMs >= startMs && toMs <= endMs) addTo(whole, entry.walletId, entry.amountMicros);
    else {
      const overlap = Math.min(toMs, endMs) - Math.max(fromMs, startMs);
      if (overlap > 0) {
        const share = (Number(entry.amountMicros) * overlap) / (toMs - fromMs);
        partial.set(entry.walletId, (partial.get(entry.walletId) ?? 0) + share);
      }
    }
  }
  const withdrawn = new Map<string, bigint>();
  for (const entry of listLedgerEntriesOfKind(deps.db, organizationId, "payout_completed", startIso)) {
    if (Date.parse(entry.at) <= endMs) addTo(withdrawn, entry.walletId, entry.yieldMicros);
  }

  type FiguresMicros = { generated: bigint; withdrawn: bigint; accruedDelta: bigint };
  const figuresMicros = (id: string): FiguresMicros => {
    const generated = (whole.get(id) ?? 0n) + BigInt(Math.round(partial.get(id) ?? 0));
    const out = withdrawn.get(id) ?? 0n;
    return { generated, withdrawn: out, accruedDelta: generated - out };
  };
  const toUsd = (f: FiguresMicros): YieldFigures => ({
    generated: microsToUsd(f.generated),
    withdrawn: microsToUsd(f.withdrawn),
    accruedDelta: microsToUsd(f.accruedDelta),
  });
  const total: FiguresMicros = { generated: 0n, withdrawn: 0n, accruedDelta: 0n };
  for (const id of walletIds) {
    const f = figuresMicros(id);
    total.generated += f.generated;
    total.withdrawn += f.withdrawn;
    total.accruedDelta += f.accruedDelta;
  }
  return {
    period: { start: startIso, end: endIso },
    global: toUsd(total),
    portfolioWallets: Object.fromEntries(requested.map((id) => [id, toUsd(figuresMicros(id))])),
  };
}
