// `npm run bench:report`: what the dollars cost the pull-request report (issue 37). A sandbox holds
// 1,000 wallets (100 of them funded); a preview reweights all 1,000; `portfolio-wallet report` runs
// offline (`--catalog`, basis points only) and against the sandbox (catalog, wallets read with the
// list endpoint's pages, quotes), three times each, as a pipeline runs it. Reports the medians and
// the requests the sandbox counted; never asserts (test/cli/reportMoney.test.ts holds the counts).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { previewOf, step } from "../cli/previewFixtures.ts";

const WALLETS = Number(process.env["BENCH_REPORT_WALLETS"] ?? 1000);
const FUNDED = Math.min(100, WALLETS);
const RUNS = 3;
const TOKEN = "bench-report-token";

const sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { [TOKEN]: "bench-org" } });
const call = async (method: string, route: string, body?: unknown) => {
  const response = await fetch(`${sandbox.url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return text === "" ? null : JSON.parse(text);
};
const dir = mkdtempSync(path.join(tmpdir(), "pw-bench-report-"));
try {
  const ids: string[] = [];
  for (let index = 0; index < WALLETS; index++) {
    const wallet = await call("POST", "/v2/portfolio-wallets", {
      requestId: randomUUID(),
      positions: [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ],
    });
    ids.push(wallet.id);
    if (index < FUNDED) {
      await call("POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: 10_000 + index,
        txHash: `0x${randomUUID().replaceAll("-", "")}`,
      });
    }
  }
  await call("POST", "/_sandbox/clock/advance", { ms: 7_200_000 });
  const preview = previewOf(
    ids.map((id, index) =>
      step.walletUpdate(
        `w${index}`,
        { tbills: 6000, syrupUsdc: 4000 },
        { tbills: 5000, syrupUsdc: 5000 },
        id,
      ),
    ),
  );
  const previewFile = path.join(dir, "preview.json");
  writeFileSync(previewFile, preview);
  const catalogFile = path.join(dir, "catalog.json");
  writeFileSync(catalogFile, JSON.stringify(await call("GET", "/v2/portfolio-wallets/strategies")));

  const cli = path.join(repoRoot, "cli", "main.ts");
  const env = { ...process.env, PORTFOLIO_WALLET_BASE_URL: sandbox.url, PORTFOLIO_WALLET_API_TOKEN: TOKEN };
  // Asynchronous: the sandbox answers from this very process, so it must not be blocked while the CLI runs.
  const time = async (args: string[]) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, "report", "--preview", previewFile, ...args], {
      cwd: dir,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    if (code !== 0) throw new Error(`report ${args.join(" ")}: ${stderr}`);
    return (performance.now() - started) / 1000;
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const offline: number[] = [];
  const online: number[] = [];
  let counts: Record<string, number> = {};
  for (let run = 0; run < RUNS; run++) {
    offline.push(await time(["--catalog", catalogFile]));
    await call("DELETE", "/_sandbox/request-counts");
    online.push(await time([]));
    counts = (await call("GET", "/_sandbox/request-counts")).counts;
  }
  console.log(
    JSON.stringify(
      {
        wallets: WALLETS,
        funded: FUNDED,
        loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
        offlineSeconds: { median: median(offline), runs: offline },
        withDollarsSeconds: { median: median(online), runs: online },
        requestsOfOneReport: counts,
      },
      null,
      2,
    ),
  );
} finally {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
}
