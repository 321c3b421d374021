import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, test } from "vitest";
import { planAdoptions, type AllocationToAdopt, type ProgramSources } from "../../cli/adopt/adoptionPlan.ts";
import { loadAllocation } from "../../sdk/nodejs/allocationFile.ts";
import { portfolioWallet } from "./harness.ts";
import { ORG, startTestSandbox, TOKEN } from "../sandbox/helpers.ts";
import { previewOf, refreshEventLogOf, step, urnOf, walletRefresh, WALLET } from "./previewFixtures.ts";

/**
 * `portfolio-wallet adopt`: where an allocation changed at the service is written into the code
 * (the rules, pure), and the command's writes, their check and their undoing against a stand-in
 * `pulumi` that answers the config and the checking preview (the engine itself runs it in
 * test/cli/drift/driftEveryProgram.engine.test.ts, for a TypeScript and a YAML program); and `restore` on a
 * stack with nothing to restore, against the same stand-in.
 */

const A = { tbills: 6000, syrupUsdc: 4000 };
const B = { tbills: 5000, syrupUsdc: 5000 };
const C = { tbills: 2000, resolvRlp: 8000 };

const wallet = (
  name: string,
  code: Record<string, number>,
  service: Record<string, number>,
): AllocationToAdopt => ({ name, kind: "PortfolioWallet", walletId: `w-${name}`, code, service });

const sources = (overrides: Partial<ProgramSources> = {}): ProgramSources => ({
  allocationFiles: [],
  config: [],
  files: [],
  ...overrides,
});

const PROGRAM = `import { PortfolioWallet } from "@portfolio-wallet/pulumi";
const treasury = new PortfolioWallet("treasury", {
  positions: [
    { positionKey: "tbills", targetWeightBps: 6000 },
    { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  ],
});
`;

