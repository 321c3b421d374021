import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changeOfActivity, planDisagreement } from "../../cli/report/approvalReview.ts";
import { dollars } from "../../cli/report/format.ts";
import { readPlan } from "../../cli/report/planFile.ts";
import { usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import { createManualClock } from "../../sandbox/index.ts";
import { generateTurnkeyApiKeyPair } from "../approval/turnkeyKeys.ts";
import { ORG, TOKEN, startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";

/**
 * `portfolio-wallet approve` with the stack's state and a reviewed plan (issue 37): it shows the
 * money impact of the strategy update before signing, and refuses to sign one the plan does not
 * apply, naming what differs, with the activity left unsigned.
 */

const WALLET_TYPE = "portfolio-wallet:index:PortfolioWallet";
const urnOf = (name: string) => `urn:pulumi:prod::treasury::${WALLET_TYPE}::${name}`;

function stateWith(walletId: string, signingActivityId: string, weights: Record<string, number>) {
  return {
    deployment: {
      resources: [
        { urn: "urn:pulumi:prod::treasury::pulumi:pulumi:Stack::treasury-prod", outputs: {} },
        {
          urn: urnOf("treasury"),
          outputs: {
            walletId,
            strategyChange: {
              status: "pending_approval",
              signingActivityId,
              targetPositions: Object.entries(weights).map(([positionKey, targetWeightBps]) => ({
                positionKey,
                targetWeightBps,
              })),
            },
          },
        },
      ],
    },
  };
}

function planWith(walletId: string, weights: Record<string, number>) {
  return {
    manifest: { version: "3.259.0" },
    resourcePlans: {
      [urnOf("treasury")]: {
        goal: { type: WALLET_TYPE },
        steps: ["update"],
        state: { walletId, targetWeightsBps: weights },
      },
    },
  };
}

describe("the review of an approval", () => {
  const walletId = randomUUID();
  const activity = randomUUID();

  test("the state names the wallet and allocation of an activity; another activity is not there", () => {
    const state = stateWith(walletId, activity, { tbills: 5000, syrupUsdc: 5000 });
    expect(changeOfActivity(state, activity)).toEqual({
      resource: "treasury",
      walletId,
      weights: { tbills: 5000, syrupUsdc: 5000 },
    });
    expect(changeOfActivity(state, randomUUID())).toBeNull();
    expect(() => changeOfActivity({ steps: [] }, activity)).toThrow(/pulumi stack export/);
  });

  test("a plan of the same allocation agrees; another allocation or wallet is named", () => {
    const change = { resource: "treasury", walletId, weights: { tbills: 5000, syrupUsdc: 5000 } };
    const plan = (weights: Record<string, number>, id = walletId) =>
      readPlan(Buffer.from(JSON.stringify(planWith(id, weights))));
    expect(planDisagreement(plan({ syrupUsdc: 5000, tbills: 5000 }), change)).toBeNull();
    expect(planDisagreement(plan({ tbills: 6000, syrupUsdc: 4000 }), change)).toMatch(
      /not the plan's \(sha256:[0-9a-f]{64}\): syrupUsdc: the plan 4000 bps, the activity 5000 bps; tbills: the plan 6000 bps, the activity 5000 bps$/,
    );
    expect(planDisagreement(plan({ tbills: 5000, syrupUsdc: 5000 }, randomUUID()), change)).toMatch(
      new RegExp(`sets no allocation of wallet ${walletId}`),
    );
  });
});

describe("portfolio-wallet approve --state --plan against the sandbox", () => {
  let t: TestSandbox;
  const cwd = useCliDirectory();
  beforeAll(async () => {
    t = await startTestSandbox({ clock: createManualClock(new Date("2026-06-01T00:00:00.000Z")) });
  });
  afterAll(() => t.close());

  test("shows the money before signing; refuses a strategy update the plan does not apply, leaving it unsigned", async () => {
    const created = await t.api("POST", "/v2/portfolio-wallets", {
      body: {
        requestId: randomUUID(),
        positions: [
          { positionKey: "tbills", targetWeightBps: 6000 },
          { positionKey: "syrupUsdc", targetWeightBps: 4000 },
        ],
      },
    });
    const walletId = created.body.id as string;
    await t.api("POST", "/_sandbox/deposits", {
      body: {
        chain: "ethereum",
        address: created.body.depositAddresses.ethereum.address,
        amount: 1_000_000,
        txHash: `0x${randomUUID().replaceAll("-", "")}`,
      },
    });
    await t.api("POST", "/_sandbox/clock/advance", { body: { seconds: 7200 } });
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
    const half = { tbills: 5000, syrupUsdc: 5000 };
    const update = await t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: {
        requestId: randomUUID(),
        positions: Object.entries(half).map(([positionKey, targetWeightBps]) => ({
          positionKey,
          targetWeightBps,
        })),
      },
    });
    expect(update.body.status).toBe("pending_approval");
    const activity = update.body.signingActivityId as string;

    const stateFile = path.join(cwd(), "state.json");
    writeFileSync(stateFile, JSON.stringify(stateWith(walletId, activity, half)));
    const otherPlan = path.join(cwd(), "other-plan.json");
    writeFileSync(otherPlan, JSON.stringify(planWith(walletId, { tbills: 7000, syrupUsdc: 3000 })));
    const reviewedPlan = path.join(cwd(), "plan.json");
    writeFileSync(reviewedPlan, JSON.stringify(planWith(walletId, half)));

    const keys = generateTurnkeyApiKeyPair();
    const registered = await t.api("POST", "/_sandbox/signing/api-keys", {
      body: { publicKey: keys.apiPublicKey, userName: `cli-${randomUUID()}` },
    });
    expect(registered.status).toBe(201);
    const env = {
      PORTFOLIO_WALLET_BASE_URL: t.url,
      PORTFOLIO_WALLET_API_TOKEN: TOKEN,
      TURNKEY_API_BASE_URL: t.url,
      TURNKEY_ORGANIZATION_ID: ORG,
      TURNKEY_API_PUBLIC_KEY: keys.apiPublicKey,
      TURNKEY_API_PRIVATE_KEY: keys.apiPrivateKey,
    };
    const run = (args: string[]) => portfolioWallet(args, { cwd: cwd(), env });

    const refused = await run(["approve", activity, "--state", stateFile, "--plan", otherPlan]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "not signed: the activity's allocation of wallet " + walletId + " is not the plan's",
    );
    expect(refused.stderr).toContain("syrupUsdc: the plan 3000 bps, the activity 5000 bps");
    // Nothing was signed: the update still waits.
    const waiting = await t.api("GET", `/v2/portfolio-wallets/${walletId}`);
    expect(
      waiting.body.strategyConfig.positions.find((p: { positionKey: string }) => p.positionKey === "tbills")
        .targetWeightBps,
    ).toBe(6000);

    // What the change moves, from the sandbox's own answer (the clock is manual: nothing accrues meanwhile).
    const balances = Object.fromEntries(
      (waiting.body.positions as { positionKey: string; valueUsd: number }[]).map((p) => [
        p.positionKey,
        usdToMicros(p.valueUsd),
      ]),
    );
    const balance = balances["tbills"]! + balances["syrupUsdc"]!;
    const moved = balances["tbills"]! - balance / 2n;

    const approved = await run(["approve", activity, "--state", stateFile, "--plan", reviewedPlan]);
    expect(approved.code, approved.stderr).toBe(0);
    const lines = approved.stdout.split("\n");
    expect(lines[0]).toBe(`Strategy update of treasury (wallet ${walletId}): tbills 5000, syrupUsdc 5000`);
    // tbills above half the balance moves to syrupUsdc (to the split's micro, within the cent shown).
    expect(
      [moved - 1n, moved, moved + 1n].map((m) => `Moves ${dollars(m)} of ${dollars(balance)} · `),
    ).toContain(lines[1]!.slice(0, lines[1]!.indexOf("· ") + 2));
    expect(approved.stdout.indexOf("Moves")).toBeLessThan(approved.stdout.indexOf("outcome:"));
    expect(approved.stdout).toMatch(/outcome:\s+completed/);
  });
});
