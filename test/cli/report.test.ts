import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { buildAllocationReport, type ReportContext } from "../../cli/report/allocationReport.ts";
import { readPreview } from "../../cli/report/previewSteps.ts";
import { renderMarkdown } from "../../cli/report/renderMarkdown.ts";
import { CATALOG, previewOf, step, type FixtureStep } from "./previewFixtures.ts";
import { portfolioWallet, useCliDirectory } from "./harness.ts";

/**
 * The pull-request report: snapshots of the markdown a reviewer reads for each kind of change, the
 * JSON form, the size budget, and that nothing outside the allowlist reaches it.
 */

const WALLET_A = "0b3f5c1e-1d2a-4c7e-9f10-5a6b7c8d9e01";
const WALLET_B = "1c4a6d2f-2e3b-4d8f-8a21-6b7c8d9e0f12";
const WALLET_C = "2d5b7e3a-3f4c-4e9a-9b32-7c8d9e0f1a23";

function context(overrides: Partial<ReportContext> = {}): ReportContext {
  return {
    catalog: CATALOG,
    catalogSource: "the service at https://api.example.com",
    catalogReadAt: "2026-11-23T10:00:00.000Z",
    commit: "4f2c9e1",
    balances: new Map(),
    approverConfigured: false,
    ...overrides,
  };
}

function markdownOf(
  steps: FixtureStep[],
  overrides: Partial<ReportContext> = {},
  config: Record<string, string> = {},
) {
  return renderMarkdown(buildAllocationReport(readPreview(previewOf(steps, config)), context(overrides)));
}

/** A plan's digest as the report names it (any 64 hex digits). */
const PLAN_SHA256 = "4243fc400589d2b78f933d5b65c787aa42fc1a03cbf9a4843cc6b888b634b15d";