describe("where adopt writes an allocation", () => {
  test("the allocation file holding the code's allocation", () => {
    const [adoption] = planAdoptions(
      [wallet("treasury", A, B)],
      [],
      sources({
        allocationFiles: [
          { path: "other.json", weights: { tbills: 10000 } },
          { path: "allocations/treasury.json", weights: A },
        ],
      }),
    );
    expect(adoption).toMatchObject({ how: "allocation-file", file: "allocations/treasury.json" });
  });

  test("of two files with the code's allocation, the one named after the wallet; else neither, and why", () => {
    const files = [
      { path: "allocations/treasury.json", weights: A },
      { path: "allocations/payroll.json", weights: A },
    ];
    expect(
      planAdoptions([wallet("treasury", A, B)], [], sources({ allocationFiles: files }))[0],
    ).toMatchObject({
      how: "allocation-file",
      file: "allocations/treasury.json",
    });
    const [unnamed] = planAdoptions(
      [wallet("ops", A, B)],
      [],
      sources({ allocationFiles: files, files: [{ path: "index.ts", text: PROGRAM }] }),
    );
    expect(unnamed!.how).toBe("by-hand");
    expect(unnamed).toMatchObject({
      why: expect.stringContaining(
        "2 allocation files hold the code's allocation (allocations/treasury.json, allocations/payroll.json)",
      ),
    });
  });

  test("a file another wallet reads too is not written unless that wallet moved the same way", () => {
    const allocationFiles = [{ path: "allocation.json", weights: A }];
    const [shared] = planAdoptions(
      [wallet("treasury", A, B)],
      [{ name: "payroll", code: A }],
      sources({ allocationFiles }),
    );
    expect(shared).toMatchObject({
      how: "by-hand",
      why: expect.stringContaining(
        "also that of payroll, whose allocation the service did not change the same way",
      ),
    });
    const both = planAdoptions(
      [wallet("treasury", A, B), wallet("payroll", A, B)],
      [],
      sources({ allocationFiles }),
    );
    expect(both.map((a) => a.how)).toEqual(["allocation-file", "allocation-file"]);
    const apart = planAdoptions(
      [wallet("treasury", A, B), wallet("payroll", A, C)],
      [],
      sources({ allocationFiles }),
    );
    expect(apart.map((a) => a.how)).toEqual(["by-hand", "by-hand"]);
  });

  test("stack settings named after each source, holding the code's weights", () => {
    const config = [
      { key: "treasury:tbillsBps", value: "6000" },
      { key: "treasury:syrupUsdcBps", value: "4000" },
      { key: "treasury:label", value: "tbills" },
    ];
    const [adoption] = planAdoptions([wallet("treasury", A, B)], [], sources({ config }));
    expect(adoption).toEqual({
      wallet: wallet("treasury", A, B),
      how: "stack-config",
      settings: [
        { key: "treasury:syrupUsdcBps", from: 4000, to: 5000 },
        { key: "treasury:tbillsBps", from: 6000, to: 5000 },
      ],
    });
  });

  test("settings of two wallets: each wallet's own, by its name", () => {
    const config = [
      { key: "p:treasuryTbillsBps", value: "6000" },
      { key: "p:treasurySyrupUsdcBps", value: "4000" },
      { key: "p:payroll_tbills_bps", value: "6000" },
      { key: "p:payroll_syrup_usdc_bps", value: "4000" },
    ];
    const [treasury] = planAdoptions([wallet("treasury", A, B)], [], sources({ config }));
    expect(treasury).toMatchObject({
      how: "stack-config",
      settings: [
        { key: "p:treasurySyrupUsdcBps", to: 5000 },
        { key: "p:treasuryTbillsBps", to: 5000 },
      ],
    });
    // Two settings could be syrupUsdc (the first source), and neither is named after "ops".
    const [ops] = planAdoptions([wallet("ops", A, B)], [], sources({ config }));
    expect(ops).toMatchObject({
      how: "by-hand",
      why: expect.stringContaining(
        "2 settings that could be ops's syrupUsdc (p:treasurySyrupUsdcBps, p:payroll_syrup_usdc_bps)",
      ),
    });
  });

  test("the service holds a source the program has no setting for: by hand, with the lines that name the sources", () => {
    const config = [
      { key: "treasury:tbillsBps", value: "6000" },
      { key: "treasury:syrupUsdcBps", value: "4000" },
    ];
    const [adoption] = planAdoptions(
      [wallet("treasury", A, C)],
      [],
      sources({ config, files: [{ path: "index.ts", text: PROGRAM }] }),
    );
    expect(adoption).toMatchObject({
      how: "by-hand",
      why: expect.stringMatching(
        /the service holds resolvRlp, which the program has no position for; the service holds no syrupUsdc, and a position is removed from the program, not set to 0/,
      ),
    });
    expect(adoption!.how === "by-hand" && adoption!.lines.map((l) => `${l.path}:${l.line}`)).toEqual([
      "index.ts:4",
      "index.ts:5",
    ]);
  });

  test("literals in the program: by hand, each line that names a source", () => {
    const [adoption] = planAdoptions(
      [wallet("treasury", A, B)],
      [],
      sources({ files: [{ path: "index.ts", text: PROGRAM }] }),
    );
    expect(adoption).toMatchObject({
      how: "by-hand",
      why: expect.stringContaining(
        "no allocation file of the project and no stack setting holds the code's allocation",
      ),
      lines: [
        { path: "index.ts", line: 4, text: '{ positionKey: "tbills", targetWeightBps: 6000 },' },
        { path: "index.ts", line: 5, text: '{ positionKey: "syrupUsdc", targetWeightBps: 4000 },' },
      ],
    });
  });

  test("two wallets may not set one setting to two weights", () => {
    const config = [
      { key: "p:tbillsBps", value: "6000" },
      { key: "p:syrupUsdcBps", value: "4000" },
    ];
    const planned = planAdoptions(
      [wallet("treasury", A, B), wallet("payroll", A, { tbills: 7000, syrupUsdc: 3000 })],
      [],
      sources({ config }),
    );
    expect(planned.map((a) => a.how)).toEqual(["by-hand", "by-hand"]);
    expect(planned[0]).toMatchObject({ why: expect.stringContaining("would be set to different weights") });
  });
});

