// Records the upgrade baseline of this checkout's version (`npm run upgrade-baseline:record`; see
// README.md beside this file): for each program kind, a stack made by the packed package (the
// TypeScript program) or the plugin (the YAML program) of this checkout, with every resource kind, a
// funded wallet, a strategy update applied and a webhook; then its program, its stack config and its
// exported state written to test/consumer/upgradeBaseline/<version>/<kind>/. The test in
// test/consumer/layouts.engine.test.ts previews every recorded baseline with the checkout it runs on.
//
// Run it on the commit a release is made from, before the version's number moves on. A version
// that has its baseline already is refused: its users' stacks hold what it recorded; `--force`
// records it again (only for a version not yet released).
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { engineBinDir, repoRoot } from "../../../scripts/pulumiEnv.ts";
import { startSandbox } from "../../../sandbox/index.ts";
import { filesUnder, secretFindings, textSecret } from "../../e2e/harness/secrets.ts";
import { configSetAll } from "../../support/pulumiConfig.ts";
import { callSandbox, type SandboxAccess } from "../../support/sandboxAccess.ts";
import { packedPackage } from "../harness/packedPackage.ts";
import {
  BASELINE_PROGRAMS_DIR,
  BASELINES_DIR,
  BaselineProject,
  changedSteps,
  MANIFEST_FILE,
  PROGRAM_KINDS,
  STATE_FILE,
  type BaselineManifest,
  type ProgramKind,
} from "../harness/upgradeBaseline.ts";

const STACK = "baseline";
/** Test-only: committed in baseline.json, it encrypts only this sandbox's token and webhook secret. */
const TEST_ONLY_PASSPHRASE = "upgrade-baseline-test-only-passphrase";
const ORGANIZATION = "upgrade-baseline";

/** The allocations before and after the recorded strategy update, as the programs' stack config. */
const FIRST_WEIGHTS = {
  treasuryTbillsBps: "6000",
  treasurySyrupUsdcBps: "4000",
  managedTbillsBps: "5000",
  managedResolvRlpBps: "5000",
};
const UPDATED_WEIGHTS = {
  treasuryTbillsBps: "5000",
  treasurySyrupUsdcBps: "5000",
  managedTbillsBps: "3000",
  managedResolvRlpBps: "7000",
};

const force = process.argv.includes("--force");
const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};
const target = path.join(BASELINES_DIR, version);
if (existsSync(target) && !force) {
  console.error(
    `${path.relative(repoRoot, target)} exists: version ${version} has its baseline, which its users' stacks ` +
      "match. Move the version on first; --force records it again (only for a version not yet released).",
  );
  process.exit(1);
}

const tarball = await packedPackage();
// A sandbox token made for this recording: the stacks hold it as a Pulumi secret only.
const token = `pw-upgrade-baseline-${randomBytes(8).toString("hex")}`;
const sandbox = await startSandbox({
  port: 0,
  dataDir: ":memory:",
  tokens: { [token]: ORGANIZATION },
  depositProcessingDelayMs: 50,
  rebalanceDelayMs: 50,
  // The programs' webhook goes to a loopback address: nothing leaves the machine.
  allowPrivateWebhookUrls: true,
});
const access: SandboxAccess = { url: sandbox.url, token };
const staging = mkdtempSync(path.join(BASELINES_DIR, `.recording-${version}-`));

