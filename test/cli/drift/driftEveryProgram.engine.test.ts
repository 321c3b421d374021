import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { packedPackage } from "../../consumer/harness/packedPackage.ts";
import type { SandboxClock } from "../../../sandbox/index.ts";
import { usdToMicros } from "../../../sdk/nodejs/contract/money.ts";
import { INBOX_PATH_PREFIX, type InboxDelivery } from "../../../sdk/nodejs/contract/webhookInbox.ts";
import { yearlyYieldMicros } from "../../../sdk/nodejs/contract/moneyImpact.ts";
import { eventually, ORG, startTestSandbox, TOKEN, type TestSandbox } from "../../sandbox/helpers.ts";
import {
  callSandbox,
  ETHEREUM_PAYOUT,
  waitForWeightsOf,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../../support/sandboxAccess.ts";
import { PROGRAM_KINDS, type ProgramProject } from "../../support/programProjects.ts";
import { configSetAll } from "../../support/pulumiConfig.ts";

/**
 * `portfolio-wallet drift` and the pull-request report through the real engine, for a program on
 * each adapter, each set up outside this repository as its user has it: an ES-module TypeScript
 * program with the packed package installed by npm (the dynamic resources), a YAML program with
 * the plugin installed from its release archive (the native plugin) and the CLI from the packed
 * package. Each program declares the same treasury (test/cli/drift/programs),
 * is changed at the sandbox behind its back, and is checked with the command as a pipeline runs
 * it, counting the sandbox's requests: a drift check only reads.
 *
 * A new adapter is one more entry in PROGRAM_KINDS (test/support/programProjects.ts). A refresh
 * does not run the program, and Python, Go and Java programs reach the same plugin process as YAML,
 * so what the plugin answers a refresh is covered here; CommonJS programs load the same dynamic
 * resources as ES-module ones. Each language's own SDK is tested in test/native.
 */

const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
const C = { tbills: 2000, resolvRlp: 8000 };
type Weights = Record<string, number>;

/** Each test runs the engine a few times; under a loaded machine each run takes tens of seconds. */
const ENGINE_STEPS_TIMEOUT_MS = 600_000;

/**
 * The wall clock (the provider's `up` waits for rebalances that the sandbox runs on time), which a
 * test can hold still while it compares the dollars the drift check read with the wallet's answer
 * to the micro: yield accrues with time.
 */
function holdableClock(): SandboxClock & { hold(): void; release(): void } {
  let offset = 0;
  let heldAt: number | null = null;
  const nowMs = () => heldAt ?? Date.now() + offset;
  return {
    now: () => new Date(nowMs()),
    advance(ms: number) {
      if (heldAt !== null) heldAt += ms;
      offset += ms;
    },
    offsetMs: () => offset,
    hold() {
      heldAt = nowMs();
    },
    release() {
      // Time goes on from where it stood, never back.
      if (heldAt !== null) offset = Math.max(offset, heldAt - Date.now());
      heldAt = null;
    },
  };
}

/** The webhook inbox the programs' registration points at. */
const INBOX = "treasury";

const sandboxOptions = (clock: SandboxClock) => ({
  clock,
  rebalanceDelayMs: 5,
  // The programs' webhooks point at 127.0.0.1: deliveries stay on the machine.
  allowPrivateWebhookUrls: true,
  tokens: { [TOKEN]: ORG },
});

let tarball: string;
beforeAll(async () => {
  tarball = await packedPackage();
}, 600_000);

describe.each(PROGRAM_KINDS)("drift and the report of a $title", ({ name, adapter, create }) => {
  let t: TestSandbox;
  const clock = holdableClock();
  let project: ProgramProject;
  let walletId: string;
  let registrationId: string;
  const access: SandboxAccess = { url: "", token: TOKEN };

  const setWeights = async (weights: Weights) => {
    await project.pulumi(
      configSetAll({ tbillsBps: String(weights["tbills"]), syrupUsdcBps: String(weights["syrupUsdc"]) }),
    );
  };

  const outputs = async (): Promise<Record<string, unknown>> =>
    JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout);

  /** Runs `portfolio-wallet drift <args>`, and what the sandbox was sent meanwhile. */
  async function drift(args: string[] = []) {
    access.url = t.url;
    await resetRequestCounts(access);
    const run = await project.cli(["drift", ...args]);
    const counts = await requestCounts(access);
    const writes = Object.keys(counts).filter((route) => !route.startsWith("GET "));
    return { ...run, counts, writes };
  }

  const waitForWeights = (weights: Weights) => waitForWeightsOf(access, walletId, weights);

  /** What the program's inbox received, newest first. */
  const inboxDeliveries = async (): Promise<InboxDelivery[]> =>
    (await callSandbox(access, "GET", `${INBOX_PATH_PREFIX}/${INBOX}/deliveries`)).data;

  beforeAll(async () => {
    t = await startTestSandbox(sandboxOptions(clock));
    access.url = t.url;
    project = await create(tarball, `drift-${name}`);
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(
      configSetAll({ "portfolio-wallet:baseUrl": t.url }, { "portfolio-wallet:apiToken": TOKEN }),
    );
    await setWeights(A);
    // The program's events go to a webhook inbox of the sandbox, on both adapters.
    await project.pulumi(configSetAll({ webhookUrl: `${t.url}${INBOX_PATH_PREFIX}/${INBOX}` }));
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    ({ walletId, registrationId } = (await outputs()) as { walletId: string; registrationId: string });
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
  });

  test(
    "the report of a reweight's preview shows each yield source's weights before and after",
    async () => {
      await setWeights(B);
      try {
        const preview = await project.pulumi(["preview", "--json"]);
        const report = await project.cli(["report"], preview.stdout);
        expect(report.code, report.stderr).toBe(0);
        expect(report.stdout).toContain(": 1 wallet reweighted");
        expect(report.stdout).toContain("| syrupUsdc | 4000 | 5000 | +1000 |");
        expect(report.stdout).toContain("| tbills | 6000 | 5000 | −1000 |");
      } finally {
        await setWeights(A);
      }
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "market movement only (a deposit, a month of yield at a soaring rate, a rate cut, a withdrawal): drift exit 0, and only reads; the watch finds each band left, in dollars",
    async () => {
      const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
      await callSandbox(access, "POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: 25_000,
        txHash: `0x${"d".repeat(64)}`,
      });
      // A month at 1,000% moves tbills far past its target weight: the market, not anyone's change.
      await callSandbox(access, "PUT", "/_sandbox/catalog/tbills/rate", { currentRateBps: 100_000 });
      await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 30 * 24 * 3600 * 1000 });
      await callSandbox(access, "PUT", "/_sandbox/catalog/tbills/rate", { currentRateBps: 612 });
      // syrupUsdc pays 300 bps from now on, 350 below the 650 it paid when the allocation was set.
      await callSandbox(access, "PUT", "/_sandbox/catalog/syrupUsdc/rate", { currentRateBps: 300 });
      // A withdrawal takes most of what is withdrawable at once (syrupUsdc, PT0H).
      await callSandbox(access, "POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
        requestId: crypto.randomUUID(),
        withdrawalAmount: 8_000,
        ...ETHEREUM_PAYOUT,
      });
      const moved = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
      // The market did move: the check below must be ignoring it, not missing it.
      expect(moved.totalBalanceUsd).toBeGreaterThan(25_000);
      expect(moved.blendedRateBps).not.toBe(wallet.blendedRateBps);

      const stateBefore = (await project.pulumi(["stack", "export"])).stdout;
      // The stack and the project named, as a pipeline with several projects does.
      const result = await drift(["--stack", "dev", "--cwd", project.dir]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/\/dev: no drift/);
      expect(result.writes).toEqual([]);
      expect(result.counts["GET /v2/portfolio-wallets/:id"]).toBeGreaterThanOrEqual(1);
      // Nor is the state written: a refresh preview only reads.
      expect((await project.pulumi(["stack", "export"])).stdout).toBe(stateBefore);

      // The market watch of the same movement, its instant floor in the stack config.
      await project.pulumi(["config", "set", "portfolio-wallet:watchInstantMinUsd", "5000"]);
      await resetRequestCounts(access);
      clock.hold();
      const watch = await project.cli(["--json", "watch"]);
      const atService = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
      clock.release();
      expect(watch.code, watch.stdout + watch.stderr).toBe(2);
      const watchRoutes = Object.keys(await requestCounts(access));
      expect(watchRoutes.filter((route) => !route.startsWith("GET "))).toEqual([]);
      expect(watchRoutes).toContain("GET /v2/portfolio-wallets");
      const watched = JSON.parse(watch.stdout);
      const [treasury] = watched.wallets;
      expect(treasury.walletId).toBe(walletId);
      const byKind = (kind: string) => treasury.findings.filter((f: { kind: string }) => f.kind === kind);
      const valueOf = (key: string) =>
        usdToMicros(atService.positions.find((p: { positionKey: string }) => p.positionKey === key).valueUsd);
      const balance = valueOf("tbills") + valueOf("syrupUsdc");
      // tbills beyond its band, with the dollars beyond its target, from the service's own answer.
      const tbills = byKind("position-off-band").find(
        (f: { positionKey: string }) => f.positionKey === "tbills",
      );
      const tbillsAtService = atService.positions.find(
        (p: { positionKey: string }) => p.positionKey === "tbills",
      );
      expect(tbills.driftBps).toBe(tbillsAtService.driftBps);
      expect(tbills.driftBps).toBeGreaterThan(500);
      const offTarget = BigInt(tbills.offTargetMicros) - (valueOf("tbills") - (balance * 6000n) / 10_000n);
      expect(offTarget >= -1n && offTarget <= 1n, `${tbills.offTargetMicros}`).toBe(true);
      // Withdrawable at once under the floor after the withdrawal.
      const [instant] = byKind("instant-below-floor");
      expect(BigInt(instant.instantMicros)).toBe(usdToMicros(atService.instantWithdrawableUsd));
      expect(BigInt(instant.instantMicros)).toBeLessThan(5_000_000_000n);
      expect(instant.message).toContain("below the floor of $5,000.00");
      // syrupUsdc's rate 350 below the rate recorded when the allocation was set, and what it costs.
      const [rate] = byKind("rate-drop");
      expect(rate).toMatchObject({ positionKey: "syrupUsdc", appliedRateBps: 650, currentRateBps: 300 });
      expect(BigInt(rate.yearlyCostMicros)).toBe(yearlyYieldMicros(valueOf("syrupUsdc"), 350));
      await project.pulumi(["config", "rm", "portfolio-wallet:watchInstantMinUsd"]);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "an allocation changed and a webhook disabled at the service: exit 2, per yield source, also from a saved refresh; a reviewed restore puts them back",
    async () => {
      await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
        requestId: crypto.randomUUID(),
        positions: Object.entries(C).map(([positionKey, targetWeightBps]) => ({
          positionKey,
          targetWeightBps,
        })),
      });
      await waitForWeights(C);
      await callSandbox(access, "PATCH", `/webhooks/registrations/${registrationId}/status`, {
        status: "disabled",
        disabledReason: "paused in the portal",
      });

      clock.hold();
      const json = await drift(["--json"]);
      // The wallet as the service answers at the instant the drift check read it.
      const atService = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
      clock.release();
      expect(json.code, json.stderr).toBe(2);
      expect(json.writes).toEqual([]);
      const report = JSON.parse(json.stdout);
      expect(report.headline).toMatch(
        /\/dev: drift, 1 allocation changed at the service, 1 webhook disabled$/,
      );
      const byKind = Object.fromEntries(
        report.resources.map((r: { kind: string; id: string; findings: { kind: string }[] }) => [
          r.kind,
          { id: r.id, findings: r.findings.map((f) => f.kind) },
        ]),
      );
      expect(byKind).toEqual({
        PortfolioWallet: { id: walletId, findings: ["allocation"] },
        WebhookRegistration: { id: registrationId, findings: ["webhook-disabled"] },
      });
      expect(report.resources.find((r: { kind: string }) => r.kind === "PortfolioWallet").sources).toEqual([
        { positionKey: "resolvRlp", codeBps: 0, serviceBps: 8000, deltaBps: 8000 },
        { positionKey: "syrupUsdc", codeBps: 4000, serviceBps: 0, deltaBps: -4000 },
        { positionKey: "tbills", codeBps: 6000, serviceBps: 2000, deltaBps: -4000 },
      ]);

      // The dollars, from the service's own answer for the wallet: each source's valueUsd against
      // the invested balance at the code's weights (6000 tbills / 4000 syrupUsdc), to the micro.
      const serviceMicros = new Map<string, bigint>(
        atService.positions.map((p: { positionKey: string; valueUsd: number }) => [
          p.positionKey,
          usdToMicros(p.valueUsd),
        ]),
      );
      const balance = [...serviceMicros.values()].reduce((a, b) => a + b, 0n);
      expect(balance).toBeGreaterThan(25_000_000_000n);
      const dollars = report.resources.find((r: { kind: string }) => r.kind === "PortfolioWallet").dollars;
      expect(dollars.available).toBe(true);
      expect(BigInt(dollars.balanceMicros)).toBe(balance);
      const code = { tbills: 6000n, syrupUsdc: 4000n } as Record<string, bigint>;
      let shortfall = 0n;
      for (const row of dollars.sources) {
        expect(BigInt(row.serviceMicros), row.positionKey).toBe(serviceMicros.get(row.positionKey) ?? 0n);
        const exact = (balance * (code[row.positionKey] ?? 0n)) / 10_000n;
        expect(BigInt(row.codeMicros) - exact, row.positionKey).toBeGreaterThanOrEqual(0n);
        expect(BigInt(row.codeMicros) - exact, row.positionKey).toBeLessThanOrEqual(1n);
        if (BigInt(row.codeMicros) > BigInt(row.serviceMicros))
          shortfall += BigInt(row.codeMicros) - BigInt(row.serviceMicros);
      }
      expect(BigInt(dollars.misplacedMicros)).toBe(shortfall);
      expect(report.misplacedMicros).toBe(dollars.misplacedMicros);

      // The scheduled workflow's next step: the stack's drift issue is opened with that report.
      const driftFile = path.join(project.dir, "drift.json");
      writeFileSync(driftFile, json.stdout);
      const issuesFile = path.join(project.dir, "issues.json");
      writeFileSync(issuesFile, "[]");
      const issueBody = path.join(project.dir, "issue.md");
      const issue = await project.cli([
        "drift-issue",
        "--stack",
        "treasury/dev",
        "--drift",
        driftFile,
        "--issues",
        issuesFile,
        "--body-file",
        issueBody,
      ]);
      expect(issue.code, issue.stderr).toBe(0);
      expect(issue.stdout).toBe("action=open\ntitle=Drift: treasury/dev\n");
      expect(readFileSync(issueBody, "utf8")).toContain("| tbills | 6000 | 2000 | −4000 |");

      // The pipeline's way: it ran the refresh preview itself, with an event log, and passes the file.
      const eventLog = path.join(project.dir, "refresh-events.jsonl");
      await project.pulumi(["refresh", "--preview-only", "--event-log", eventLog], {
        PULUMI_DEBUG_COMMANDS: "true",
      });
      const markdown = await drift(["--refresh-preview", eventLog, "--markdown"]);
      expect(markdown.code, markdown.stderr).toBe(2);
      // No refresh ran: the only requests are the dollars' reads of the wallets and the catalog.
      expect(markdown.writes).toEqual([]);
      expect(markdown.counts["GET /v2/portfolio-wallets/:id"]).toBeUndefined();
      expect(markdown.stdout).toContain("sits where the code does not put it");
      expect(markdown.stdout).toMatch(
        /### .*\/dev: drift, 1 allocation changed at the service, 1 webhook disabled/,
      );
      expect(markdown.stdout).toContain("| resolvRlp | 0 | 8000 | +8000 |");
      expect(markdown.stdout).toContain("| tbills | 6000 | 2000 | −4000 |");
      expect(markdown.stdout).toContain('disabled at the service ("paused in the portal")');

      // Keeping the service's allocation instead: the program has no place for resolvRlp, so
      // `adopt` writes nothing and lists the program's lines that name the sources (exit 2).
      const configBefore = (await project.pulumi(["config", "--json"])).stdout;
      await resetRequestCounts(access);
      const byHand = await project.cli(["adopt", "--refresh-preview", eventLog]);
      expect(byHand.code, byHand.stdout + byHand.stderr).toBe(2);
      expect(byHand.stdout).toContain(
        "0 of 1 allocation changed at the service written into the code; 1 to change by hand",
      );
      expect(byHand.stdout).toContain("the service holds resolvRlp, which the program has no position for");
      expect(byHand.stdout).toMatch(
        adapter === "native"
          ? /Pulumi\.yaml:\d+ {2}- positionKey: tbills/
          : /index\.ts:\d+ {2}\{ positionKey: "tbills"/,
      );
      expect(Object.keys(await requestCounts(access))).toEqual([]);
      expect((await project.pulumi(["config", "--json"])).stdout).toBe(configBefore);

      // The engine's --json digest carries the read state only for the native plugin's resources:
      // for the dynamic ones it is refused, never read as "no drift".
      const digest = path.join(project.dir, "refresh.json");
      const refreshJson = await project.pulumi(["refresh", "--preview-only", "--json"]);
      writeFileSync(digest, refreshJson.stdout);
      const fromDigest = await drift(["--json", "--refresh-preview", digest]);
      if (adapter === "native") {
        expect(fromDigest.code, fromDigest.stderr).toBe(2);
        expect(JSON.parse(fromDigest.stdout).headline).toBe(report.headline);
      } else {
        expect(fromDigest.code).toBe(1);
        expect(fromDigest.stderr).toContain("--event-log");
      }

      // The way back through review: `restore` prepares the pull request that puts the code's
      // allocation back, a preview against the refreshed state with its report and plan. It
      // only reads: nothing is sent but reads, and the state is not written.
      const stateBefore = (await project.pulumi(["stack", "export"])).stdout;
      await resetRequestCounts(access);
      const plan = path.join(project.dir, "restore-plan.json");
      const reviewed = path.join(project.dir, "restore.json");
      const restore = await project.cli(["restore", "--plan", plan, "--json-output", reviewed]);
      expect(restore.code, restore.stderr).toBe(0);
      // A quote is a read too (the report asks it for advice): it changes nothing at the service.
      const restoreWrites = Object.keys(await requestCounts(access)).filter(
        (route) => !route.startsWith("GET ") && route !== "POST /v2/portfolio-wallets/quote",
      );
      expect(restoreWrites).toEqual([]);
      expect((await project.pulumi(["stack", "export"])).stdout).toBe(stateBefore);
      expect(restore.stdout).toContain("**Restore.**");
      // Before: what the service holds; after: the code's. In dollars, what moves back.
      expect(restore.stdout).toContain("| resolvRlp | 8000 | 0 | −8000 |");
      expect(restore.stdout).toContain("| tbills | 2000 | 6000 | +4000 |");
      const restoreReport = JSON.parse(readFileSync(reviewed, "utf8"));
      const restoredWallet = restoreReport.wallets.find((w: { walletId: string }) => w.walletId === walletId);
      expect(BigInt(restoredWallet.money.impact.movedMicros)).toBeGreaterThan(20_000_000_000n);
      expect(restore.stdout).toContain(`sha256:${restoreReport.plan.sha256}`);

      // The merge job, word for word as docs/cli.md has it: refresh, hold the dollars, apply the plan.
      await project.pulumi(["refresh", "--yes", "--skip-preview"]);
      const held = await project.cli(["report-check", "--reviewed", reviewed, "--plan", plan]);
      expect(held.code, held.stdout + held.stderr).toBe(0);
      await project.pulumi(["up", "--yes", "--plan", plan], { PULUMI_EXPERIMENTAL: "true" });
      await waitForWeights(A);
      const registration = await callSandbox(access, "GET", `/webhooks/registrations/${registrationId}`);
      expect(registration.status).toBe("active");
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "an allocation changed at the service, kept: adopt writes it into the stack config, and a refreshed preview then changes no wallet, only reading",
    async () => {
      const kept = { tbills: 3000, syrupUsdc: 7000 };
      await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
        requestId: crypto.randomUUID(),
        positions: Object.entries(kept).map(([positionKey, targetWeightBps]) => ({
          positionKey,
          targetWeightBps,
        })),
      });
      await waitForWeights(kept);
      // The change at the service reached the program's registration, in the sandbox's inbox, signed
      // with the registration's secret.
      await eventually(async () => (await inboxDeliveries()).length > 0, 15_000);
      for (const delivery of await inboxDeliveries()) {
        expect(delivery.registrationId).toBe(registrationId);
        expect(delivery.eventType).toBe("portfolio_wallet.strategy.status_changed");
        expect(delivery.signature).toEqual({ valid: true, reason: null });
      }
      const stateBefore = (await project.pulumi(["stack", "export"])).stdout;
      await resetRequestCounts(access);
      const previewFile = path.join(project.dir, "adopt-preview.json");
      const body = path.join(project.dir, "adopt.md");
      const adopt = await project.cli(["adopt", "--output", body, "--preview-output", previewFile]);
      expect(adopt.code, adopt.stdout + adopt.stderr).toBe(0);
      expect(Object.keys(await requestCounts(access)).filter((route) => !route.startsWith("GET "))).toEqual(
        [],
      );
      expect((await project.pulumi(["stack", "export"])).stdout).toBe(stateBefore);
      // Written where the program takes its weights from: the stack settings of each source.
      const config = JSON.parse((await project.pulumi(["config", "--json"])).stdout) as Record<
        string,
        { value: string }
      >;
      const setting = (name: string) =>
        Object.entries(config).find(([key]) => key.endsWith(`:${name}`))![1].value;
      expect([setting("tbillsBps"), setting("syrupUsdcBps")]).toEqual(["3000", "7000"]);
      expect(adopt.stdout).toMatch(/Stack config [\w-]+:tbillsBps: 6000 → 3000\./);
      expect(readFileSync(body, "utf8")).toContain("shows no change to the wallets written here");
      // The engine's own refreshed preview, as adopt kept it: no step changes anything.
      const preview = JSON.parse(readFileSync(previewFile, "utf8")) as {
        steps: { op: string; urn: string }[];
      };
      expect(preview.steps.filter((s) => s.op !== "same" && s.op !== "refresh")).toEqual([]);
      expect(preview.steps.some((s) => s.urn.endsWith("::treasury"))).toBe(true);
      // Back to the allocation the next tests start from, past the refresh the adopt pull
      // request's merge job runs (the state then records what the service holds).
      await setWeights(A);
      await project.pulumi(["up", "--refresh", "--yes", "--skip-preview"]);
      await waitForWeights(A);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "the code's update waiting for approval is not drift; once the code stops asking for it, it is",
    async () => {
      await callSandbox(access, "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 1 });
      try {
        await setWeights(B);
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        expect((await outputs())["strategyChangeStatus"]).toBe("pending_approval");

        // Also what follows the previous test's `up`: nothing else is drift.
        const waiting = await drift();
        expect(waiting.code, waiting.stdout).toBe(0);
        expect(waiting.stdout).toContain("the code's strategy update is pending_approval");
        expect(waiting.writes).toEqual([]);

        // The pull request is reverted while the update still waits: the service would still apply it if approved.
        await project.pulumi(["refresh", "--yes", "--skip-preview"]);
        await setWeights(A);
        await project.pulumi(["up", "--yes", "--skip-preview"]);
        const stray = await drift(["--json"]);
        expect(stray.code, stray.stdout).toBe(2);
        expect(stray.writes).toEqual([]);
        const [resource] = JSON.parse(stray.stdout).resources;
        expect(resource.id).toBe(walletId);
        expect(resource.findings.map((f: { kind: string }) => f.kind)).toEqual(["pending-strategy-update"]);
        expect(resource.findings[0].message).toContain("syrupUsdc 5000, tbills 5000 is pending_approval");
      } finally {
        await callSandbox(access, "PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0 });
      }
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "a wallet and a webhook the service no longer has are missing: exit 2; a stack that does not exist: exit 1",
    async () => {
      // The service loses everything: a new, empty sandbox where the stack's baseUrl points.
      const port = Number(new URL(t.url).port);
      await t.close();
      t = await startTestSandbox({ ...sandboxOptions(clock), port });
      // This process's fetch may still hold a kept-alive socket to the old one: the first call drops it.
      await resetRequestCounts({ url: t.url, token: TOKEN }).catch(() => undefined);
      const missing = await drift(["--json"]);
      expect(missing.code, missing.stderr).toBe(2);
      expect(missing.writes).toEqual([]);
      const report = JSON.parse(missing.stdout);
      expect(
        report.resources
          .map((r: { kind: string; id: string; findings: { kind: string }[] }) => [
            r.kind,
            r.id,
            r.findings.map((f) => f.kind),
          ])
          .sort(),
      ).toEqual([
        ["PortfolioWallet", walletId, ["missing"]],
        ["WebhookRegistration", registrationId, ["missing"]],
      ]);
      const noStack = await drift(["--stack", "no-such-stack"]);
      expect(noStack.code).toBe(1);
      expect(noStack.stderr).toMatch(/no-such-stack/);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );
});
