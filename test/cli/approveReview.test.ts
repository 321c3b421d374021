import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changeOfActivity, planDisagreement, readStackExport } from "../../cli/report/approvalReview.ts";
import { formatDollars, usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import { readPlan } from "../../cli/report/planFile.ts";
import { YEARLY_YIELD_ASSUMPTION } from "../../cli/report/renderMarkdown.ts";
import { createManualClock } from "../../sandbox/index.ts";
import { generateTurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";
import { ORG, TOKEN, startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { CREATED, OTHER, REVIEWED } from "./fixtures/approval/allocations.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";

/**
 * `portfolio-wallet approve` with the stack's state and a reviewed plan (issue 37): it shows the
 * money impact of the strategy update before signing, and refuses to sign one the plan does not
 * apply, naming what differs, with the activity left unsigned.
 *
 * The plans and stack exports are the engine's own, unedited: test/cli/fixtures/approval/capture.ts
 * wrote them with the offline engine against a sandbox (a TypeScript program on the packed package's
 * dynamic resources, and a YAML program on the native plugin; run it again to regenerate them).
 * Against this file's sandbox only the ids the capture's sandbox gave (the wallet's and the signing
 * activity's) are swapped in the state for this sandbox's. test/consumer/savedPlans.engine.test.ts runs
 * the same command on a plan and state the engine writes during the test.
 */

const ADAPTERS = ["dynamic", "native"] as const;
type Adapter = (typeof ADAPTERS)[number];

const fixture = (adapter: Adapter, name: string) =>
  readFileSync(path.join(import.meta.dirname, "fixtures", "approval", adapter, name));
const fixturePath = (adapter: Adapter, name: string) =>
  path.join(import.meta.dirname, "fixtures", "approval", adapter, name);

/** What the captured state says of its wallet, read plainly (not with the code under test). */
function captured(adapter: Adapter): { walletId: string; activity: string; urn: string } {
  const state = JSON.parse(fixture(adapter, "state.json").toString("utf8"));
  const wallet = state.deployment.resources.find((resource: { urn: string }) =>
    resource.urn.endsWith("::treasury"),
  );
  return {
    walletId: wallet.outputs.walletId,
    activity: wallet.outputs.strategyChange.signingActivityId,
    urn: wallet.urn,
  };
}

describe.each(ADAPTERS)("the review of an approval, on the engine's files of a %s program", (adapter) => {
  const state = () => readStackExport(JSON.parse(fixture(adapter, "state.json").toString("utf8")));
  const plan = () => readPlan(fixture(adapter, "plan.json"));

  test("the state names the wallet and allocation of the activity; another activity is not there", () => {
    const { walletId, activity } = captured(adapter);
    expect(changeOfActivity(state(), activity)).toEqual({
      resource: "treasury",
      walletId,
      weights: REVIEWED,
    });
    expect(changeOfActivity(state(), randomUUID())).toBeNull();
  });

  test("the plan holds no wallet id: the state's resource of the plan's URN gives it", () => {
    const { activity, urn } = captured(adapter);
    const wallet = plan().facts.steps.find((step) => step.urn === urn);
    expect(wallet).toMatchObject({ op: "update", after: REVIEWED, walletId: null });
    expect(planDisagreement(plan(), changeOfActivity(state(), activity)!, state())).toBeNull();
  });

  test("another plan of the wallet is refused, naming each source that differs", () => {
    const change = changeOfActivity(state(), captured(adapter).activity)!;
    expect(planDisagreement(readPlan(fixture(adapter, "other.plan.json")), change, state())).toMatch(
      new RegExp(
        `^the activity's allocation of wallet ${change.walletId} is not the plan's \\(sha256:[0-9a-f]{64}\\): ` +
          `syrupUsdc: the plan ${OTHER["syrupUsdc"]} bps, the activity ${REVIEWED["syrupUsdc"]} bps; ` +
          `tbills: the plan ${OTHER["tbills"]} bps, the activity ${REVIEWED["tbills"]} bps$`,
      ),
    );
  });

  test("the plan of another stack (its URNs in no resource of the state) vouches for nothing", () => {
    const other: Adapter = adapter === "dynamic" ? "native" : "dynamic";
    const change = changeOfActivity(state(), captured(adapter).activity)!;
    expect(planDisagreement(readPlan(fixture(other, "plan.json")), change, state())).toBe(
      `the plan (sha256:${readPlan(fixture(other, "plan.json")).sha256}) sets no allocation of wallet ${change.walletId}; ` +
        `the activity sets syrupUsdc 5000, tbills 5000 (the state has no wallet of the plan's ${captured(other).urn}: ` +
        "export the state of the stack the plan was applied to, after `pulumi up --plan`)",
    );
  });
});

describe("the review of an approval, by hand", () => {
  test("a file that is not a stack export is refused, saying what to pass", () => {
    expect(() => readStackExport({ steps: [] })).toThrow(/pulumi stack export --stack <stack> > state.json/);
  });

  test("a plan's own walletId (a WalletStrategy's input) decides over the state's", () => {
    // A WalletStrategy's plan holds its walletId input (test/consumer/savedPlans.engine.test.ts runs a real
    // one); here it names another wallet than the state's resource of that URN.
    const type = "portfolio-wallet:index:WalletStrategy";
    const urn = `urn:pulumi:prod::treasury::${type}::allocation`;
    const walletId = randomUUID();
    const activity = randomUUID();
    const state = readStackExport({
      deployment: {
        resources: [
          {
            urn,
            outputs: {
              walletId,
              strategyChange: {
                status: "pending_approval",
                signingActivityId: activity,
                targetPositions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
              },
            },
          },
        ],
      },
    });
    const planOf = (id: string) =>
      readPlan(
        Buffer.from(
          JSON.stringify({
            resourcePlans: {
              [urn]: {
                goal: { type },
                steps: ["update"],
                state: { walletId: id, targetWeightsBps: { tbills: 10000 } },
              },
            },
          }),
        ),
      );
    const change = changeOfActivity(state, activity)!;
    expect(planDisagreement(planOf(walletId), change, state)).toBeNull();
    expect(planDisagreement(planOf(randomUUID()), change, state)).toMatch(
      new RegExp(
        `^the plan \\(sha256:[0-9a-f]{64}\\) sets no allocation of wallet ${walletId}; the activity sets tbills 10000$`,
      ),
    );
  });
});

describe("portfolio-wallet approve --state --plan against the sandbox", () => {
  let t: TestSandbox;
  const cwd = useCliDirectory();
  beforeAll(async () => {
    t = await startTestSandbox({ clock: createManualClock(new Date("2026-06-01T00:00:00.000Z")) });
    await t.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 1 } });
  });
  afterAll(() => t.close());

  const positionsOf = (weights: Record<string, number>) =>
    Object.entries(weights).map(([positionKey, targetWeightBps]) => ({ positionKey, targetWeightBps }));

  /** A funded wallet of this sandbox whose update to REVIEWED waits for approval; its activity. */
  async function pendingUpdate(): Promise<{ walletId: string; activity: string }> {
    const created = await t.api("POST", "/v2/portfolio-wallets", {
      body: { requestId: randomUUID(), positions: positionsOf(CREATED) },
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
    const update = await t.api("PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      body: { requestId: randomUUID(), positions: positionsOf(REVIEWED) },
    });
    expect(update.body.status).toBe("pending_approval");
    return { walletId, activity: update.body.signingActivityId as string };
  }

  /** An approver's environment: a key the sandbox registers, and the service's settings. */
  async function approverEnv(): Promise<Record<string, string>> {
    const keys = generateTurnkeyApiKeyPair();
    const registered = await t.api("POST", "/_sandbox/signing/api-keys", {
      body: { publicKey: keys.apiPublicKey, userName: `cli-${randomUUID()}` },
    });
    expect(registered.status).toBe(201);
    return {
      PORTFOLIO_WALLET_BASE_URL: t.url,
      PORTFOLIO_WALLET_API_TOKEN: TOKEN,
      TURNKEY_API_BASE_URL: t.url,
      TURNKEY_ORGANIZATION_ID: ORG,
      TURNKEY_API_PUBLIC_KEY: keys.apiPublicKey,
      TURNKEY_API_PRIVATE_KEY: keys.apiPrivateKey,
    };
  }

  test.each(ADAPTERS)(
    "%s program: shows the money before signing; refuses a strategy update the plan does not apply, leaving it unsigned",
    async (adapter) => {
      const { walletId, activity } = await pendingUpdate();
      // The captured state with this sandbox's wallet and activity in place of the capture's.
      const stateFile = path.join(cwd(), `${adapter}-state.json`);
      writeFileSync(
        stateFile,
        fixture(adapter, "state.json")
          .toString("utf8")
          .replaceAll(captured(adapter).walletId, walletId)
          .replaceAll(captured(adapter).activity, activity),
      );
      const env = await approverEnv();
      const run = (args: string[]) => portfolioWallet(args, { cwd: cwd(), env });

      const refused = await run([
        "approve",
        activity,
        "--state",
        stateFile,
        "--plan",
        fixturePath(adapter, "other.plan.json"),
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        "not signed: the activity's allocation of wallet " + walletId + " is not the plan's",
      );
      expect(refused.stderr).toContain("syrupUsdc: the plan 3000 bps, the activity 5000 bps");
      expect(refused.stdout).toBe("");
      // Nothing was signed: the update still waits.
      const waiting = await t.api("GET", `/v2/portfolio-wallets/${walletId}`);
      expect(
        waiting.body.strategyConfig.positions.find((p: { positionKey: string }) => p.positionKey === "tbills")
          .targetWeightBps,
      ).toBe(CREATED["tbills"]);

      // What the change moves, from the sandbox's own answer (the clock is manual: nothing accrues meanwhile).
      const balances = Object.fromEntries(
        (waiting.body.positions as { positionKey: string; valueUsd: number }[]).map((p) => [
          p.positionKey,
          usdToMicros(p.valueUsd),
        ]),
      );
      const balance = balances["tbills"]! + balances["syrupUsdc"]!;
      const moved = balances["tbills"]! - balance / 2n;

      const approved = await run([
        "approve",
        activity,
        "--state",
        stateFile,
        "--plan",
        fixturePath(adapter, "plan.json"),
      ]);
      expect(approved.code, approved.stderr).toBe(0);
      const lines = approved.stdout.split("\n");
      expect(lines[0]).toBe(`Strategy update of treasury (wallet ${walletId}): syrupUsdc 5000, tbills 5000`);
      // tbills above half the balance moves to syrupUsdc (to the split's micro, within the cent shown).
      expect(
        [moved - 1n, moved, moved + 1n].map(
          (m) => `Moves ${formatDollars(m)} of ${formatDollars(balance)}: `,
        ),
      ).toContain(lines[1]!.slice(0, lines[1]!.indexOf(": ") + 2));
      // Each source once with its change, durations in words, the yearly yield's assumption once.
      expect(lines[1]).toMatch(/: syrupUsdc \+\$[\d,.]+, tbills −\$[\d,.]+ · yearly yield /);
      expect(lines[1]).toContain("within 24 hours");
      expect(lines[1]).not.toMatch(/\bP(?:T\d+[HMS]|\d+[YMWD])/);
      expect(lines[1]).toContain(YEARLY_YIELD_ASSUMPTION);
      expect(approved.stdout.indexOf("Moves")).toBeLessThan(approved.stdout.indexOf("outcome:"));
      expect(approved.stdout).toMatch(/outcome:\s+completed/);
    },
  );

  test("a file that is not a plan or not a state is refused, naming the flag and file, before any vote", async () => {
    const env = await approverEnv();
    const run = (args: string[]) => portfolioWallet(args, { cwd: cwd(), env });
    const activity = randomUUID();
    const state = fixturePath("dynamic", "state.json");
    const notAPlan = await run(["approve", activity, "--state", state, "--plan", state]);
    expect(notAPlan.code).toBe(1);
    expect(notAPlan.stderr).toContain(
      `--plan ${state}: the plan does not look like a file of \`pulumi preview --save-plan\``,
    );
    const missing = path.join(cwd(), "no-such-state.json");
    const noState = await run(["approve", activity, "--state", missing, "--plan", state]);
    expect(noState.code).toBe(1);
    expect(noState.stderr).toContain(`--state ${missing}: cannot read it`);
    const plan = fixturePath("dynamic", "plan.json");
    const notAState = await run(["approve", activity, "--state", plan, "--plan", plan]);
    expect(notAState.code).toBe(1);
    expect(notAState.stderr).toContain(`--state ${plan}: it is not the output of \`pulumi stack export\``);
  });
});