describe("portfolio-wallet adopt, against a stand-in pulumi", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "pw-adopt-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const bin = path.join(root, "bin");
  const project = path.join(root, "project");
  const log = path.join(root, "pulumi.log");
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    path.join(bin, "pulumi"),
    `#!/bin/bash
echo "$*" >> "$FAKE_LOG"
case "$1 $2" in
  "config --json") cat "$FAKE_CONFIG" ;;
  "config set") ;;
  "preview --refresh")
    previous=""
    for argument in "$@"; do [ "$previous" = --save-plan ] && cp "$FAKE_PLAN" "$argument"; previous="$argument"; done
    cat "$FAKE_PREVIEW" ;;
  *) echo "unexpected: pulumi $*" >&2; exit 3 ;;
esac
`,
  );
  chmodSync(path.join(bin, "pulumi"), 0o755);

  const write = (file: string, text: string) => {
    writeFileSync(path.join(root, file), text);
    return path.join(root, file);
  };
  const refreshed = (code: Record<string, number>, service: Record<string, number>) =>
    write("refresh.jsonl", refreshEventLogOf([step.sameStack(), walletRefresh(code, service)]));
  const checkingPreview = (op: "same" | "update") =>
    write(
      "preview.json",
      previewOf([
        step.sameStack(),
        op === "same" ? step.walletSame("treasury", B, WALLET) : step.walletUpdate("treasury", B, A, WALLET),
      ]),
    );
  const run = (
    command: "adopt" | "restore",
    args: string[],
    files: { config?: Record<string, unknown>; preview?: string; env?: Record<string, string> },
  ) =>
    portfolioWallet([command, ...args], {
      cwd: project,
      env: {
        PATH: `${bin}:${process.env["PATH"]}`,
        FAKE_LOG: log,
        FAKE_CONFIG: write("config.json", JSON.stringify(files.config ?? {})),
        FAKE_PREVIEW: files.preview ?? checkingPreview("same"),
        ...files.env,
      },
    });
  const adopt = (args: string[], files: { config?: Record<string, unknown>; preview?: string }) =>
    run("adopt", args, files);
  const calls = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);

  beforeEach(() => {
    rmSync(project, { recursive: true, force: true });
    mkdirSync(project, { recursive: true });
    writeFileSync(log, "");
  });

  test("writes the service's allocation into the allocation file, checks a refreshed preview, exit 0", async () => {
    const file = path.join(project, "allocation.json");
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          positions: [
            { positionKey: "tbills", targetWeightBps: 6000 },
            { positionKey: "syrupUsdc", targetWeightBps: 4000 },
          ],
          quote: { blendedRateBps: 505 },
          owner: "treasury-team",
        },
        null,
        2,
      )}\n`,
    );
    const body = path.join(root, "adopt.md");
    const run = await adopt(["--refresh-preview", refreshed(A, B), "--output", body], {});
    expect(run.code, run.stderr).toBe(0);
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written.positions).toEqual([
      { positionKey: "syrupUsdc", targetWeightBps: 5000 },
      { positionKey: "tbills", targetWeightBps: 5000 },
    ]);
    // The quote no longer says where the weights came from; the file's other fields stay.
    expect(written.quote).toBeUndefined();
    expect(written.owner).toBe("treasury-team");
    expect(written.adopted.walletId).toBe(WALLET);
    expect(loadAllocation(file)).toEqual(written.positions);
    expect(calls()).toEqual([
      "config --json --non-interactive",
      "preview --refresh --json --non-interactive",
    ]);
    expect(run.stdout).toContain("1 of 1 allocation changed at the service written into the code");
    expect(run.stdout).toContain("syrupUsdc 4000 → 5000, tbills 6000 → 5000");
    expect(run.stdout).toContain("Written to the allocation file allocation.json.");
    expect(run.stdout).toContain("shows no change to the wallets written here");
    expect(readFileSync(body, "utf8")).toContain("Written to the allocation file `allocation.json`.");
  });

  test("a refreshed preview that still changes the wallet: exit 1, the file put back byte for byte", async () => {
    const file = path.join(project, "allocation.json");
    const before = `{"positions":[{"positionKey":"tbills","targetWeightBps":6000},{"positionKey":"syrupUsdc","targetWeightBps":4000}]}`;
    writeFileSync(file, before);
    const run = await adopt(["--refresh-preview", refreshed(A, B)], { preview: checkingPreview("update") });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("a refreshed preview still changes treasury (update)");
    expect(run.stderr).toContain("adopt put back everything it had written");
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  test("stack settings are set through pulumi config set, and set back when the check fails", async () => {
    const config = {
      "treasury:tbillsBps": { value: "6000", secret: false },
      "treasury:syrupUsdcBps": { value: "4000", secret: false },
      "portfolio-wallet:apiToken": { value: "[secret]", secret: true },
    };
    const run = await adopt(["--stack", "dev", "--refresh-preview", refreshed(A, B)], { config });
    expect(run.code, run.stderr).toBe(0);
    expect(calls()).toEqual([
      "config --json --non-interactive --stack dev",
      "config set --stack dev --non-interactive treasury:syrupUsdcBps 5000",
      "config set --stack dev --non-interactive treasury:tbillsBps 5000",
      "preview --refresh --json --non-interactive --stack dev",
    ]);
    expect(run.stdout).toContain("Stack config treasury:tbillsBps: 6000 → 5000.");

    writeFileSync(log, "");
    const failed = await adopt(["--refresh-preview", refreshed(A, B)], {
      config,
      preview: checkingPreview("update"),
    });
    expect(failed.code).toBe(1);
    expect(calls().slice(-2)).toEqual([
      "config set --non-interactive treasury:tbillsBps 6000",
      "config set --non-interactive treasury:syrupUsdcBps 4000",
    ]);
  });

  test("an allocation it cannot place: exit 2, nothing written, no preview, the lines to change", async () => {
    writeFileSync(path.join(project, "index.ts"), PROGRAM);
    // Dependencies are not the program: their lines are never listed.
    mkdirSync(path.join(project, "node_modules", "x"), { recursive: true });
    writeFileSync(path.join(project, "node_modules", "x", "index.js"), 'const tbills = "tbills";\n');
    const run = await adopt(["--refresh-preview", refreshed(A, C)], {});
    expect(run.code, run.stderr).toBe(2);
    expect(calls()).toEqual(["config --json --non-interactive"]);
    expect(run.stdout).toContain(
      "0 of 1 allocation changed at the service written into the code; 1 to change by hand",
    );
    expect(run.stdout).toContain('index.ts:4  { positionKey: "tbills", targetWeightBps: 6000 },');
    expect(run.stdout).not.toContain("node_modules");
    expect(run.stdout).toContain("add resolvRlp 8000, remove syrupUsdc (4000), tbills 6000 → 2000");
  });

  test("restore with nothing to restore: exit 0, a report of no changes, the plan named", async () => {
    const t = await startTestSandbox({ tokens: { [TOKEN]: ORG } });
    try {
      const plan = write(
        "saved-plan.json",
        JSON.stringify({
          resourcePlans: {
            [urnOf("wallet", "treasury")]: { goal: { type: "x" }, steps: [], state: { targetWeightsBps: B } },
          },
        }),
      );
      const planFile = path.join(root, "restore-plan.json");
      const restore = await run("restore", ["--plan", planFile], {
        env: { FAKE_PLAN: plan, PORTFOLIO_WALLET_BASE_URL: t.url, PORTFOLIO_WALLET_API_TOKEN: TOKEN },
      });
      expect(restore.code, restore.stderr).toBe(0);
      expect(calls()).toEqual([`preview --refresh --json --save-plan ${planFile} --non-interactive`]);
      expect(restore.stdout).toContain("**Restore.**");
      expect(restore.stdout).toContain("### treasury/prod: no changes");
      expect(restore.stdout).toContain("No allocation, wallet or webhook changes in this preview.");
      expect(restore.stdout).toMatch(/sha256:[0-9a-f]{64}/);
    } finally {
      await t.close();
    }
  });

  test("nothing changed at the service: exit 0, nothing asked of the engine", async () => {
    const run = await adopt(["--refresh-preview", refreshed(A, A)], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("nothing to adopt");
    expect(calls()).toEqual([]);
  });
});
