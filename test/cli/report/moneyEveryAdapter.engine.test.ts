import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { forGitHub } from "../../../cli/report/renderMarkdown.ts";
import { createManualClock } from "../../../sandbox/index.ts";
import { moneyImpact, usdToMicros } from "../../../sdk/nodejs/contract/index.ts";
import { packedPackage } from "../../consumer/harness/packedPackage.ts";
import { ORG, startTestSandbox, TOKEN, type TestSandbox } from "../../sandbox/helpers.ts";
import { PROGRAM_KINDS, type ProgramProject } from "../../support/programProjects.ts";
import { callSandbox, type SandboxAccess } from "../../support/sandboxAccess.ts";
import { configSetAll } from "../../support/pulumiConfig.ts";

/**
 * The change in dollars through the real engine (issue 37), for both adapters: a TypeScript program
 * of the packed package (the dynamic resources) and a YAML program on the plugin from its release
 * archive (the native plugin). The treasury of test/cli/drift/programs is created, funded with a known
 * deposit, and reweighted in a preview; the report's dollars must be the sandbox's own wallet
 * answers to the micro, and the policy pack's money rules must refuse above their thresholds and
 * pass below, at preview, the pack found as the docs say (`portfolio-wallet policy-pack-path`: in
 * YAML from a tools directory beside the project, which has no node_modules). The sandbox runs on a manual clock, so nothing accrues between the
 * report and the answers it is checked against. Four engine runs per adapter: up, two previews
 * with the pack (the report's preview is the first of them), and a preview after the wallet's
 * allocation was changed at the service directly (issue 53), whose report must say so.
 */

const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
/** What someone sets at the service directly, outside the stack. */
const OUTSIDE = { tbills: 3000, syrupUsdc: 7000 };
const DEPOSIT_USD = 1_000_000;

/** The installed package's policy pack for this project's offline engine. */
const packOf = (project: ProgramProject) => path.join(project.packageDir, "policy", "offline");

const ENGINE_STEPS_TIMEOUT_MS = 900_000;

let tarball: string;
beforeAll(async () => {
  tarball = await packedPackage();
}, 600_000);

interface ReportJson {
  money: { headline: string; totals: { movedMicros: string } };
  comment: { post: boolean; reasons: string[]; summary: string };
  wallets: {
    walletId: string;
    money: {
      impact: {
        balanceMicros: string;
        movedMicros: string;
        sources: { positionKey: string; nowMicros: string; afterMicros: string }[];
        withdrawable: { within: string; afterMicros: string }[];
      };
    };
  }[];
}

const usd = (micros: bigint) => Number(micros) / 1_000_000;