describe("report snapshots", () => {
  test("one wallet reweighted, with its plan", async () => {
    const markdown = markdownOf(
      [
        step.sameStack(),
        step.walletUpdate(
          "treasury",
          { tbills: 6000, syrupUsdc: 4000 },
          { tbills: 5000, syrupUsdc: 5000 },
          WALLET_A,
        ),
      ],
      { planSha256: PLAN_SHA256 },
    );
    expect(markdown).toContain(
      `**Plan:** \`sha256:${PLAN_SHA256}\`. The merge job applies exactly this plan`,
    );
    expect(markdown.split("\n")[1]).toBe("### treasury/prod: 1 wallet reweighted");
    expect(markdown).toContain("| syrupUsdc | 4000 | 5000 | +1000 |");
    expect(markdown).toContain("| tbills | 6000 | 5000 | −1000 |");
    expect(markdown).toContain("| **sum** | **10000** | **10000** | |");
    // 6000×430 + 4000×650 = 518 bps; 5000×430 + 5000×650 = 540 bps. At once: syrupUsdc only.
    expect(markdown).toContain(
      "Blended rate 518.0 → 540.0 bps (+22.0) · withdrawable at once 4000 → 5000 bps (+1000)",
    );
    expect(markdown).toContain("No approver is configured for `up`");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-one-wallet-reweighted.md");
  });

  test("several wallets, with an approver configured", async () => {
    const markdown = markdownOf(
      [
        step.sameStack(),
        step.walletUpdate("ops", { tbills: 10_000 }, { tbills: 7000, resolvRlp: 3000 }, WALLET_A),
        step.walletUpdate(
          "payroll",
          { syrupUsdc: 5000, tbills: 5000 },
          { syrupUsdc: 8000, tbills: 2000 },
          WALLET_B,
        ),
        step.walletSame("reserve", { tbills: 10_000 }, WALLET_C),
      ],
      { approverConfigured: true },
    );
    expect(markdown).toContain("### treasury/prod: 2 wallets reweighted");
    expect(markdown).toContain("This stack configures an approver");
    expect(markdown).toContain("Unchanged resources: 1.");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-several-wallets.md");
  });

  test("a new wallet", async () => {
    const markdown = markdownOf([
      step.sameStack(),
      step.walletCreate("growth", { resolvRlp: 2000, tbills: 8000 }),
    ]);
    expect(markdown).toContain("### treasury/prod: 1 wallet created");
    expect(markdown).toContain("| resolvRlp | — | 2000 | +2000 |");
    expect(markdown).toContain("Blended rate — → 554.0 bps");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-new-wallet.md");
  });

  test("a delete the provider will refuse because the wallet holds funds comes first among the warnings", async () => {
    const markdown = markdownOf(
      [
        step.sameStack(),
        step.walletDelete("legacy", { tbills: 10_000 }, WALLET_B),
        step.walletDelete("archive", { tbills: 10_000 }, WALLET_C, "retain"),
      ],
      { balances: new Map([[WALLET_B, 125_000.5]]) },
    );
    const warnings = markdown.split("\n").filter((line) => line.startsWith("- ⚠️"));
    expect(warnings[0]).toMatch(
      /PortfolioWallet "legacy" cannot leave the stack: the wallet holds \$125,000.50/,
    );
    expect(warnings[0]).toMatch(/`up` will fail here/);
    expect(warnings[1]).toMatch(
      /"archive" leaves the stack; the wallet stays at the service with its funds \(onDelete: "retain"\)/,
    );
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-refused-funded-delete.md");
  });

  test("a webhook replacement warns that its secret rotates, and its URL never appears", async () => {
    const markdown = markdownOf([
      step.sameStack(),
      step.webhookReplace("treasury-events"),
      step.webhookCreateReplacement("treasury-events"),
      step.webhookDeleteReplaced("treasury-events"),
    ]);
    expect(markdown).toContain("### treasury/prod: 1 webhook replaced");
    expect(markdown).toMatch(
      /WebhookRegistration "treasury-events" is replaced: the new registration gets a new signing secret/,
    );
    expect(markdown).not.toContain("hunter2");
    expect(markdown).not.toContain("hooks.example.com");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-webhook-replaced.md");
  });

  test("no changes", async () => {
    const markdown = markdownOf([
      step.sameStack(),
      step.walletSame("treasury", { tbills: 10_000 }, WALLET_A),
    ]);
    expect(markdown.split("\n")[1]).toBe("### treasury/prod: no changes");
    await expect(markdown).toMatchFileSnapshot("__snapshots__/report-no-changes.md");
  });

  test("300 wallets stay under GitHub's 65,536 characters, with the marker and headline whole", async () => {
    const steps = [step.sameStack()];
    for (let index = 0; index < 300; index++) {
      steps.push(
        step.walletUpdate(
          `wallet-${String(index).padStart(3, "0")}`,
          { tbills: 6000, syrupUsdc: 3000, resolvRlp: 1000 },
          { tbills: 5000, syrupUsdc: 3500, resolvRlp: 1500 },
          randomUUID(),
        ),
      );
    }
    steps.push(step.walletDelete("legacy", { tbills: 10_000 }, WALLET_B));
    const markdown = markdownOf(steps, { balances: new Map([[WALLET_B, 10]]) });
    expect(markdown.length).toBeLessThan(65_536);
    const [marker, headline] = markdown.split("\n");
    expect(marker).toBe("<!-- portfolio-wallet-report project=treasury stack=prod commit=4f2c9e1 -->");
    expect(headline).toBe("### treasury/prod: 300 wallets reweighted, 1 wallet removed from the stack");
    expect(markdown).toMatch(/cannot leave the stack: the wallet holds \$10.00/);
    // Too large for a table per wallet: one row per wallet instead, each naming its changes.
    expect(markdown).toContain(
      "| wallet-299 | reweighted | resolvRlp 1000→1500, syrupUsdc 3000→3500, tbills 6000→5000 |",
    );
  });

  test("a tight budget leaves rows out, saying how many, and never cuts the headline or warnings", () => {
    const steps = [step.sameStack()];
    for (let index = 0; index < 50; index++) {
      steps.push(step.walletUpdate(`w${index}`, { tbills: 10_000 }, { syrupUsdc: 10_000 }, randomUUID()));
    }
    const report = buildAllocationReport(readPreview(previewOf(steps)), context());
    const markdown = renderMarkdown(report, 3_000);
    expect(markdown.length).toBeLessThanOrEqual(3_000);
    expect(markdown).toContain("### treasury/prod: 50 wallets reweighted");
    expect(markdown).toMatch(/… and \d+ more wallets, left out to fit the comment/);
  });
});