async function recordStack(kind: ProgramKind): Promise<void> {
  const project = await BaselineProject.create(
    kind,
    path.join(BASELINE_PROGRAMS_DIR, kind),
    TEST_ONLY_PASSPHRASE,
    tarball,
  );
  try {
    project.env["PORTFOLIO_WALLET_BASE_URL"] = sandbox.url;
    await project.pulumi(["stack", "init", STACK]);
    // The WalletStrategy's wallet is made outside the stack, as another stack or a person would.
    const managed = await callSandbox(access, "POST", "/v2/portfolio-wallets", {
      requestId: randomUUID(),
      label: `managed elsewhere (${kind})`,
      positions: [
        { positionKey: "tbills", targetWeightBps: 5000 },
        { positionKey: "resolvRlp", targetWeightBps: 5000 },
      ],
    });
    await project.pulumi(
      configSetAll({ ...FIRST_WEIGHTS, managedWalletId: managed.id }, { "portfolio-wallet:apiToken": token }),
    );
    await project.pulumi(["up", "--yes", "--skip-preview"]);

    const walletId = await output(project, "walletId");
    const wallet = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    await callSandbox(access, "POST", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: 2500,
      txHash: `0xupgrade-baseline-${kind}`,
    });
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 1000 });
    const funded = await callSandbox(access, "GET", `/v2/portfolio-wallets/${walletId}`);
    if (!(Number(funded.totalBalanceUsd) > 0)) throw new Error(`wallet ${walletId} is not funded: ${funded}`);

    await project.pulumi(configSetAll(UPDATED_WEIGHTS));
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 1000 });
    for (const [id, key] of [
      [walletId, "syrupUsdc"],
      [managed.id, "resolvRlp"],
    ] as const) {
      const updated = await callSandbox(access, "GET", `/v2/portfolio-wallets/${id}`);
      const position = (
        updated.strategyConfig.positions as { positionKey: string; targetWeightBps: number }[]
      ).find((candidate) => candidate.positionKey === key);
      if (position?.targetWeightBps !== (key === "syrupUsdc" ? 5000 : 7000))
        throw new Error(`the strategy update of ${id} did not reach the service: ${JSON.stringify(updated)}`);
    }

    // What is recorded must itself preview as no change with the code that made it.
    const changes = changedSteps((await project.pulumi(["preview", "--json"])).stdout);
    if (changes.length > 0)
      throw new Error(`the ${kind} stack does not preview as no change:\n${changes.join("\n")}`);

    const out = path.join(staging, kind);
    cpSync(path.join(BASELINE_PROGRAMS_DIR, kind), out, { recursive: true });
    cpSync(path.join(project.dir, `Pulumi.${STACK}.yaml`), path.join(out, `Pulumi.${STACK}.yaml`));
    const state = JSON.parse((await project.pulumi(["stack", "export"])).stdout) as unknown;
    writeFileSync(path.join(out, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);

    const webhookSecret = await output(project, "webhookSecret");
    const plaintext = secretFindings(filesUnder(out), [
      textSecret("API token", token),
      textSecret("webhook signing secret", String(webhookSecret)),
    ]);
    if (plaintext.length > 0) throw new Error(`secrets in plain text:\n${plaintext.join("\n")}`);
  } finally {
    project.cleanUp();
  }
}

async function output(project: BaselineProject, name: string): Promise<unknown> {
  const outputs = JSON.parse((await project.pulumi(["stack", "output", "--json", "--show-secrets"])).stdout);
  return (outputs as Record<string, unknown>)[name];
}

try {
  for (const kind of PROGRAM_KINDS) {
    console.log(`recording the ${kind} stack of ${version}`);
    await recordStack(kind);
  }
  const git = (args: string[]) => execFileSync("git", args, { cwd: repoRoot, encoding: "utf8" }).trim();
  // What this recording writes is not a change of the checkout's; anything else is.
  const writing = path.relative(repoRoot, BASELINES_DIR);
  const dirty =
    git(["status", "--porcelain", "--", ".", `:!${writing}/${version}`, `:!${writing}/.recording-*`]) !== "";
  const manifest: BaselineManifest = {
    packageVersion: version,
    stack: STACK,
    testOnlyPassphrase: TEST_ONLY_PASSPHRASE,
    programs: [...PROGRAM_KINDS],
    recordedWith: {
      pulumi: execFileSync(path.join(engineBinDir(), "pulumi"), ["version"], { encoding: "utf8" }).trim(),
      node: process.version,
      commit: `${git(["rev-parse", "HEAD"])}${dirty ? " (with uncommitted changes)" : ""}`,
      at: new Date().toISOString(),
    },
  };
  writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(path.dirname(target), { recursive: true });
  renameSync(staging, target);
  console.log(`recorded ${path.relative(repoRoot, target)}: commit it with the release`);
} finally {
  rmSync(staging, { recursive: true, force: true });
  await sandbox.close();
}
