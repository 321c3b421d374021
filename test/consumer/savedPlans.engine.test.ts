import { createHash, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { portfolioWallet } from "../cli/harness.ts";
import { startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import {
  callSandbox,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../support/sandboxAccess.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import { yamlWithPositions } from "../native/harness/yamlPositions.ts";
import { ConsumerProject } from "./harness/consumerProject.ts";
import { packedPackage } from "./harness/packedPackage.ts";
import { configSetAll } from "../support/pulumiConfig.ts";
import { formatDollars, usdToMicros } from "../../sdk/nodejs/contract/index.ts";
import { generateTurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";

/**
 * What the GitOps workflow does (examples/github-actions), through the real engine, both ways a
 * program can use the provider: a TypeScript program of the packed package's dynamic resources, and
 * a YAML program on the native plugin. Every change is applied with `pulumi up --plan` from a plan
 * saved by `pulumi preview --save-plan`: a wallet and webhook created, a reweight with a webhook
 * change, a WalletStrategy fed by another stack's output, and an approval-gated reweight. A
 * program changed after its plan was saved is refused by the engine ("violates plan") before the
 * service receives a single write.
 */

type Weights = Record<string, number>;
const A: Weights = { tbills: 6000, syrupUsdc: 4000 };
const B: Weights = { tbills: 5000, syrupUsdc: 5000 };
const CHANGED: Weights = { tbills: 4000, syrupUsdc: 6000 };
const S1: Weights = { tbills: 3000, resolvRlp: 7000 };
const S2: Weights = { tbills: 1000, resolvRlp: 9000 };
const REVIEWED: Weights = { tbills: 3000, syrupUsdc: 7000 };
const OUTSIDE: Weights = { tbills: 10000 };

/** As the merge job runs it: the engine lists `--plan` only with PULUMI_EXPERIMENTAL=true. */
const EXPERIMENTAL = { PULUMI_EXPERIMENTAL: "true" };

interface Project {
  dir: string;
  pulumi(args: string[], env?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

/** One way of running the scenario: two stacks (a wallet, and a strategy fed by its output) in one backend. */
interface Way {
  token: string;
  wallet: Project;
  strategy: Project;
  walletStackName: string;
  setWalletProgram(weights: Weights, webhookEnabled: boolean): Promise<void>;
  setStrategyProgram(weights: Weights): Promise<void>;
  cleanUp(): void;
}

const programsDir = path.join(import.meta.dirname, "programs");
const nativeProgramsDir = path.join(import.meta.dirname, "..", "native", "programs");

let t: TestSandbox;
const ways: Partial<Record<"dynamic" | "native", Way>> = {};

const allocationFile = (weights: Weights) =>
  `${JSON.stringify({ positions: Object.entries(weights).map(([positionKey, targetWeightBps]) => ({ positionKey, targetWeightBps })) }, null, 2)}\n`;

async function dynamicWay(token: string): Promise<Way> {
  const tarball = await packedPackage();
  const wallet = await ConsumerProject.fromTemplate(
    path.join(programsDir, "plan-wallet"),
    "plan-wallet",
    tarball,
  );
  const strategy = await ConsumerProject.fromTemplate(
    path.join(programsDir, "plan-strategy"),
    "plan-strategy",
    tarball,
  );
  // One backend for both stacks, so the StackReference finds the wallet stack.
  const shared = { PULUMI_BACKEND_URL: wallet.env()["PULUMI_BACKEND_URL"]! };
  return {
    token,
    wallet: { dir: wallet.dir, pulumi: (args, env = {}) => wallet.pulumi(args, env) },
    strategy: { dir: strategy.dir, pulumi: (args, env = {}) => strategy.pulumi(args, { ...shared, ...env }) },
    walletStackName: "organization/plan-wallet/dev",
    async setWalletProgram(weights, webhookEnabled) {
      wallet.writeFile("allocation.json", allocationFile(weights));
      await wallet.pulumi(["config", "set", "webhookEnabled", String(webhookEnabled)]);
    },
    async setStrategyProgram(weights) {
      strategy.writeFile("allocation.json", allocationFile(weights));
    },
    cleanUp() {
      wallet.cleanUp();
      strategy.cleanUp();
    },
  };
}

async function nativeWay(token: string): Promise<Way> {
  const wallet = await LanguageProject.create(path.join(nativeProgramsDir, "yaml-drift"), "plan-wallet");
  const strategy = await LanguageProject.create(
    path.join(nativeProgramsDir, "yaml-strategy"),
    "plan-strategy",
  );
  strategy.setEnv({ PULUMI_BACKEND_URL: wallet.env()["PULUMI_BACKEND_URL"]! });
  const withEnv =
    (project: LanguageProject) =>
    async (args: string[], env: Record<string, string> = {}) => {
      project.setEnv({ PULUMI_EXPERIMENTAL: env["PULUMI_EXPERIMENTAL"] ?? "" });
      return project.pulumi(args);
    };
  const walletProgram = wallet.readFile("Pulumi.yaml");
  const strategyProgram = strategy.readFile("Pulumi.yaml");
  return {
    token,
    wallet: { dir: wallet.dir, pulumi: withEnv(wallet) },
    strategy: { dir: strategy.dir, pulumi: withEnv(strategy) },
    walletStackName: "organization/treasury-drift/dev",
    async setWalletProgram(weights, webhookEnabled) {
      wallet.writeFile("Pulumi.yaml", yamlWithPositions(walletProgram, weights, { webhookEnabled }));
    },
    async setStrategyProgram(weights) {
      strategy.writeFile("Pulumi.yaml", yamlWithPositions(strategyProgram, weights));
    },
    cleanUp() {
      wallet.cleanUp();
      strategy.cleanUp();
    },
  };
}

beforeAll(async () => {
  t = await startTestSandbox({
    rebalanceDelayMs: 5,
    // The programs' webhooks point at 127.0.0.1: deliveries stay on the machine.
    allowPrivateWebhookUrls: true,
    tokens: { "pw-plans-dynamic-5d1c": "plans-dynamic", "pw-plans-native-93ab": "plans-native" },
  });
  ways.dynamic = await dynamicWay("pw-plans-dynamic-5d1c");
  ways.native = await nativeWay("pw-plans-native-93ab");
  for (const way of Object.values(ways)) {
    for (const project of [way.wallet, way.strategy]) {
      await project.pulumi(["stack", "init", "dev"]);
      await project.pulumi(
        configSetAll(
          {
            "portfolio-wallet:baseUrl": t.url,
            ...(project === way.strategy ? { walletStack: way.walletStackName } : {}),
          },
          { "portfolio-wallet:apiToken": way.token },
        ),
      );
    }
  }
}, 600_000);

afterAll(async () => {
  for (const way of Object.values(ways)) way.cleanUp();
  await t?.close();
});

const accessOf = (way: Way): SandboxAccess => ({ url: t.url, token: way.token });

async function outputsOf(project: Project): Promise<Record<string, unknown>> {
  return JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout);
}

/** `pulumi preview --save-plan` as the pull-request job runs it; the plan's path. */
async function savePlan(project: Project, name: string): Promise<string> {
  const file = path.join(project.dir, `${name}.plan.json`);
  const { stdout } = await project.pulumi(["preview", "--json", "--save-plan", file]);
  writeFileSync(path.join(project.dir, `${name}.preview.json`), stdout);
  return file;
}

const applyPlan = (project: Project, plan: string) =>
  project.pulumi(["up", "--yes", "--plan", plan], EXPERIMENTAL);

async function appliedWeights(way: Way, walletId: string): Promise<Weights> {
  const wallet = await callSandbox(accessOf(way), "GET", `/v2/portfolio-wallets/${walletId}`);
  return Object.fromEntries(
    wallet.strategyConfig.positions.map((p: { positionKey: string; targetWeightBps: number }) => [
      p.positionKey,
      p.targetWeightBps,
    ]),
  );
}

/** Requests that change something at the service, by `METHOD /route`. */
const writesIn = (counts: Record<string, number>) =>
  Object.keys(counts).filter((route) => !route.startsWith("GET "));

describe.each(["dynamic", "native"] as const)("saved plans, %s", (name) => {
  const way = () => ways[name]!;
  let walletId: string;

  test("create: the plan saved by the preview is applied, and the report names its digest", async () => {
    await way().setWalletProgram(A, true);
    const plan = await savePlan(way().wallet, "create");
    // The report of that preview, as the pull-request job makes it: it names the plan by its digest.
    const report = await portfolioWallet(
      ["report", "--preview", plan.replace(".plan.json", ".preview.json"), "--plan", plan],
      {
        cwd: way().wallet.dir,
        env: { PORTFOLIO_WALLET_BASE_URL: t.url, PORTFOLIO_WALLET_API_TOKEN: way().token },
      },
    );
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain(": 1 wallet created, 1 webhook created");
    expect(report.stdout).toContain(
      `**Plan:** \`sha256:${createHash("sha256").update(readFileSync(plan)).digest("hex")}\``,
    );
    await applyPlan(way().wallet, plan);
    const outputs = await outputsOf(way().wallet);
    walletId = String(outputs["walletId"]);
    expect(await appliedWeights(way(), walletId)).toEqual(A);
    const registration = await callSandbox(
      accessOf(way()),
      "GET",
      `/webhooks/registrations/${outputs["registrationId"]}`,
    );
    expect(registration.status).toBe("active");
  });

  test("a program changed after its plan was saved is refused with violates plan, and nothing is written", async () => {
    await way().setWalletProgram(B, false);
    const plan = await savePlan(way().wallet, "reweight");
    await way().setWalletProgram(CHANGED, false);
    await resetRequestCounts(accessOf(way()));
    const refused = await applyPlan(way().wallet, plan).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/violates plan: properties changed: ~~targetWeightsBps/);
    expect(writesIn(await requestCounts(accessOf(way())))).toEqual([]);
    expect(await appliedWeights(way(), walletId)).toEqual(A);

    // Back to the reviewed program: the same plan applies the reweight and the webhook change.
    await way().setWalletProgram(B, false);
    await resetRequestCounts(accessOf(way()));
    await applyPlan(way().wallet, plan);
    const writes = writesIn(await requestCounts(accessOf(way())));
    expect(writes.sort()).toEqual([
      "PATCH /v2/portfolio-wallets/:id/strategy",
      "PATCH /webhooks/registrations/:registrationId/status",
    ]);
    await waitForWeights(way(), walletId, B);
    const { registrationId } = await outputsOf(way().wallet);
    const registration = await callSandbox(
      accessOf(way()),
      "GET",
      `/webhooks/registrations/${registrationId}`,
    );
    expect(registration.status).toBe("disabled");
  });

  test("an allocation changed at the service after the review: up --plan sends nothing and fails naming both allocations; after a refresh, a new preview shows the change from the service's allocation and up applies it", async () => {
    const access = accessOf(way());
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    await callSandbox(access, "POST", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: 1_000_000,
      txHash: `0x${randomUUID().replaceAll("-", "")}`,
    });
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 60_000 });
    // The pull request: B → REVIEWED, reviewed with its plan.
    await way().setWalletProgram(REVIEWED, false);
    const plan = await savePlan(way().wallet, "outside-change");
    // Before the merge, somebody changes the wallet at the service directly.
    await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
      requestId: randomUUID(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    });
    await waitForWeights(way(), walletId, OUTSIDE);

    // A preview now says what up will do.
    const preview = await way().wallet.pulumi(["preview", "--diff"]);
    // The engine prints a provider's warnings on stderr when it writes to no terminal, as in a pipeline.
    expect(preview.stderr).toContain(
      `wallet ${walletId}: its allocation was changed outside this stack: the service holds tbills 10000, ` +
        "this stack's state recorded syrupUsdc 5000, tbills 5000",
    );
    expect(preview.stderr).toContain("`up` will refuse this update");

    await resetRequestCounts(access);
    const refused = await applyPlan(way().wallet, plan).then(
      () => "applied",
      (error: Error) => error.message,
    );
    expect(refused).toContain(
      `wallet ${walletId}: the service holds tbills 10000; this stack's state recorded syrupUsdc 5000, tbills 5000. ` +
        "The code asks for syrupUsdc 7000, tbills 3000.",
    );
    expect(refused).toContain("so no strategy update was sent");
    expect(writesIn(await requestCounts(access))).toEqual([]);
    expect(await appliedWeights(way(), walletId)).toEqual(OUTSIDE);

    // The way on: refresh, then a new review shows the change from what the service holds.
    await way().wallet.pulumi(["refresh", "--yes", "--skip-preview"]);
    const again = await savePlan(way().wallet, "after-refresh");
    const steps = JSON.parse(readFileSync(again.replace(".plan.json", ".preview.json"), "utf8")).steps as {
      op: string;
      urn: string;
      oldState?: { outputs?: { targetWeightsBps?: Weights } };
    }[];
    const walletStep = steps.find((step) => step.urn.endsWith("PortfolioWallet::treasury"));
    expect(walletStep?.op).toBe("update");
    expect(walletStep?.oldState?.outputs?.targetWeightsBps).toEqual(OUTSIDE);
    await applyPlan(way().wallet, again);
    await waitForWeights(way(), walletId, REVIEWED);
  });

  test("a WalletStrategy fed by the wallet stack's output is applied from its plan", async () => {
    await way().setStrategyProgram(S1);
    const plan = await savePlan(way().strategy, "strategy");
    // The plan holds the other stack's output, as the preview read it.
    expect(readFileSync(plan, "utf8")).toContain(walletId);
    await applyPlan(way().strategy, plan);
    await waitForWeights(way(), walletId, S1);
  });

  test("an approval-gated reweight under a plan: up succeeds with pending_approval, the wallet keeps its allocation until approved", async () => {
    // Money in the wallet, so that what `approve` prints before it signs is a sum to check.
    await fund(way(), walletId, 1_000_000);
    await callSandbox(accessOf(way()), "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 1 });
    try {
      await way().setStrategyProgram(S2);
      const plan = await savePlan(way().strategy, "gated");
      await resetRequestCounts(accessOf(way()));
      const up = await applyPlan(way().strategy, plan);
      const outputs = await outputsOf(way().strategy);
      expect(outputs["strategyChangeStatus"]).toBe("pending_approval");
      // One strategy update requested (the PATCH may be replayed with its requestId to read its status).
      expect(writesIn(await requestCounts(accessOf(way())))).toEqual([
        "PATCH /v2/portfolio-wallets/:id/strategy",
      ]);
      expect(await appliedWeights(way(), walletId)).toEqual(S1);
      const activity =
        (outputs["strategyChange"] as { signingActivityId?: string } | undefined)?.signingActivityId ??
        outputs["signingActivityId"];
      expect(activity).toEqual(expect.any(String));
      // The up said so on the resource, with the activity and the command that approves it.
      const said = `${up.stdout}\n${up.stderr}`;
      expect(said).toContain(
        `of wallet ${walletId} (to resolvRlp 9000, tbills 1000) is pending_approval, signing activity ${activity}: ` +
          "the wallet keeps its current allocation until it is approved.",
      );
      expect(said).toContain(`npx portfolio-wallet approve ${activity} --state state.json`);

      // As docs/cli.md has it ("Approving with the money in view"): the stack's state and the plan
      // the engine wrote, given to `portfolio-wallet approve` with an approver's Turnkey key.
      const state = path.join(way().strategy.dir, "state.json");
      writeFileSync(state, (await way().strategy.pulumi(["stack", "export", "--stack", "dev"])).stdout);
      const approve = await approverCli(way());
      // The plan of the strategy test (S1) does not apply this activity's allocation: refused, unsigned.
      const otherPlan = path.join(way().strategy.dir, "strategy.plan.json");
      const refused = await approve([String(activity), "--state", state, "--plan", otherPlan]);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(
        `not signed: the activity's allocation of wallet ${walletId} is not the plan's (sha256:${sha256Of(otherPlan)}): ` +
          "resolvRlp: the plan 7000 bps, the activity 9000 bps; tbills: the plan 3000 bps, the activity 1000 bps",
      );
      expect(await appliedWeights(way(), walletId)).toEqual(S1);

      // The plan `up --plan` applied: the money first, then the vote, which completes the activity.
      const before = await positionsUsd(way(), walletId);
      const started = Date.now();
      const approved = await approve([String(activity), "--state", state, "--plan", plan]);
      const elapsedMs = Date.now() - started;
      expect(approved.code, approved.stderr).toBe(0);
      const [update, money] = approved.stdout.split("\n");
      expect(update).toMatch(new RegExp(`^Strategy update of allocation \\(wallet ${walletId}\\): `));
      expect(weightsIn(update!)).toEqual(S2);
      await expectMoneyOf(way(), money!, { before, after: S2, elapsedMs });
      expect(approved.stdout.indexOf("Moves")).toBeLessThan(approved.stdout.indexOf("outcome:"));
      expect(approved.stdout).toMatch(/outcome:\s+completed/);
      await waitForWeights(way(), walletId, S2);
    } finally {
      await callSandbox(accessOf(way()), "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0 });
    }
  });
});

async function waitForWeights(way: Way, walletId: string, weights: Weights): Promise<void> {
  const sorted = (w: Weights) => JSON.stringify(Object.entries(w).sort());
  for (let attempt = 0; attempt < 100; attempt++) {
    if (sorted(await appliedWeights(way, walletId)) === sorted(weights)) return;
    await callSandbox(accessOf(way), "POST", "/_sandbox/clock/advance", { ms: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`wallet ${walletId} never applied ${JSON.stringify(weights)}`);
}

describe("the engine's --plan flag", () => {
  test("is listed only with PULUMI_EXPERIMENTAL=true: the engine marks it experimental", async () => {
    const project = ways.native!.wallet;
    expect((await project.pulumi(["up", "--help"])).stdout).not.toContain("--plan string");
    expect((await project.pulumi(["up", "--help"], EXPERIMENTAL)).stdout).toMatch(
      /--plan string +\[EXPERIMENTAL\]/,
    );
  });
});

/** The SHA-256 of a file, as `approve` and `report` name a plan. */
const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** An allocation as `approve` prints it: `tbills 1000, resolvRlp 9000`. */
function weightsIn(line: string): Weights {
  const listed = line.slice(line.indexOf("): ") + 3).split(", ");
  return Object.fromEntries(listed.map((entry) => [entry.split(" ")[0]!, Number(entry.split(" ")[1])]));
}

/** A deposit of `amountUsd` to the wallet, settled into its positions. */
async function fund(way: Way, walletId: string, amountUsd: number): Promise<void> {
  const wallet = await callSandbox(accessOf(way), "GET", `/v2/portfolio-wallets/${walletId}`);
  await callSandbox(accessOf(way), "POST", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: amountUsd,
    txHash: `0x${randomUUID().replaceAll("-", "")}`,
  });
  await callSandbox(accessOf(way), "POST", "/_sandbox/clock/advance", { seconds: 7200 });
  const funded = await callSandbox(accessOf(way), "GET", `/v2/portfolio-wallets/${walletId}`);
  if (funded.pendingAllocationsUsd !== 0)
    throw new Error(`the deposit to wallet ${walletId} has not reached its positions`);
}

/** The USD of each position of the wallet now, in micro-USD, from the sandbox's own answer. */
async function positionsUsd(way: Way, walletId: string): Promise<Record<string, bigint>> {
  const wallet = await callSandbox(accessOf(way), "GET", `/v2/portfolio-wallets/${walletId}`);
  return Object.fromEntries(
    (wallet.positions as { positionKey: string; valueUsd: number }[]).map((p) => [
      p.positionKey,
      usdToMicros(p.valueUsd),
    ]),
  );
}

/** `$1,000,019.76` in micro-USD. */
const microsOfDollars = (text: string) => BigInt(text.replace(/[$,.]/g, "")) * 10_000n;

/**
 * `approve`'s money line (`Moves $… of $…: <source> <change>, … · …`) against the wallet's positions read just before it
 * ran. This sandbox's clock is the wall clock, so the positions earned yield while the command ran:
 * each sum may be off by what the whole balance can earn in that time at the catalog's highest
 * rate, and by the cent the line rounds to. Moved is the sum of the increases to `after`.
 */
async function expectMoneyOf(
  way: Way,
  line: string,
  { before, after, elapsedMs }: { before: Record<string, bigint>; after: Weights; elapsedMs: number },
): Promise<void> {
  const match = /^Moves (\$[\d,]+\.\d\d) of (\$[\d,]+\.\d\d)[:·] /.exec(line);
  expect(match, line).not.toBeNull();
  const balance = Object.values(before).reduce((sum, micros) => sum + micros, 0n);
  const moved = Object.entries(after).reduce((sum, [key, bps]) => {
    const increase = (balance * BigInt(bps)) / 10_000n - (before[key] ?? 0n);
    return increase > 0n ? sum + increase : sum;
  }, 0n);
  const catalog = await callSandbox(accessOf(way), "GET", "/v2/portfolio-wallets/strategies");
  const maxRateBps = Math.max(
    ...(catalog.strategies as { currentRateBps: number }[]).map((s) => s.currentRateBps),
  );
  const YEAR_MS = 365n * 24n * 3_600_000n;
  const earned = (balance * BigInt(maxRateBps) * BigInt(elapsedMs + 1)) / (10_000n * YEAR_MS);
  const slack = earned + 10_000n + 1n;
  const within = (value: bigint, low: bigint, high: bigint) => value >= low && value <= high;
  const [printedMoved, printedBalance] = [microsOfDollars(match![1]!), microsOfDollars(match![2]!)];
  expect(
    within(printedBalance, balance - slack, balance + slack),
    `${line}: balance ${formatDollars(balance)}`,
  ).toBe(true);
  expect(within(printedMoved, moved - slack, moved + slack), `${line}: moved ${formatDollars(moved)}`).toBe(
    true,
  );
}

/**
 * `portfolio-wallet approve` as an approver runs it (docs/approvals.md): a Turnkey key pair whose
 * public key the sandbox registers as an approver of the way's organization, and the service and
 * signing settings in the environment.
 */
async function approverCli(way: Way): Promise<(args: string[]) => ReturnType<typeof portfolioWallet>> {
  const keys = generateTurnkeyApiKeyPair();
  const registered = await callSandbox(accessOf(way), "POST", "/_sandbox/signing/api-keys", {
    publicKey: keys.apiPublicKey,
    userName: `approver-${randomUUID()}`,
  });
  const env = {
    PORTFOLIO_WALLET_BASE_URL: t.url,
    PORTFOLIO_WALLET_API_TOKEN: way.token,
    TURNKEY_API_BASE_URL: t.url,
    TURNKEY_ORGANIZATION_ID: String(registered.organizationId),
    TURNKEY_API_PUBLIC_KEY: keys.apiPublicKey,
    TURNKEY_API_PRIVATE_KEY: keys.apiPrivateKey,
  };
  return (args) => portfolioWallet(["approve", ...args], { cwd: way.strategy.dir, env });
}
