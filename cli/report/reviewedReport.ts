import { z } from "zod";
import { describeFieldProblems, fieldProblemsOf } from "../../sdk/nodejs/contract/index.ts";
import type { Micros } from "../../sdk/nodejs/contract/money.ts";
import { StrategyChangeStateSchema } from "../../sdk/nodejs/resources/strategyChangeState.ts";
import type { PreviewFacts } from "./previewSteps.ts";

/**
 * The pull request's report as the merge job keeps it (`portfolio-wallet report --plan plan.json
 * --format json`, in the plan's artifact), read by allowlist: per wallet what the merge check
 * holds the service to (the dollars moved, the balance, the positions) and what the state recorded
 * of its allocation. Tolerant of every other field, strict on these: amounts are micros as decimal
 * strings, as the report writes them.
 */

const MicrosSchema = z
  .string()
  .regex(/^-?\d+$/, 'expected micros as a decimal string, such as "1000000"')
  .transform((text): Micros => BigInt(text));

const WeightsSchema = z.record(z.string(), z.number());

const ReviewedWalletSchema = z.looseObject({
  urn: z.string(),
  name: z.string(),
  kind: z.string(),
  op: z.string(),
  walletId: z.string().nullable(),
  money: z.looseObject({
    impact: z
      .looseObject({
        balanceMicros: MicrosSchema,
        pendingMicros: MicrosSchema,
        movedMicros: MicrosSchema,
        sources: z.array(z.looseObject({ positionKey: z.string(), nowMicros: MicrosSchema })),
      })
      .nullable(),
    reason: z.string().optional(),
  }),
  atService: z
    .looseObject({
      verdict: z.string(),
      serviceBps: WeightsSchema,
      recordedBps: WeightsSchema,
      recordedChange: StrategyChangeStateSchema.nullable(),
    })
    .nullable(),
});

const ReviewedReportSchema = z.looseObject({
  project: z.string().nullable(),
  stack: z.string().nullable(),
  plan: z.looseObject({ sha256: z.string() }).nullable(),
  catalog: z.looseObject({ readAt: z.string() }),
  wallets: z.array(ReviewedWalletSchema),
});

export type ReviewedWallet = z.output<typeof ReviewedWalletSchema>;
export interface ReviewedReport {
  stack: string | null;
  /** The digest of the plan the report was made with. */
  planSha256: string;
  /** When the report read the service (its catalog and wallets). */
  readAt: string;
  wallets: ReviewedWallet[];
}

const MAKE_IT =
  "pass the JSON the pull request's preview job kept with its plan: `portfolio-wallet report --preview preview.json --plan plan.json --format json --output report.json`";

/** Reads the reviewed report; throws naming the flag, the field and what to pass. */
export function readReviewedReport(text: string, flag: string): ReviewedReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${flag} is not JSON: ${MAKE_IT}`);
  }
  const parsed = ReviewedReportSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `${flag} is not a report of \`portfolio-wallet report --format json\` of this version ` +
        `(${describeFieldProblems(fieldProblemsOf(parsed.error))}): ${MAKE_IT}`,
    );
  }
  if (parsed.data.plan === null) {
    throw new Error(
      `${flag} names no plan (it was made without --plan), so nothing ties it to what the merge applies: ${MAKE_IT}`,
    );
  }
  return {
    stack: parsed.data.stack,
    planSha256: parsed.data.plan.sha256,
    readAt: parsed.data.catalog.readAt,
    wallets: parsed.data.wallets,
  };
}

/**
 * The plan's steps with what the reviewed report read of the stack's state, which a plan does not
 * hold (its planned state has the inputs only, not outputs such as the wallet id): each wallet's
 * id, and the state's allocation of each wallet the review checked at the service. So the
 * report's computation, run again on the plan, reads the same wallets and asks the provider's rule
 * of outside changes against the service now.
 */
export function withReviewedState(plan: PreviewFacts, reviewed: ReviewedReport): PreviewFacts {
  const byUrn = new Map(reviewed.wallets.map((wallet) => [wallet.urn, wallet]));
  return {
    ...plan,
    steps: plan.steps.map((step) => {
      const wallet = byUrn.get(step.urn);
      if (wallet === undefined) return step;
      const withId = { ...step, walletId: step.walletId ?? wallet.walletId };
      const atService = wallet.atService;
      if (atService === null) return withId;
      return {
        ...withId,
        before: atService.recordedBps,
        recorded: { weights: atService.recordedBps, change: atService.recordedChange },
      };
    }),
  };
}
