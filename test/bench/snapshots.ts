// Part of `npm run bench` (also `npm run bench:snapshot`): a funded treasury of BENCH_SNAPSHOT_WALLETS
// wallets (default 1,000), built through the API as a test would build it every run, against the
// same treasury restored from a snapshot (docs/sandbox.md "Snapshots"): into a running sandbox,
// and by starting a sandbox from the file. In a data directory, as `--data` keeps it. Reports,
// never asserts.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startSandbox } from "../../sandbox/index.ts";
import { callSandbox, fundedWallet, type SandboxAccess } from "../support/sandboxAccess.ts";

const WALLETS = Number(process.env["BENCH_SNAPSHOT_WALLETS"] ?? "1000");
/** Wallets funded at once: a test building its fixtures with some parallelism. */
const PARALLEL = 8;
const TOKEN = "bench-token";
const ADMIN = "bench-admin";
const DEPOSIT_DELAY_MS = 1000;

const dir = mkdtempSync(join(tmpdir(), "pw-bench-snapshot-"));
const start = (name: string, fromSnapshot?: string) =>
  startSandbox({
    port: 0,
    dataDir: join(dir, name),
    tokens: { [TOKEN]: "bench-org" },
    adminToken: ADMIN,
    snapshotDir: dir,
    depositProcessingDelayMs: DEPOSIT_DELAY_MS,
    ...(fromSnapshot === undefined ? {} : { fromSnapshot }),
  });
const seconds = (fromMs: number) => (performance.now() - fromMs) / 1000;

try {
  const source = await start("source");
  const access: SandboxAccess = { url: source.url, token: TOKEN, adminToken: ADMIN };
  let builtMs = performance.now();
  for (let made = 0; made < WALLETS; made += PARALLEL) {
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, WALLETS - made) }, () =>
        fundedWallet(access, 1000, { settleMs: DEPOSIT_DELAY_MS }),
      ),
    );
  }
  const buildSeconds = seconds(builtMs);
  const file = join(dir, "treasury.snapshot");
  builtMs = performance.now();
  await callSandbox(access, "POST", "/_sandbox/snapshot/save", { file: basename(file) });
  const saveSeconds = seconds(builtMs);
  const audit = await callSandbox(access, "GET", "/_sandbox/ledger");
  await source.close();

  const running = await start("running");
  const runningAccess: SandboxAccess = { url: running.url, token: TOKEN, adminToken: ADMIN };
  let restoredMs = performance.now();
  await callSandbox(runningAccess, "POST", "/_sandbox/snapshot/restore", { file: basename(file) });
  const restoreSeconds = seconds(restoredMs);
  const restoredAudit = await callSandbox(runningAccess, "GET", "/_sandbox/ledger");
  await running.close();

  restoredMs = performance.now();
  const started = await start(`started-${randomUUID()}`, file);
  const startSeconds = seconds(restoredMs);
  const startedWallets = await callSandbox(
    { url: started.url, token: TOKEN, adminToken: ADMIN },
    "GET",
    "/_sandbox/ledger",
  );
  await started.close();
  // Yield keeps accruing on the wall clock, so what is compared is what time does not move: the
  // wallets audited, what was deposited, and that every balance matches its ledger.
  const fixed = (answer: { wallets: Record<string, unknown>; total: Record<string, number> }) =>
    JSON.stringify([
      Object.keys(answer.wallets).length,
      answer.total["deposits"],
      answer.total["discrepancyMicros"],
    ]);
  if (fixed(restoredAudit) !== fixed(audit) || fixed(startedWallets) !== fixed(audit))
    throw new Error(
      `the restored treasury differs from the saved one: ${fixed(audit)} saved, ${fixed(restoredAudit)} restored, ${fixed(startedWallets)} started`,
    );

  console.log(
    [
      "",
      `## Snapshots: a funded treasury of ${WALLETS} wallets (data directory, WAL)`,
      "",
      "| step | seconds |",
      "|---|---|",
      `| build it through the API (create + deposit + settle, ${PARALLEL} at once) | ${buildSeconds.toFixed(2)} |`,
      `| save a snapshot (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB) | ${saveSeconds.toFixed(2)} |`,
      `| restore it into a running sandbox | ${restoreSeconds.toFixed(2)} |`,
      `| start a sandbox from it | ${startSeconds.toFixed(2)} |`,
      "",
    ].join("\n"),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
