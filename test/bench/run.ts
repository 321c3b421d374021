// `npm run bench`: what the provider costs on top of the Pulumi engine. Reports, never asserts.
// For 1, 10 and 50 resources: wall time of preview and up for PortfolioWallets and for no-op
// dynamic resources on the same engine, service requests made by a preview with no changes, and
// the state size per wallet. Runs against an in-memory sandbox with a throwaway state directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation/index.js";
import { startSandbox } from "../../sandbox/index.ts";
import { ensureBuilt } from "../../scripts/build.ts";
import { pulumiCommand, pulumiEnv, repoRoot } from "../../scripts/pulumiEnv.ts";

const SIZES = (process.env["BENCH_SIZES"] ?? "1,10,50").split(",").map(Number);
const TOKEN = "bench-token";
const workDir = path.join(repoRoot, "test", "bench", "programs", "fleet");
const stateDir = mkdtempSync(path.join(tmpdir(), "pw-bench-state-"));
// The program imports the package by name, which resolves to the build in dist/.
await ensureBuilt();
const sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "bench-org" } });
const envVars = pulumiEnv({ stateDir });
const command = await pulumiCommand();

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

async function requestCounts(): Promise<Record<string, number>> {
  const response = await fetch(`${sandbox.url}/_sandbox/request-counts`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  return ((await response.json()) as { counts: Record<string, number> }).counts;
}
async function resetRequestCounts(): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/request-counts`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${TOKEN}` },
  });
}

async function stackFor(kind: string, count: number): Promise<Stack> {
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: `${kind}-${count}`, workDir },
    { pulumiCommand: command, envVars },
  );
  await stack.setAllConfig({
    "bench:count": { value: String(count) },
    "bench:kind": { value: kind },
    "portfolio-wallet:baseUrl": { value: sandbox.url },
    "portfolio-wallet:apiToken": { value: TOKEN, secret: true },
  });
  return stack;
}

const rows: string[][] = [];
try {
  for (const count of SIZES) {
    for (const kind of ["noop", "wallet"]) {
      const stack = await stackFor(kind, count);
      const [, firstPreviewSeconds] = await timed(() => stack.preview());
      const [, upSeconds] = await timed(() => stack.up());
      await resetRequestCounts();
      const [, noChangePreviewSeconds] = await timed(() => stack.preview({ expectNoChanges: true }));
      const counts = await requestCounts();
      const reads = Object.entries(counts)
        .filter(([route]) => route.startsWith("GET "))
        .reduce((n, [, c]) => n + c, 0);
      const writes = Object.entries(counts)
        .filter(([route]) => !route.startsWith("GET "))
        .reduce((n, [, c]) => n + c, 0);
      const stateBytes = JSON.stringify((await stack.exportStack()).deployment).length;
      rows.push([
        kind,
        String(count),
        firstPreviewSeconds.toFixed(1),
        upSeconds.toFixed(1),
        noChangePreviewSeconds.toFixed(1),
        kind === "wallet" ? `${reads} reads, ${writes} writes` : "-",
        String(Math.round(stateBytes / count)),
      ]);
      await stack.destroy();
      await stack.workspace.removeStack(stack.name);
      console.log(`done: ${kind} x ${count}`);
    }
  }
} finally {
  await sandbox.close();
  rmSync(stateDir, { recursive: true, force: true });
}

const header = [
  "kind",
  "n",
  "preview s",
  "up s",
  "no-change preview s",
  "requests in no-change preview",
  "state bytes / resource",
];
console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