describe.each(PROGRAM_KINDS)("the change in dollars, $title", ({ name, create }) => {
  let t: TestSandbox;
  let project: ProgramProject;
  let walletId: string;
  const access: SandboxAccess = { url: "", token: TOKEN };

  const setWeights = async (weights: Record<string, number>) => {
    await project.pulumi(
      configSetAll({ tbillsBps: String(weights["tbills"]), syrupUsdcBps: String(weights["syrupUsdc"]) }),
    );
  };

  beforeAll(async () => {
    t = await startTestSandbox({
      clock: createManualClock(new Date("2026-06-01T00:00:00.000Z")),
      allowPrivateWebhookUrls: true,
      tokens: { [TOKEN]: ORG },
    });
    access.url = t.url;
    project = await create(tarball, `money-${name}`);
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(
      configSetAll({ "portfolio-wallet:baseUrl": t.url }, { "portfolio-wallet:apiToken": TOKEN }),
    );
    await setWeights(A);
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    walletId = (
      JSON.parse((await project.pulumi(["stack", "output", "--json"])).stdout) as { walletId: string }
    ).walletId;
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    await callSandbox(access, "POST", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: DEPOSIT_USD,
      txHash: `0x${"e".repeat(64)}`,
    });
    // Past the deposit's processing time, then a month of yield so the positions are not round.
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 30 * 24 * 3600 * 1000 });
    const funded = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    expect(funded.pendingAllocationsUsd).toBe(0);
    expect(funded.totalBalanceUsd).toBeGreaterThan(DEPOSIT_USD);
  }, 600_000);

  afterAll(async () => {
    project?.cleanUp();
    await t?.close();
  });

  test(
    "the report's dollars are the sandbox's; the money rules refuse above their thresholds and pass below, at preview",
    async () => {
      await setWeights(B);
      const stateFile = path.join(project.dir, "stack-state.json");
      writeFileSync(stateFile, (await project.pulumi(["stack", "export"])).stdout);
      const packEnv = {
        PORTFOLIO_WALLET_BASE_URL: t.url,
        PORTFOLIO_WALLET_API_TOKEN: TOKEN,
        PORTFOLIO_WALLET_STACK_STATE_FILE: stateFile,
      };

      // The report of the reweight, from the preview as the pipeline saves it.
      const preview = await project.pulumi(["preview", "--json"]);
      const run = await project.cli(["report", "--format", "json"], preview.stdout);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as ReportJson;
      expect(report.wallets).toHaveLength(1);
      const impact = report.wallets[0]!.money.impact;
      expect(report.wallets[0]!.walletId).toBe(walletId);
      const answer = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
      let balance = 0n;
      for (const position of answer.positions as { positionKey: string; valueUsd: number }[]) {
        const source = impact.sources.find((s) => s.positionKey === position.positionKey);
        expect(BigInt(source!.nowMicros), position.positionKey).toBe(usdToMicros(position.valueUsd));
        balance += usdToMicros(position.valueUsd);
      }
      expect(BigInt(impact.balanceMicros)).toBe(balance);
      // 5000/5000: what moves is how far tbills is from half the balance (to the split's micro).
      const tbills = usdToMicros(
        answer.positions.find((p: { positionKey: string }) => p.positionKey === "tbills").valueUsd,
      );
      const expected = tbills * 2n > balance ? tbills - balance / 2n : balance / 2n - tbills;
      const moved = BigInt(impact.movedMicros);
      expect(moved - expected >= -1n && moved - expected <= 1n, `${moved} vs ${expected}`).toBe(true);
      expect(moved > 90_000_000_000n).toBe(true);
      expect(BigInt(report.money.totals.movedMicros)).toBe(moved);
      // Worth a comment at the default thresholds; under them once a team raises the dollars above
      // what moves (and what leaves the instant share) and the bps above the 1,000 it changes (flags of the installed CLI, both adapters).
      expect(report.comment.post, report.comment.summary).toBe(true);
      expect(report.comment.reasons.join("; ")).toMatch(/moves \$[\d,]+\.\d\d/);
      const quiet = await project.cli(
        [
          "report",
          "--format",
          "json",
          "--comment-usd-moved",
          String(usd(moved) + 1),
          "--comment-weight-bps",
          "1001",
          "--comment-withdrawable-lost-usd",
          String(usd(moved) + 1),
        ],
        preview.stdout,
      );
      expect(quiet.code, quiet.stderr).toBe(0);
      const quietComment = (JSON.parse(quiet.stdout) as ReportJson).comment;
      expect(quietComment.post, quietComment.summary).toBe(false);
      expect(quietComment.reasons).toEqual([]);
      expect(quietComment.summary).toMatch(
        /^under the comment thresholds: it moves \$[\d,]+\.\d\d \(threshold/,
      );
      const markdown = await project.cli(["report"], preview.stdout);
      // The markdown as written for GitHub: a word joiner keeps each sign with its amount.
      expect(markdown.stdout).toContain(forGitHub(`**Dollars:** ${report.money.headline}`));

      // The pack as the docs say to find it: the package's CLI names the installed package's pack
      // for the engine on PATH (in YAML, the CLI of the tools directory beside the project).
      const located = await project.cli(["policy-pack-path"]);
      expect(located.code, located.stderr).toBe(0);
      expect(located.stdout.trim()).toBe(packOf(project));
      expect(located.stderr).toContain("the offline engine's manifest");

      const instantAfter = BigInt(impact.withdrawable.find((w) => w.within === "PT0H")!.afterMicros);
      const config = (limits: Record<string, unknown>) => {
        const file = path.join(project.dir, `money-policy-${Object.keys(limits).length}-${Date.now()}.json`);
        writeFileSync(file, JSON.stringify(limits));
        return file;
      };
      const previewWithPack = (limits: Record<string, unknown>) =>
        project
          .pulumi(
            ["preview", "--policy-pack", located.stdout.trim(), "--policy-pack-config", config(limits)],
            packEnv,
          )
          .then(
            (result) => ({ failed: false, output: result.stdout }),
            (error: Error) => ({ failed: true, output: error.message }),
          );

      // Moved a cent too much for the cap; withdrawable at once exactly at its floor; and a weight
      // rule (not about money) one basis point under the 5000 bps the change sets.
      const capped = await previewWithPack({
        "max-usd-moved": { enforcementLevel: "mandatory", maxUsdPerWallet: usd(moved) - 0.01 },
        "min-usd-withdrawable": { enforcementLevel: "mandatory", minInstantUsdPerWallet: usd(instantAfter) },
        "max-weight-per-source": { enforcementLevel: "advisory", maxBps: 4999 },
      });
      expect(capped.failed, capped.output).toBe(true);
      expect(capped.output).toMatch(/portfolio-wallet-allocation@v\d+\.\d+\.\d+/);
      expect(capped.output).toMatch(/\[advisory\]\s+max-weight-per-source/);
      expect(capped.output).toContain("tbills is 5000 bps, above the maximum 4999 bps per yield source");
      expect(capped.output).toMatch(/\[mandatory\]\s+max-usd-moved/);
      expect(capped.output).toContain("treasury: the change moves");
      expect(capped.output).not.toMatch(/min-usd-withdrawable/);

      // The cap exactly at what moves; the floor a cent above what stays withdrawable at once.
      const floored = await previewWithPack({
        "max-usd-moved": { enforcementLevel: "mandatory", maxUsdPerWallet: usd(moved) },
        "min-usd-withdrawable": {
          enforcementLevel: "mandatory",
          minInstantUsdPerWallet: usd(instantAfter) + 0.01,
        },
      });
      expect(floored.failed, floored.output).toBe(true);
      expect(floored.output).toMatch(/\[mandatory\]\s+min-usd-withdrawable/);
      expect(floored.output).toContain("is withdrawable at once, below the minimum");
      expect(floored.output).not.toMatch(/\[mandatory\]\s+max-usd-moved/);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );

  test(
    "an allocation changed at the service since the last up: the report says so for that wallet, its dollars from what the service holds",
    async () => {
      // Someone changes the wallet's allocation at the service directly (issue 53); the code still says B.
      await callSandbox(access, "PATCH", `/v2/portfolio-wallets/${walletId}/strategy`, {
        requestId: crypto.randomUUID(),
        positions: Object.entries(OUTSIDE).map(([positionKey, targetWeightBps]) => ({
          positionKey,
          targetWeightBps,
        })),
      });
      await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 3600 * 1000 });
      const preview = await project.pulumi(["preview", "--json"]);
      const markdownFile = path.join(project.dir, "outside-report.md");
      const jsonFile = path.join(project.dir, "outside-report.json");
      const run = await project.cli(
        ["report", "--output", markdownFile, "--json-output", jsonFile],
        preview.stdout,
      );
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(readFileSync(jsonFile, "utf8")) as ReportJson & {
        warnings: { kind: string; message: string }[];
        wallets: {
          atService: { verdict: string; serviceBps: unknown; recordedBps: unknown; note: string };
        }[];
      };
      const wallet = report.wallets[0]!;
      expect(wallet.atService).toMatchObject({
        verdict: "changed outside",
        serviceBps: OUTSIDE,
        recordedBps: A,
      });
      expect(wallet.atService.note).toContain(
        "The allocation was changed outside the stack: the service holds syrupUsdc 7000, tbills 3000, the stack's state syrupUsdc 4000, tbills 6000. " +
          "The merge's `pulumi up` refuses this strategy update until the stack is refreshed (`pulumi refresh`)",
      );
      expect(report.warnings[0]).toMatchObject({ kind: "changed-outside" });
      expect(report.warnings[0]!.message).toContain(`(wallet ${walletId})`);
      // The dollars: from the positions the service holds now to B, to the micro (the clock stands still).
      const [answer, catalog] = await Promise.all([
        callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`),
        callSandbox(access, "GET", "/v2/portfolio-wallets/strategies"),
      ]);
      expect(BigInt(wallet.money.impact.movedMicros)).toBe(
        moneyImpact(answer, B, catalog.strategies).movedMicros,
      );
      const markdown = readFileSync(markdownFile, "utf8");
      expect(markdown).toContain(
        `- ⚠️ PortfolioWallet "treasury" (wallet ${walletId}): The allocation was changed outside the stack`,
      );
      expect(markdown).toContain(
        "⚠️ **Changed outside the stack.** The allocation was changed outside the stack",
      );
      expect(markdown).toMatch(/\| syrupUsdc \| 7000 \| 5000 \| −2000 \|/);
    },
    ENGINE_STEPS_TIMEOUT_MS,
  );
});
