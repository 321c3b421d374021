import type { Deposit } from "./deposit.ts";
import { sumMicros, usdToMicros, type Micros } from "./money.ts";
import type { StatementSchema } from "./statement.ts";
import {
  statementPeriodProblems,
  type StatementMovementKind,
  type StatementPeriod,
} from "./statementPeriod.ts";
import type { Withdrawal } from "./withdrawal.ts";
import type { YieldFigures } from "./yieldMetrics.ts";
import type { z } from "zod";

/**
 * A wallet's statement over a period, computed once from what the service's API answers, for the
 * client (and so the CLI) and the sandbox's console alike. No zod here (types only), so the
 * console's bundle may import it.
 *
 * Definitions (docs/cli.md "statement"; the figures the API lacked, docs/spec-gaps.md):
 * - The period is `(from, to]`, as the yield metrics count it: a movement at `from` belongs to
 *   the period before.
 * - The balance is what the wallet holds: its positions and its pending allocations
 *   (`totalBalanceUsd`); money of a withdrawal in flight is no longer in it.
 * - A deposit counts at its `createdAt` (when it was detected, as pending allocation); a failed
 *   deposit never counts.
 * - A withdrawal leg leaves the balance at its payout's `debitedAt`, is paid at `paidAt` (no
 *   change to the balance: it had left) and, failed or stopped, comes back at `returnedAt`.
 * - Yield is the service's own figure for the wallet and the period (`generated` of
 *   POST /v2/portfolio-wallets/yield): the statement adds it up, never recomputes it.
 * - The closing balance is the money moved through `to` (deposits − legs debited + legs
 *   returned) plus the wallet's yield generated through `to` (the yield metrics with no start);
 *   the opening balance is the closing one less the period's movements, so that
 *   opening + deposits − withdrawals + returned + yield = closing, to the micro.
 */

export type Statement = z.infer<typeof StatementSchema>;
export type StatementMovement = Statement["movements"][number];

/** What a statement is computed from: the API's own answers, read for the wallet. */
export interface StatementInputs {
  wallet: { id: string; label?: string | null | undefined };
  period: StatementPeriod;
  /** Every deposit of the wallet made by `period.to` (later ones are ignored). */
  deposits: readonly Deposit[];
  /** Every withdrawal of the wallet made by `period.to`, whole (GET …/withdrawals/{id}: with payouts). */
  withdrawals: readonly Withdrawal[];
  /** The wallet's yield metrics for the period (`periodStartIso` from, `periodEndIso` to). */
  yieldInPeriod: YieldFigures;
  /** The wallet's yield metrics with no start and `periodEndIso` to: its yield through `to`. */
  yieldThroughEnd: YieldFigures;
}

/** A statement cannot be made from what the service answered (a figure it needs is missing). */
export class StatementInputError extends Error {
  override readonly name = "StatementInputError";
}

interface DatedMovement {
  atMs: number;
  movement: Omit<StatementMovement, "amountMicros" | "balanceChangeMicros">;
  amount: Micros;
  balanceChange: Micros;
}

const KIND_ORDER: Record<StatementMovementKind, number> = {
  deposit: 0,
  withdrawal: 1,
  payout: 2,
  returned: 3,
  yield: 4,
};

function timeOf(text: string, what: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new StatementInputError(`${what} is not a date-time: ${JSON.stringify(text)}`);
  return ms;
}

