import { z } from "zod";
import { DateTimeSchema, UuidSchema } from "./common.ts";
import { STATEMENT_MOVEMENT_KINDS, statementPeriodProblems } from "./statementPeriod.ts";

/**
 * A wallet's statement over a period, as JSON (docs/cli.md "statement"): what the CLI's
 * `--format json`, the client's `statements.retrieve` and the console's download give. Amounts are
 * whole micro-units as decimal strings (`"1250500000"` is $1,250.50), so no reader parses a
 * double. Computed once, by `walletStatement` (walletStatement.ts).
 */

const MicrosTextSchema = z.string().regex(/^-?\d+$/, "must be whole micro-units as decimal digits");

/** A period `(from, to]`, each a date-time; `from` before `to`. Problems name `from` or `to`. */
export const StatementPeriodSchema = z
  .object({ from: DateTimeSchema, to: DateTimeSchema })
  .superRefine((period, context) => {
    for (const problem of statementPeriodProblems(period))
      context.addIssue({ code: "custom", path: [problem.field], message: problem.reason });
  });
export type StatementPeriodInput = z.infer<typeof StatementPeriodSchema>;

export const StatementMovementSchema = z.object({
  at: DateTimeSchema,
  kind: z.enum(STATEMENT_MOVEMENT_KINDS),
  /** The deposit's or withdrawal's id; the wallet's for its yield. */
  id: z.string(),
  /** The payout leg (`instant`, `redeem`, …) of a withdrawal's movements; null otherwise. */
  legKey: z.string().nullable(),
  /** The money moved, never negative. */
  amountMicros: MicrosTextSchema,
  /** What the movement did to the wallet's balance: + in, − out, 0 for a payout (it left at debit). */
  balanceChangeMicros: MicrosTextSchema,
  /** What the movement relates to, in words: the deposit's chain and transaction, a payout's destination. */
  related: z.string(),
});

export const StatementSchema = z.object({
  walletId: UuidSchema,
  label: z.string().nullable(),
  period: z.object({ from: DateTimeSchema, to: DateTimeSchema }),
  openingBalanceMicros: MicrosTextSchema,
  depositsMicros: MicrosTextSchema,
  withdrawalsMicros: MicrosTextSchema,
  /** Money of failed or stopped payout legs that came back to the wallet in the period. */
  returnedMicros: MicrosTextSchema,
  /** Legs paid to their destination in the period (money that had left the balance at its debit). */
  payoutsMicros: MicrosTextSchema,
  /** Yield generated in the period: the service's yield metrics for the wallet and the period. */
  yieldMicros: MicrosTextSchema,
  /** opening + deposits − withdrawals + returned + yield. */
  closingBalanceMicros: MicrosTextSchema,
  movements: z.array(StatementMovementSchema),
});
