import {
  microsToUsd,
  type FieldProblem,
  type YieldFigures,
  type YieldMetrics,
  type YieldMetricsRequest,
} from "../../../sdk/contract/index.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { listLedgerEntriesOfKind, readYieldTotals, type StoredLedgerEntry } from "../../store/ledgerStore.ts";
import { findWallet, firstWalletCreatedAt } from "../../store/walletStore.ts";
import { pendingAccrual, pendingAccrualsOfOrganization, type RateHistories } from "./accrual.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/**
 * Yield metrics over a period (spec 4.12), from the ledger and the yield earned since each wallet's
 * last settlement (computed, not written: accrual.ts):
 * - `generated`: yield accrued in the period. An accrual entry covers [fromAt, at], and a wallet's
 *   unsettled yield [its last settlement, now]; the period counts the part of each inside it, pro
 *   rata by time (whole ones exactly, the one or two straddling a boundary rounded to the micro).
 *   Lifetime figures are exact sums.
 * - `withdrawn`: the yield share of payouts completed in (start, end]: a withdrawal carries the
 *   wallet's held yield pro rata (amount × yield held / balance when processing started), and
 *   that share counts as withdrawn when its leg pays out (a failed leg's share goes back and
 *   never counts).
 * - `accruedDelta` = generated − withdrawn: the change in yield still held (in wallets or in flight).
 * Global figures are the sum of the organization's wallets' figures, exactly. Lifetime global
 * figures come from the organization's running totals and each wallet's unsettled yield (one
 * read of the organization's holdings: the cost of a global request grows with its wallets, see
 * docs/performance.md); a period's, from its ledger range. No start is the lifetime.
 */

type FiguresMicros = { generated: bigint; withdrawn: bigint };
interface Period {
  startMs: number;
  endMs: number;
}

/** The part of `amount`, earned evenly over [fromMs, toMs], that falls inside the period: whole or a fraction. */
function shareInPeriod(
  amount: bigint,
  fromMs: number,
  toMs: number,
  period: Period,
): { whole: bigint; fraction: number } {
  if (fromMs >= period.endMs || toMs <= period.startMs) return { whole: 0n, fraction: 0 };
  if (fromMs >= period.startMs && toMs <= period.endMs) return { whole: amount, fraction: 0 };
  const overlap = Math.min(toMs, period.endMs) - Math.max(fromMs, period.startMs);
  return { whole: 0n, fraction: toMs > fromMs ? (Number(amount) * overlap) / (toMs - fromMs) : 0 };
}

/** Generated yield per wallet from accrual entries and unsettled yield, each wallet rounded once. */
class GeneratedByWallet {
  readonly #whole = new Map<string, bigint>();
  readonly #fraction = new Map<string, number>();
  readonly #period: Period;

  constructor(period: Period) {
    this.#period = period;
  }

