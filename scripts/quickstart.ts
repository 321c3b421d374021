// The README's main job: `pulumi up` of the quickstart stack (Pulumi.yaml at the top level)
// through the real Pulumi engine, against the embedded sandbox unless a base URL is configured.
//
//   npm run quickstart             # up (again: a no-op update)
//   npm run quickstart -- report   # preview, as the pull-request report a reviewer reads
//   npm run quickstart -- destroy  # tear the stack down
//
// The embedded sandbox keeps its SQLite data in .sandbox-data/ and the stack state lives in
// .pulumi-state/ (both gitignored), so a second run finds the same wallet.
//
// Environment (all optional, for running it beside another quickstart, as the tests do):
//   PORTFOLIO_WALLET_QUICKSTART_PORT       the embedded sandbox's port (default 18787; keep it per stack)
//   PORTFOLIO_WALLET_QUICKSTART_STACK      the stack name (default "quickstart")
//   PORTFOLIO_WALLET_QUICKSTART_STATE_DIR  where the stack state and the sandbox data live
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { parseArgs, promisify } from "node:util";
import path from "node:path";
import { LocalWorkspace } from "@pulumi/pulumi/automation/index.js";
import { startSandbox } from "../sandbox/index.ts";
import { ensureBuilt } from "./build.ts";
import { NODEJS_ENGINE_EXECUTABLES, pulumiCommand, pulumiEnv, repoRoot } from "./pulumiEnv.ts";

const execFileAsync = promisify(execFile);
const STACK_NAME = process.env["PORTFOLIO_WALLET_QUICKSTART_STACK"] || "quickstart";
const stateRoot = process.env["PORTFOLIO_WALLET_QUICKSTART_STATE_DIR"];
const stateDir = stateRoot ? path.join(stateRoot, "pulumi-state") : undefined;
const sandboxDataDir = stateRoot
  ? path.join(stateRoot, "sandbox-data")
  : path.join(repoRoot, ".sandbox-data");
const SANDBOX_TOKEN = "sandbox-token";
/** Set by this script beside the base URL it writes, so a later run knows the URL is its own. */
const EMBEDDED_MARKER = "portfolio-wallet-quickstart:embeddedSandbox";
/** The program's webhook URL, and the mark that this script set it (a user's own URL is kept). */
const WEBHOOK_URL = "portfolio-wallet-quickstart:webhookUrl";
const EMBEDDED_INBOX_MARKER = "portfolio-wallet-quickstart:embeddedInbox";
/** The embedded sandbox's webhook inbox the registration points at (docs/sandbox.md "Webhook inboxes"). */
const QUICKSTART_INBOX = "quickstart";

const { positionals } = parseArgs({ allowPositionals: true });
const action = positionals[0] ?? "up";
if (action !== "up" && action !== "destroy" && action !== "report") {
  console.error(`unknown action "${action}": use "up" (default), "report" or "destroy"`);
  process.exit(2);
}

// The program imports the package by name, which resolves to the build in dist/.
await ensureBuilt();
// A Node.js program: a fresh machine builds the CLI, the Node.js host and the dynamic-provider plugin
// here, and no other language's host.
const enginePieces = NODEJS_ENGINE_EXECUTABLES;
const envVars = pulumiEnv({ enginePieces, ...(stateDir ? { stateDir } : {}) });
const stack = await LocalWorkspace.createOrSelectStack(
  { stackName: STACK_NAME, workDir: repoRoot },
  { pulumiCommand: await pulumiCommand(enginePieces), envVars },
);

// The embedded sandbox is used unless the user points the stack at a service: by the environment,
// or by setting portfolio-wallet:baseUrl themselves (the quickstart marks the URLs it sets).
const config = await stack.getAllConfig();
const usesEmbeddedSandbox =
  process.env["PORTFOLIO_WALLET_BASE_URL"] === undefined &&
  (config["portfolio-wallet:baseUrl"] === undefined || config[EMBEDDED_MARKER]?.value === "true");
