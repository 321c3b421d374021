/**
 * A statement's period and the kinds of its movements: what both the statement's schemas
 * (statement.ts) and its computation (walletStatement.ts) stand on. No zod here, so the console's
 * bundle may import it.
 */

export const STATEMENT_MOVEMENT_KINDS = ["deposit", "withdrawal", "payout", "returned", "yield"] as const;
export type StatementMovementKind = (typeof STATEMENT_MOVEMENT_KINDS)[number];

/** A period `(from, to]` as ISO 8601 date-times. */
export interface StatementPeriod {
  from: string;
  to: string;
}

/**
 * What is wrong with a period, each problem naming its field (`from` or `to`): a date-time that
 * does not parse, or a `to` not after `from`. Empty when the period is sound.
 */
export function statementPeriodProblems(period: StatementPeriod): { field: "from" | "to"; reason: string }[] {
  const fromMs = Date.parse(period.from);
  const toMs = Date.parse(period.to);
  const problems: { field: "from" | "to"; reason: string }[] = [];
  if (Number.isNaN(fromMs))
    problems.push({ field: "from", reason: "must be a date-time such as 2026-11-01T00:00:00Z" });
  if (Number.isNaN(toMs))
    problems.push({ field: "to", reason: "must be a date-time such as 2026-12-01T00:00:00Z" });
  if (problems.length === 0 && toMs <= fromMs)
    problems.push({
      field: "to",
      reason: `must be after from (${period.from}): a period ends after it starts`,
    });
  return problems;
}