  add(walletId: string, amount: bigint, fromMs: number, toMs: number): void {
    const { whole, fraction } = shareInPeriod(amount, fromMs, toMs, this.#period);
    if (whole !== 0n) this.#whole.set(walletId, (this.#whole.get(walletId) ?? 0n) + whole);
    if (fraction !== 0) this.#fraction.set(walletId, (this.#fraction.get(walletId) ?? 0) + fraction);
  }

  addEntry(entry: StoredLedgerEntry): void {
    this.add(entry.walletId, entry.amountMicros, Date.parse(entry.fromAt ?? entry.at), Date.parse(entry.at));
  }

  of(walletId: string): bigint {
    return (this.#whole.get(walletId) ?? 0n) + BigInt(Math.round(this.#fraction.get(walletId) ?? 0));
  }

  total(): bigint {
    let sum = 0n;
    for (const walletId of new Set([...this.#whole.keys(), ...this.#fraction.keys()]))
      sum += this.of(walletId);
    return sum;
  }
}

export function yieldMetrics(
  deps: MoneyDeps,
  organizationId: string,
  request: YieldMetricsRequest,
): YieldMetrics {
  const now = deps.clock.now().toISOString();
  const nowMs = Date.parse(now);
  const endIso = request.periodEndIso ?? now;
  // Without a start, the period is the organization's lifetime: it starts at its first wallet, or
  // at the end when there is none yet (or only later ones), so `period.start` is always a date-time.
  const firstWallet = firstWalletCreatedAt(deps.db, organizationId);
  const startIso =
    request.periodStartIso ??
    (firstWallet !== null && Date.parse(firstWallet) < Date.parse(endIso) ? firstWallet : endIso);
  const lifetime = request.periodStartIso === undefined && request.periodEndIso === undefined;
  const period: Period = {
    startMs: request.periodStartIso === undefined ? Number.NEGATIVE_INFINITY : Date.parse(startIso),
    endMs: Date.parse(endIso),
  };
  if (period.startMs > period.endMs) {
    throw new ValidationError([
      { field: "periodStartIso", reason: `must not be after the period's end (${endIso})` },
    ]);
  }
  const requested = request.portfolioWalletIds ?? [];
  const unknown: FieldProblem[] = requested.flatMap((id, index) =>
    findWallet(deps.db, organizationId, id) !== null
      ? []
      : [{ field: `portfolioWalletIds[${index}]`, reason: `no portfolio wallet ${id}` }],
  );
  if (unknown.length > 0) {
    throw new NotFoundError(`portfolio wallet ${unknown.map((u) => u.field).join(", ")}`, unknown);
  }
  const after = request.periodStartIso ?? null;
  const rates: RateHistories = new Map();
  /** A wallet's yield earned since its last settlement, as an accrual over [last settlement, now]. */
  const addUnsettled = (
    generated: GeneratedByWallet,
    walletId: string,
    pending = pendingAccrual(deps.db, walletId, now, rates),
  ) => {
    if (pending.accruedThrough !== null && pending.earned > 0n) {
      generated.add(walletId, pending.earned, Date.parse(pending.accruedThrough), nowMs);
    }
  };
  const withdrawnIn = (entries: StoredLedgerEntry[]) => {
    const byWallet = new Map<string, bigint>();
    for (const entry of entries) {
      if (Date.parse(entry.at) <= period.endMs) {
        byWallet.set(entry.walletId, (byWallet.get(entry.walletId) ?? 0n) + entry.yieldMicros);
      }
    }
    return byWallet;
  };

  const walletFigures = (walletId: string): FiguresMicros => {
    const generated = new GeneratedByWallet(period);
    for (const entry of listLedgerEntriesOfKind(deps.db, { walletId }, "accrual", after))
      generated.addEntry(entry);
    addUnsettled(generated, walletId);
    const withdrawn = withdrawnIn(listLedgerEntriesOfKind(deps.db, { walletId }, "payout_completed", after));
    return { generated: generated.of(walletId), withdrawn: withdrawn.get(walletId) ?? 0n };
  };

  const globalFigures = (): FiguresMicros => {
    const unsettled = pendingAccrualsOfOrganization(deps.db, organizationId, now, rates);
    if (lifetime) {
      const totals = readYieldTotals(deps.db, organizationId);
      let generated = totals.generated;
      for (const { accrual } of unsettled) generated += accrual.earned;
      return { generated, withdrawn: totals.withdrawn };
    }
    const generated = new GeneratedByWallet(period);
    for (const entry of listLedgerEntriesOfKind(deps.db, { organizationId }, "accrual", after)) {
      generated.addEntry(entry);
    }
    for (const { walletId, accrual } of unsettled) addUnsettled(generated, walletId, accrual);
    let withdrawn = 0n;
    for (const amount of withdrawnIn(
      listLedgerEntriesOfKind(deps.db, { organizationId }, "payout_completed", after),
    ).values()) {
      withdrawn += amount;
    }
    return { generated: generated.total(), withdrawn };
  };

  const toUsd = (f: FiguresMicros): YieldFigures => ({
    generated: microsToUsd(f.generated),
    withdrawn: microsToUsd(f.withdrawn),
    accruedDelta: microsToUsd(f.generated - f.withdrawn),
  });
  return {
    period: { start: startIso, end: endIso },
    global: toUsd(globalFigures()),
    portfolioWallets: Object.fromEntries(requested.map((id) => [id, toUsd(walletFigures(id))])),
  };
}