const embedded = usesEmbeddedSandbox
  ? await startSandbox({
      port: embeddedSandboxPort(),
      dataDir: sandboxDataDir,
      // The quickstart makes no admin call: a random admin token keeps other local processes out
      // of the admin API while the sandbox runs. A webhookUrl on this machine must be reachable.
      adminToken: randomBytes(24).toString("hex"),
      allowPrivateWebhookUrls: true,
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") throw error;
      console.error(
        `port ${embeddedSandboxPort()} is in use: stop whatever listens there (another quickstart or sandbox?), ` +
          "or choose another port with PORTFOLIO_WALLET_QUICKSTART_PORT (the same one for every later run).",
      );
      process.exit(1);
    })
  : undefined;
if (embedded) {
  console.log(
    `embedded sandbox listening on ${embedded.url} (data in ${path.relative(repoRoot, sandboxDataDir)})`,
  );
  await stack.setConfig("portfolio-wallet:baseUrl", { value: embedded.url });
  await stack.setConfig("portfolio-wallet:apiToken", { value: SANDBOX_TOKEN, secret: true });
  await stack.setConfig(EMBEDDED_MARKER, { value: "true" });
  // The webhook goes to an inbox of the embedded sandbox, so its deliveries can be seen (the
  // console's Webhooks page, or GET /_sandbox/inboxes/quickstart/deliveries) with no receiver of
  // one's own. It is set again only while it is still an inbox URL this script wrote (the sandbox
  // may have moved port): a webhookUrl the user set, before or after, stays theirs.
  const inboxPath = `/_sandbox/inboxes/${QUICKSTART_INBOX}`;
  const inboxUrl = `${embedded.url}${inboxPath}`;
  const current = config[WEBHOOK_URL]?.value;
  const ours =
    config[EMBEDDED_INBOX_MARKER]?.value === "true" &&
    current !== undefined &&
    /^http:\/\/127\.0\.0\.1:\d+\//.test(current) &&
    current.endsWith(inboxPath);
  if (current === undefined || ours) {
    await stack.setConfig(WEBHOOK_URL, { value: inboxUrl });
    await stack.setConfig(EMBEDDED_INBOX_MARKER, { value: "true" });
  }
}

/**
 * The embedded sandbox always listens on the same port: `destroy` and `refresh` configure the
 * provider from the settings recorded in state by the last `up`, so the URL must not move.
 */
function embeddedSandboxPort(): number {
  const text = process.env["PORTFOLIO_WALLET_QUICKSTART_PORT"] ?? "18787";
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`PORTFOLIO_WALLET_QUICKSTART_PORT must be a TCP port number, got "${text}"`);
    process.exit(2);
  }
  return port;
}

const stream = { onOutput: (text: string) => process.stdout.write(text) };
try {
  if (action === "destroy") {
    await stack.destroy(stream);
    console.log(`\nstack "${STACK_NAME}" destroyed`);
  } else if (action === "report") {
    // What a pull request's comment shows for the current program (edit the weights in
    // examples/quickstart/index.ts, then run this): `pulumi preview --json` into the report.
    // Asynchronous children: the embedded sandbox answers them from this very process.
    const preview = await execFileAsync(
      (await pulumiCommand(enginePieces)).command,
      ["preview", "--json", "--non-interactive", "--stack", STACK_NAME],
      { cwd: repoRoot, env: { ...process.env, ...envVars }, maxBuffer: 64 * 1024 * 1024 },
    );
    const reporting = execFileAsync(process.execPath, [path.join(repoRoot, "cli", "main.ts"), "report"], {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORTFOLIO_WALLET_BASE_URL: embedded?.url ?? String(config["portfolio-wallet:baseUrl"]?.value),
        ...(embedded ? { PORTFOLIO_WALLET_API_TOKEN: SANDBOX_TOKEN } : {}),
      },
    });
    reporting.child.stdin?.end(preview.stdout);
    const report = await reporting;
    process.stdout.write(report.stdout);
    process.stderr.write(report.stderr);
  } else {
    const result = await stack.up(stream);
    const outputs = result.outputs;
    console.log("\nQuickstart outputs:");
    console.log(`  wallet id:          ${outputs["walletId"]?.value}`);
    console.log(`  blended rate (bps): ${outputs["blendedRateBps"]?.value}`);
    console.log("  deposit addresses:");
    for (const [chain, address] of Object.entries(
      (outputs["depositAddresses"]?.value ?? {}) as Record<string, string>,
    )) {
      console.log(`    ${chain.padEnd(10)} ${address}`);
    }
  }
} finally {
  await embedded?.close();
}