/** Every movement of the wallet's money up to `to`, with its effect on the balance. */
function movementsOf(inputs: StatementInputs): DatedMovement[] {
  const movements: DatedMovement[] = [];
  for (const deposit of inputs.deposits) {
    if (deposit.status === "failed") continue;
    const amount = usdToMicros(deposit.amountUsd);
    movements.push({
      atMs: timeOf(deposit.createdAt, `deposit ${deposit.id}'s createdAt`),
      movement: {
        at: deposit.createdAt,
        kind: "deposit",
        id: deposit.id,
        legKey: null,
        related: `${deposit.chain} transaction ${deposit.txHash}`,
      },
      amount,
      balanceChange: amount,
    });
  }
  for (const withdrawal of inputs.withdrawals) {
    for (const payout of withdrawal.payouts ?? []) {
      const amount = usdToMicros(payout.amount);
      const destination = `${payout.token} to ${payout.destinationAddress} on ${payout.chain}`;
      const leg = (kind: StatementMovementKind, at: string, balanceChange: Micros, related: string) =>
        movements.push({
          atMs: timeOf(at, `withdrawal ${withdrawal.id}'s ${payout.legKey} leg`),
          movement: { at, kind, id: withdrawal.id, legKey: payout.legKey, related },
          amount,
          balanceChange,
        });
      if (typeof payout.debitedAt !== "string") {
        throw new StatementInputError(
          `withdrawal ${withdrawal.id}'s ${payout.legKey} payout carries no debitedAt, so the statement cannot date when it left the wallet (docs/spec-gaps.md, "Statements")`,
        );
      }
      leg("withdrawal", payout.debitedAt, -amount, destination);
      if (typeof payout.paidAt === "string") leg("payout", payout.paidAt, 0n, destination);
      if (typeof payout.returnedAt === "string")
        leg("returned", payout.returnedAt, amount, `back to the wallet from ${destination}`);
    }
  }
  return movements;
}

/** The wallet's statement over the period (the definitions above). Throws a StatementInputError. */
export function walletStatement(inputs: StatementInputs): Statement {
  const problem = statementPeriodProblems(inputs.period)[0];
  if (problem !== undefined) throw new StatementInputError(`${problem.field} ${problem.reason}`);
  const fromMs = Date.parse(inputs.period.from);
  const toMs = Date.parse(inputs.period.to);
  const through = movementsOf(inputs).filter((m) => m.atMs <= toMs);
  const inPeriod = through
    .filter((m) => m.atMs > fromMs)
    .sort((a, b) => a.atMs - b.atMs || KIND_ORDER[a.movement.kind] - KIND_ORDER[b.movement.kind]);
  const total = (kind: StatementMovementKind) =>
    sumMicros(inPeriod.filter((m) => m.movement.kind === kind).map((m) => m.amount));
  const deposits = total("deposit");
  const withdrawals = total("withdrawal");
  const returned = total("returned");
  const payouts = total("payout");
  const yieldMicros = usdToMicros(inputs.yieldInPeriod.generated);
  const closing =
    sumMicros(through.map((m) => m.balanceChange)) + usdToMicros(inputs.yieldThroughEnd.generated);
  const opening = closing - deposits + withdrawals - returned - yieldMicros;
  const text = microsToDecimalText;
  const movements: StatementMovement[] = inPeriod.map((m) => ({
    ...m.movement,
    amountMicros: text(m.amount),
    balanceChangeMicros: text(m.balanceChange),
  }));
  if (yieldMicros !== 0n) {
    movements.push({
      at: new Date(toMs).toISOString(),
      kind: "yield",
      id: inputs.wallet.id,
      legKey: null,
      amountMicros: text(yieldMicros < 0n ? -yieldMicros : yieldMicros),
      balanceChangeMicros: text(yieldMicros),
      related: "yield generated in the period (POST /v2/portfolio-wallets/yield)",
    });
  }
  return {
    walletId: inputs.wallet.id,
    label: inputs.wallet.label ?? null,
    period: { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() },
    openingBalanceMicros: text(opening),
    depositsMicros: text(deposits),
    withdrawalsMicros: text(withdrawals),
    returnedMicros: text(returned),
    payoutsMicros: text(payouts),
    yieldMicros: text(yieldMicros),
    closingBalanceMicros: text(closing),
    movements,
  };
}

/** Micros as the statement's JSON writes them: whole micro-units in decimal digits. */
const microsToDecimalText = (micros: Micros): string => micros.toString();
