import type { DatabaseSync } from "node:sqlite";
import {
  iterateAccrualHoldings,
  readAccrualRemainders,
  type AccrualHoldings,
  readPendingMicros,
  readAccrualState,
  readPositionMicros,
  writeAccrualRemainder,
  writeAccrualState,
  writePositionMicros,
} from "../../store/holdingsStore.ts";
import { appendLedgerEntry, extendAccrualEntry, findLatestAccrualEntry } from "../../store/ledgerStore.ts";
import { listRateHistory } from "../../store/rateHistoryStore.ts";
import { applySourceAccrualChanges } from "../../store/sourceAccrualStore.ts";
import { ACCRUAL_DENOMINATOR, rateUnits, type RatePeriodStart } from "./arithmetic/accrualRates.ts";
import type { PositionUnits } from "./arithmetic/sourceAccrualSums.ts";
import { MAX_WALLET_TOTAL_MICROS } from "./limits.ts";
import { sumMicros } from "./micros.ts";

/**
 * The rate periods over [fromMs, toMs]: ∫ rate dt of each, in (bps × RATE_SCALE) × ms, in order.
 * The rate in force at t is the last history entry that took effect at or before t (the first
 * entry's rate before any took effect), so a catalog rate change applies from its time on and
 * earlier time keeps the earlier rate.
 */
export function rateSegments(history: readonly RatePeriodStart[], fromMs: number, toMs: number): bigint[] {
  const segments: bigint[] = [];
  history.forEach((period, index) => {
    const start = index === 0 ? fromMs : Math.max(fromMs, period.effectiveFromMs);
    const next = history[index + 1];
    const end = next === undefined ? toMs : Math.min(toMs, next.effectiveFromMs);
    if (end > start) segments.push(rateUnits(period.rateBps) * BigInt(end - start));
  });
  return segments;
}

/**
 * Rate histories by position key, as one organization sees them (its own rates and clock: see
 * rateHistoryStore.ts), read once per request and shared by every wallet it views.
 */
export type RateHistories = Map<string, RatePeriodStart[]>;

function rateHistoryOf(
  db: DatabaseSync,
  organizationId: string,
  positionKey: string,
  rates: RateHistories | undefined,
) {
  let history = rates?.get(positionKey);
  if (history === undefined) {
    history = listRateHistory(db, positionKey, organizationId);
    rates?.set(positionKey, history);
  }
  return history;
}

/** What one position has earned since the wallet's last settlement, not yet credited. */
export interface PositionAccrual {
  /** Micros the position held at the last settlement. */
  held: bigint;
  /** Whole micros earned since, rounded down (capped at the wallet's maximum). */
  earned: bigint;
  /** What is left below one micro, carried to the next settlement. */
  remainder: bigint;
}

/** A wallet's accrual since its last settlement, as of `toIso`. */
export interface PendingAccrual {
  /** The last settlement (null: the wallet never held money, so nothing accrues yet). */
  accruedThrough: string | null;
  yieldOutstandingMicros: bigint;
  byPosition: Map<string, PositionAccrual>;
  /** Σ earned. */
  earned: bigint;
}

/**
 * What a wallet's positions have earned since their last settlement, as of `toIso`, computed and
 * never written: the closed form every read uses, and the amounts a settlement credits. Each
 * position earns at its source's rate over the time since the last settlement (simple interest,
 * ACT/365), and at each rate change it is credited as if settled then (a rate change moves money
 * in the sense that yield so far joins the balance that earns the new rate): credits are whole
 * micros rounded down (the sandbox never pays yield it has not earned), the fraction carried.
 * Pending allocations earn nothing (not invested). The same movements, rates and clock give the
 * same figures however often the wallet is read: reading changes nothing.
 */
export function pendingAccrual(
  db: DatabaseSync,
  wallet: { id: string; organizationId: string },
  toIso: string,
  rates?: RateHistories,
): PendingAccrual {
  const walletId = wallet.id;
  const state = readAccrualState(db, walletId);
  const holdings: AccrualHoldings = {
    state,
    positions: readPositionMicros(db, walletId),
    remainders: state === null ? new Map() : readAccrualRemainders(db, walletId),
    pendingMicros: readPendingMicros(db, walletId),
  };
  return accrualOf(holdings, toIso, (positionKey) =>
    rateHistoryOf(db, wallet.organizationId, positionKey, rates),
  );
}

/**
 * pendingAccrual of every wallet of the organization, as of `toIso`, read in one pass over the
 * organization's index range (the ledger audit, which answers for every wallet). The one walk of
 * an organization's wallets the sandbox makes; it writes nothing. Global yield metrics read the
 * organization's running sums per source instead (store/sourceAccrualStore.ts).
 */
