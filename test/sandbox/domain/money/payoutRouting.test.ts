import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  UNKNOWN_LIQUIDITY_PAYOUT_DELAY_MS,
  planPayoutLegs,
  type HeldPosition,
} from "../../../../sandbox/domain/money/payoutRouting.ts";

const usd = (amount: number) => BigInt(amount) * 1_000_000n;
const held = (positionKey: string, amount: number, maxProcessingTime: string): HeldPosition => ({
  positionKey,
  micros: usd(amount),
  maxProcessingTime,
});
const HOUR = 3_600_000;

describe("planPayoutLegs", () => {
  test("pays from instant money first, then one redeem leg", () => {
    const plans = planPayoutLegs([held("tbills", 600, "PT24H"), held("syrupUsdc", 400, "PT0H")], usd(700));
    expect(plans).toEqual([
      {
        legKey: "instant",
        maxProcessingTime: "PT0H",
        delayMs: 0,
        amountMicros: usd(400),
        sources: [{ positionKey: "syrupUsdc", micros: usd(400) }],
      },
      {
        legKey: "redeem",
        maxProcessingTime: "PT24H",
        delayMs: 24 * HOUR,
        amountMicros: usd(300),
        sources: [{ positionKey: "tbills", micros: usd(300) }],
      },
    ]);
  });

  test("keys redeem legs by liquidity limit when several are needed, fastest first", () => {
    const plans = planPayoutLegs(
      [held("rlp", 500, "PT168H"), held("tbills", 500, "PT24H"), held("syrup", 100, "PT0H")],
      usd(1100),
    );
    expect(plans?.map((p) => [p.legKey, p.amountMicros])).toEqual([
      ["instant", usd(100)],
      ["redeem_PT24H", usd(500)],
      ["redeem_PT168H", usd(500)],
    ]);
  });

  test("needs no redeem leg when instant money covers the amount", () => {
    expect(
      planPayoutLegs([held("tbills", 600, "PT24H"), held("syrup", 400, "PT0H")], usd(400))?.map(
        (p) => p.legKey,
      ),
    ).toEqual(["instant"]);
  });

  test("is null when the positions hold less than the amount", () => {
    expect(planPayoutLegs([held("tbills", 600, "PT24H")], usd(600) + 1n)).toBeNull();
  });

  test("groups equal limits written differently, positions paying in proportion to what they hold", () => {
    const plans = planPayoutLegs([held("a", 300, "P1D"), held("b", 100, "PT24H")], usd(200));
    expect(plans).toHaveLength(1);
    expect(plans?.[0]?.legKey).toBe("redeem");
    expect(plans?.[0]?.sources).toEqual([
      { positionKey: "a", micros: usd(150) },
      { positionKey: "b", micros: usd(50) },
    ]);
  });

  test("never counts money of an unparseable limit as instant: it pays last, after 30 days", () => {
    const plans = planPayoutLegs([held("mystery", 500, "soon"), held("tbills", 500, "PT24H")], usd(800));
    expect(plans?.map((p) => [p.legKey, p.delayMs, p.amountMicros])).toEqual([
      ["redeem_PT24H", 24 * HOUR, usd(500)],
      ["redeem_soon", UNKNOWN_LIQUIDITY_PAYOUT_DELAY_MS, usd(300)],
    ]);
  });

  test("legs always sum to the amount, and no position pays more than it holds", () => {
    const position = fc.record({
      positionKey: fc.string({ minLength: 1, maxLength: 6 }),
      micros: fc.bigInt({ min: 0n, max: 10n ** 18n }),
      maxProcessingTime: fc.constantFrom("PT0H", "PT24H", "P1D", "PT168H", "soon"),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(position, { selector: (p) => p.positionKey, maxLength: 6 }),
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        (positions, amount) => {
          const total = positions.reduce((sum, p) => sum + p.micros, 0n);
          const plans = planPayoutLegs(positions, amount);
          if (amount > total) return plans === null;
          if (plans === null) return false;
          const paid = new Map<string, bigint>();
          for (const plan of plans) {
            const sourcesSum = plan.sources.reduce((sum, s) => sum + s.micros, 0n);
            if (sourcesSum !== plan.amountMicros) return false;
            for (const s of plan.sources) paid.set(s.positionKey, (paid.get(s.positionKey) ?? 0n) + s.micros);
          }
          const legsSum = plans.reduce((sum, p) => sum + p.amountMicros, 0n);
          const delays = plans.map((p) => p.delayMs);
          return (
            legsSum === amount &&
            positions.every((p) => (paid.get(p.positionKey) ?? 0n) <= p.micros) &&
            delays.every((d, i) => i === 0 || (delays[i - 1] ?? 0) < d)
          );
        },
      ),
    );
  });
});
