// Tests of the contract's unknown-positionKey rule and quoteValue (sdk/nodejs/contract/catalog.ts, errors.ts).
import { describe, expect, test } from "vitest";
import {
  MAX_QUOTED_VALUE_LENGTH,
  quoteValue,
  unknownPositionKeyProblems,
} from "../../../sdk/nodejs/contract/index.ts";

const CATALOG = [{ positionKey: "tbills" }, { positionKey: "resolvRlp" }, { positionKey: "syrupUsdc" }];

describe("unknownPositionKeyProblems", () => {
  test("names every unknown key at its path, each reason listing the valid keys", () => {
    const problems = unknownPositionKeyProblems(
      [{ positionKey: "tbills" }, { positionKey: "bitcoin" }, { positionKey: "moonShot" }],
      CATALOG,
      "strategy.positions",
    );
    expect(problems).toEqual([
      {
        field: "strategy.positions[1].positionKey",
        reason: 'unknown positionKey "bitcoin"; valid keys are: tbills, resolvRlp, syrupUsdc',
      },
      {
        field: "strategy.positions[2].positionKey",
        reason: 'unknown positionKey "moonShot"; valid keys are: tbills, resolvRlp, syrupUsdc',
      },
    ]);
  });

  test("leaves keys that are not strings to the schema, and defaults the path to positions", () => {
    expect(unknownPositionKeyProblems([{ positionKey: 7 }, {}], CATALOG)).toEqual([]);
    expect(unknownPositionKeyProblems([{ positionKey: "x" }], CATALOG)[0]?.field).toBe(
      "positions[0].positionKey",
    );
  });

  test("quotes a huge key cut to 200 characters", () => {
    const [problem] = unknownPositionKeyProblems([{ positionKey: "k".repeat(1_000_000) }], CATALOG);
    expect(problem?.reason.length).toBeLessThan(300);
    expect(problem?.reason).toContain("(1000002 characters)");
  });
});

describe("quoteValue", () => {
  test("quotes short values as JSON and cuts long ones to at most 200 characters", () => {
    expect(quoteValue("bitcoin")).toBe('"bitcoin"');
    expect(quoteValue(7)).toBe("7");
    const cut = quoteValue("x".repeat(5000));
    expect(cut.length).toBeLessThanOrEqual(MAX_QUOTED_VALUE_LENGTH);
    expect(cut).toMatch(/^"x+… \(5002 characters\)$/);
  });
});