export function* pendingAccrualsOfOrganization(
  db: DatabaseSync,
  organizationId: string,
  toIso: string,
  rates: RateHistories = new Map(),
): Generator<{ walletId: string; pendingMicros: bigint; accrual: PendingAccrual }> {
  for (const holdings of iterateAccrualHoldings(db, organizationId)) {
    yield {
      walletId: holdings.walletId,
      pendingMicros: holdings.pendingMicros,
      accrual: accrualOf(holdings, toIso, (positionKey) =>
        rateHistoryOf(db, organizationId, positionKey, rates),
      ),
    };
  }
}

/** The closed form of pendingAccrual over what a wallet holds, with no reads of its own. */
function accrualOf(
  holdings: AccrualHoldings,
  toIso: string,
  historyOf: (positionKey: string) => readonly RatePeriodStart[],
): PendingAccrual {
  const { state, positions, remainders, pendingMicros } = holdings;
  const byPosition = new Map<string, PositionAccrual>();
  if (state === null) {
    for (const [key, held] of positions) byPosition.set(key, { held, earned: 0n, remainder: 0n });
    return { accruedThrough: null, yieldOutstandingMicros: 0n, byPosition, earned: 0n };
  }
  const fromMs = Date.parse(state.accruedThrough);
  const toMs = Date.parse(toIso);
  // Yield stops at the per-wallet maximum (limits.ts): what would pass it is not credited.
  let room = MAX_WALLET_TOTAL_MICROS - sumMicros(positions.values()) - pendingMicros;
  let earned = 0n;
  // In key order, whichever order they were read in: the cap is taken position by position.
  for (const [positionKey, held] of [...positions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let remainder = remainders.get(positionKey) ?? 0n;
    let credited = 0n;
    const segments = held > 0n && toMs > fromMs ? rateSegments(historyOf(positionKey), fromMs, toMs) : [];
    for (const integral of segments) {
      const numerator = (held + credited) * integral + remainder;
      const whole = numerator / ACCRUAL_DENOMINATOR;
      const credit = whole < room ? whole : room > 0n ? room : 0n;
      room -= credit;
      credited += credit;
      remainder = numerator % ACCRUAL_DENOMINATOR;
    }
    earned += credited;
    byPosition.set(positionKey, { held, earned: credited, remainder });
  }
  return {
    accruedThrough: state.accruedThrough,
    yieldOutstandingMicros: state.yieldOutstandingMicros,
    byPosition,
    earned,
  };
}

/** A wallet's position values as of `toIso`: what they held at the last settlement and what they earned since. */
export function livePositionMicros(
  db: DatabaseSync,
  wallet: { id: string; organizationId: string },
  toIso: string,
  rates?: RateHistories,
): Map<string, bigint> {
  return liveValues(pendingAccrual(db, wallet, toIso, rates));
}

/** livePositionMicros of holdings already read (readAccrualHoldingsOfWallets: a page of wallets at once). */
export function livePositionMicrosOf(
  db: DatabaseSync,
  organizationId: string,
  holdings: AccrualHoldings,
  toIso: string,
  rates?: RateHistories,
): Map<string, bigint> {
  return liveValues(
    accrualOf(holdings, toIso, (positionKey) => rateHistoryOf(db, organizationId, positionKey, rates)),
  );
}

const liveValues = (pending: PendingAccrual): Map<string, bigint> =>
  new Map([...pending.byPosition].map(([key, position]) => [key, position.held + position.earned]));

/** How long one accrual ledger entry may grow: a settlement within it extends the entry instead of adding one. */
export const ACCRUAL_PERIOD_MS = 24 * 60 * 60 * 1000;

/**
 * Settles a wallet's accrual up to `toIso`, before money moves in or out of its positions (a
 * deposit is allocated, a withdrawal draws, a payout leg returns, a rebalance): the earned micros
 * become part of the positions, so later accrual starts from the new balances. Only money
 * movements settle; reads compute the same figures without writing (pendingAccrual).
 *
 * Each credit is an `accrual` ledger entry over [from, toIso]. A position's latest entry that began
 * less than an accrual period ago (a day of sandbox time) and ends at the last settlement is
 * extended instead: a wallet whose money moves often still has about one accrual entry per
 * position per day, however many movements. Returns the micros credited. A wallet settled for the
 * first time starts accruing now.
 */
export function accrueWallet(
  db: DatabaseSync,
  wallet: { id: string; organizationId: string },
  toIso: string,
): bigint {
  const pending = pendingAccrual(db, wallet, toIso);
  if (pending.accruedThrough === null) {
    // Whatever its positions hold starts earning now, and joins the organization's sums now.
    const remainders = readAccrualRemainders(db, wallet.id);
    for (const [positionKey, position] of pending.byPosition) {
      const after = unitsOf(position.held, remainders.get(positionKey) ?? 0n, toIso);
      if (after === null) continue;
      const change = { before: null, after, heldDelta: position.held, creditedDelta: 0n };
      applySourceAccrualChanges(db, wallet.organizationId, positionKey, [change], toIso);
    }
    writeAccrualState(db, wallet.id, { accruedThrough: toIso, yieldOutstandingMicros: 0n });
    return 0n;
  }
  if (!(Date.parse(toIso) > Date.parse(pending.accruedThrough))) return 0n;
  const remaindersBefore = readAccrualRemainders(db, wallet.id);
  for (const [positionKey, position] of pending.byPosition) {
    if (position.held <= 0n) continue;
    // The organization's sums for the source: the position's money since the last settlement
    // leaves them, the same money with its yield credited joins them, earning from now on.
    applySourceAccrualChanges(
      db,
      wallet.organizationId,
      positionKey,
      [
        {
          before: unitsOf(position.held, remaindersBefore.get(positionKey) ?? 0n, pending.accruedThrough),
          after: unitsOf(position.held + position.earned, position.remainder, toIso),
          heldDelta: position.earned,
          creditedDelta: position.earned,
        },
      ],
      toIso,
    );
    writeAccrualRemainder(db, wallet.id, positionKey, position.remainder);
    if (position.earned > 0n) {
      writePositionMicros(db, wallet.id, positionKey, position.held + position.earned, toIso);
    }
    // The entry is extended only while it ends where this settlement starts, so each entry covers
    // time the position was invested throughout (its yield is spread over that span by period
    // figures); a settlement that credits nothing still extends it, keeping it contiguous.
    const latest = findLatestAccrualEntry(db, wallet.id, positionKey);
    const extendable =
      latest !== null &&
      latest.at === pending.accruedThrough &&
      Date.parse(toIso) - Date.parse(latest.fromAt ?? latest.at) < ACCRUAL_PERIOD_MS;
    if (extendable) {
      extendAccrualEntry(db, latest, position.earned, toIso);
    } else if (position.earned > 0n) {
      appendLedgerEntry(db, {
        organizationId: wallet.organizationId,
        walletId: wallet.id,
        kind: "accrual",
        positionKey,
        amountMicros: position.earned,
        yieldMicros: position.earned,
        refId: null,
        detail: null,
        fromAt: pending.accruedThrough,
        at: toIso,
      });
    }
  }
  writeAccrualState(db, wallet.id, {
    accruedThrough: toIso,
    yieldOutstandingMicros: pending.yieldOutstandingMicros + pending.earned,
  });
  return pending.earned;
}

/** A position as the organization's source sums count it (sourceAccrualStore.ts): nothing while it holds nothing. */
function unitsOf(held: bigint, remainder: bigint, sinceIso: string): PositionUnits | null {
  return held > 0n ? { units: held * ACCRUAL_DENOMINATOR + remainder, sinceMs: Date.parse(sinceIso) } : null;
}

/**
 * Sets what a position holds when money moves in or out of it at `at` (a deposit allocated, a
 * withdrawal debited, a payout leg returned, a rebalance), after accrueWallet has settled the
 * wallet: the organization's sums for the source change by the same money in the same
 * transaction. Every write of a position's micros but accrual's own goes through here.
 */
export function setPositionMicros(
  db: DatabaseSync,
  wallet: { id: string; organizationId: string },
  positionKey: string,
  micros: bigint,
  at: string,
): void {
  const state = readAccrualState(db, wallet.id);
  // A wallet never settled earns nothing yet: its positions join the sums at its first settlement.
  if (state === null) return writePositionMicros(db, wallet.id, positionKey, micros, at);
  const held = readPositionMicros(db, wallet.id).get(positionKey) ?? 0n;
  const remainder = readAccrualRemainders(db, wallet.id).get(positionKey) ?? 0n;
  const since = state.accruedThrough;
  applySourceAccrualChanges(
    db,
    wallet.organizationId,
    positionKey,
    [
      {
        before: unitsOf(held, remainder, since),
        after: unitsOf(micros, remainder, since),
        heldDelta: micros - held,
        creditedDelta: 0n,
      },
    ],
    at,
  );
  writePositionMicros(db, wallet.id, positionKey, micros, at);
}

/** Moves `deltaMicros` of held yield in or out (a withdrawal's yield share leaving or coming back). */
export function addYieldOutstanding(
  db: DatabaseSync,
  walletId: string,
  deltaMicros: bigint,
  at: string,
): void {
  const state = readAccrualState(db, walletId) ?? { accruedThrough: at, yieldOutstandingMicros: 0n };
  writeAccrualState(db, walletId, {
    ...state,
    yieldOutstandingMicros: state.yieldOutstandingMicros + deltaMicros,
  });
}