describe("report facts", () => {
  test("the JSON form carries the same facts, including unknown position keys as a warning", () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate("treasury", { tbills: 10_000 }, { tbills: 5000, ethenaUsde: 5000 }, WALLET_A),
        ]),
      ),
      context(),
    );
    expect(report.wallets[0]).toMatchObject({
      name: "treasury",
      action: "reweighted",
      unknownKeys: ["ethenaUsde"],
      blendedRateBps: { before: 430, after: 215 },
      instantShareBps: { before: 0, after: 0 },
    });
    expect(report.warnings.map((warning) => warning.kind)).toEqual(["unknown-keys"]);
  });

  test("allocations known only at up are said to be so", () => {
    const report = buildAllocationReport(
      readPreview(
        previewOf([
          step.walletUpdate(
            "treasury",
            { tbills: 10_000 },
            "04da6b54-80e4-46f7-96ec-b56ff0331ba9" as never,
            WALLET_A,
          ),
        ]),
      ),
      context(),
    );
    expect(report.wallets[0]?.afterUnknown).toBe(true);
    expect(renderMarkdown(report)).toContain("known only at `up`");
  });

  test("a preview run with --refresh (restore) is read by its planned steps, each from the state the refresh read", () => {
    // The engine lists each resource's refresh first, with the state from before it read the service.
    const stale = step.walletUpdate(
      "treasury",
      { tbills: 6000, syrupUsdc: 4000 },
      { tbills: 6000, syrupUsdc: 4000 },
      WALLET_A,
    );
    const refreshed = step.walletUpdate(
      "treasury",
      { tbills: 2000, resolvRlp: 8000 },
      { tbills: 6000, syrupUsdc: 4000 },
      WALLET_A,
    );
    const preview = readPreview(previewOf([step.sameStack(), { ...stale, op: "refresh" }, refreshed]));
    expect(preview.steps.map((s) => `${s.op} ${s.name}`)).toEqual(["same treasury-prod", "update treasury"]);
    const report = buildAllocationReport(preview, context());
    expect(report.wallets).toHaveLength(1);
    expect(report.wallets[0]?.rows).toContainEqual(
      expect.objectContaining({ positionKey: "resolvRlp", beforeBps: 8000, afterBps: 0 }),
    );
  });

  test("text that is not a preview is refused with what to pass instead", () => {
    expect(() => readPreview("Previewing update (prod):")).toThrow(
      /not JSON: pass the output of `pulumi preview --json`/,
    );
    expect(() => readPreview('{"resources": []}')).not.toThrow();
  });
});

describe("portfolio-wallet report", () => {
  const cwd = useCliDirectory();

  test("reads the preview on stdin, the catalog from a file, and prints markdown or JSON without secrets", async () => {
    const planted = {
      "portfolio-wallet:apiToken": "pw-planted-token-51c0f2",
      "portfolio-wallet:turnkeyApiPrivateKey": "ab".repeat(32),
      "treasury:note": "config values never reach the report",
    };
    const preview = previewOf(
      [
        step.walletUpdate(
          "treasury",
          { tbills: 6000, syrupUsdc: 4000 },
          { tbills: 5000, syrupUsdc: 5000 },
          WALLET_A,
        ),
      ],
      planted,
    );
    const catalogFile = `${cwd()}/catalog.json`;
    await import("node:fs").then((fs) =>
      fs.writeFileSync(catalogFile, JSON.stringify({ strategies: CATALOG })),
    );
    const markdown = await portfolioWallet(["report", "--catalog", catalogFile, "--commit", "abc1234"], {
      cwd: cwd(),
      input: preview,
    });
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(
      "<!-- portfolio-wallet-report project=treasury stack=prod commit=abc1234 -->",
    );
    expect(markdown.stdout).toContain("| tbills | 6000 | 5000 | −1000 |");
    // Offline: basis points only, saying why.
    expect(markdown.stdout).toContain(
      `**Dollars:** Dollars not shown, basis points only: the report ran offline (--catalog ${catalogFile}), so the service's wallets were not read.`,
    );
    // The key's presence says an approver is configured; its value never appears.
    expect(markdown.stdout).toContain("This stack configures an approver");
    const json = await portfolioWallet(["report", "--catalog", catalogFile, "--format", "json"], {
      cwd: cwd(),
      input: preview,
    });
    expect(JSON.parse(json.stdout).wallets[0].rows).toHaveLength(2);
    for (const output of [markdown.stdout, json.stdout]) {
      for (const value of Object.values(planted)) expect(output).not.toContain(value);
    }
  });

  test("without a catalog file or service settings, it says how to give one", async () => {
    const result = await portfolioWallet(["report"], { cwd: cwd(), input: previewOf([step.sameStack()]) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/baseUrl is not set/);
  });
});
