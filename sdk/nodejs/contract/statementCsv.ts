import { microsToFixedUsd } from "./money.ts";
import type { Statement } from "./walletStatement.ts";

/** A statement's amount (micros as text) in USD to the micro. */
const statementUsd = (microsText: string): string => microsToFixedUsd(BigInt(microsText));

/**
 * A statement as CSV (RFC 4180): one table, so a spreadsheet or a test reads it with any CSV
 * parser. Its first column says what a row is: `summary` rows (the period's opening balance,
 * totals and closing balance) come first, then one `movement` row per movement, oldest first.
 * Amounts are USD to the micro with six decimals (`1250.500000`), never rounded to the cent, so
 * the rows add up exactly. Written once for the CLI and the console's download.
 */

export const STATEMENT_CSV_COLUMNS = [
  "record",
  "time",
  "kind",
  "id",
  "leg",
  "amount_usd",
  "balance_change_usd",
  "related",
] as const;

/**
 * A field as RFC 4180 writes it: quoted when it holds a comma, a quote, a line break or a
 * leading or trailing space, its quotes doubled. A field starting with `=`, `+`, `-` or `@` that
 * is not a number is prefixed with `'`, so a spreadsheet never runs a label as a formula.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const row = (fields: readonly string[]) => fields.map(csvField).join(",");

/** The statement as CSV text, lines ending in CRLF as RFC 4180 has them. */
export function statementCsv(statement: Statement): string {
  const { from, to } = statement.period;
  const walletName = statement.label === null ? statement.walletId : statement.label;
  const summary = (time: string, kind: string, micros: string, related: string) =>
    row(["summary", time, kind, statement.walletId, "", statementUsd(micros), "", related]);
  const lines = [
    row(STATEMENT_CSV_COLUMNS),
    summary(from, "opening_balance", statement.openingBalanceMicros, walletName),
    summary(to, "deposits", statement.depositsMicros, "deposits detected in the period"),
    summary(to, "withdrawals", statement.withdrawalsMicros, "payout legs debited from the wallet"),
    summary(to, "returned", statement.returnedMicros, "failed or stopped legs back in the wallet"),
    summary(to, "payouts", statement.payoutsMicros, "payout legs paid to their destination"),
    summary(to, "yield", statement.yieldMicros, "yield generated in the period"),
    summary(to, "closing_balance", statement.closingBalanceMicros, walletName),
    ...statement.movements.map((movement) =>
      row([
        "movement",
        movement.at,
        movement.kind,
        movement.id,
        movement.legKey ?? "",
        statementUsd(movement.amountMicros),
        statementUsd(movement.balanceChangeMicros),
        movement.related,
      ]),
    ),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
