// `npm run bench:store`: what one request costs as the sandbox's store grows. Reports, never
// asserts. See docs/performance.md ("As the store grows").
//
// For each size in BENCH_STORE_WALLETS (default 1000,100000,1000000): a fresh data directory
// holding that many funded wallets in one organization (one funded through the API, with yield
// settled into its ledger, then copied by SQLite: test/support/storeSeeding.ts), a sandbox on it,
// and one request at a time: wallet create, GET wallet, the first page of wallets and a page from
// the middle of them, a withdrawal, yield metrics for one wallet and for the organization (the
// lifetime), and for one wallet over a period that starts in the past.
// Medians and p95 of BENCH_STORE_REPS requests (yield: BENCH_STORE_YIELD_REPS), their ratio to
// the smallest size, and the 1-minute load average.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createManualClock, startSandbox, type Sandbox } from "../../sandbox/index.ts";
import { openDatabase } from "../../sandbox/store/db.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { cloneWallet } from "../support/storeSeeding.ts";
import { median } from "./statistics.ts";
import {
  callSandbox,
  ETHEREUM_PAYOUT as PAYOUT,
  TWO_SOURCES as POSITIONS,
} from "../support/sandboxAccess.ts";

const SIZES = (process.env["BENCH_STORE_WALLETS"] ?? "1000,100000,1000000").split(",").map(Number);
const REPS = Number(process.env["BENCH_STORE_REPS"] ?? "200");
const YIELD_REPS = Number(process.env["BENCH_STORE_YIELD_REPS"] ?? "10");
const OUT_DIR = process.env["BENCH_OUT"] ?? path.join(repoRoot, "bench-results");
const TOKEN = "store-token";
const ORG = "store-org";
const DAY_MS = 24 * 60 * 60 * 1000;
const REQUESTS = [
  "create wallet",
  "GET wallet",
  "list, first page",
  "list, middle page",
  "withdraw",
  "yield, one wallet",
  "yield, organization",
  "yield, one wallet, a period from the past",
] as const;
type RequestName = (typeof REQUESTS)[number];

/** One request that must succeed, as the bench's organization. */
const call = (sandbox: Sandbox, method: string, pathname: string, body?: unknown) =>
  callSandbox({ url: sandbox.url, token: TOKEN }, method, pathname, body);

const directoryBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);

interface SizeResult {
  wallets: number;
  seedSeconds: number;
  dataDirMB: number;
  loadAverage: number;
  byRequest: Record<RequestName, { reps: number; medianMs: number; p95Ms: number }>;
}

async function measureSize(size: number): Promise<SizeResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `pw-store-${size}-`));
  const clock = createManualClock(new Date("2026-03-01T00:00:00.000Z"));
  const options = { port: 0, dataDir, clock, tokens: { [TOKEN]: ORG }, depositProcessingDelayMs: 1000 };
  try {
    let sandbox = await startSandbox(options);
    const template = await call(sandbox, "POST", "/v2/portfolio-wallets", {
      requestId: randomUUID(),
      positions: POSITIONS,
    });
    const deposit = async (amount: number) => {
      await call(sandbox, "POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: template.depositAddresses.ethereum.address,
        amount,
        txHash: `0x${randomUUID().replaceAll("-", "")}`,
      });
      await call(sandbox, "POST", "/_sandbox/clock/advance", { ms: 1000 });
    };
    await deposit(1_000_000);
    await call(sandbox, "POST", "/_sandbox/clock/advance", { ms: DAY_MS });
    await deposit(1);
    await sandbox.close();

    const seedStarted = performance.now();
    const db = openDatabase(dataDir);
    const copies = cloneWallet(db, template.id, size - 1);
    db.close();
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    console.log(`bench:store: ${size} wallets seeded in ${seedSeconds.toFixed(1)} s`);

    clock.advance(60 * 60 * 1000);
    sandbox = await startSandbox(options);
    const loadAverage = os.loadavg()[0] ?? 0;
    const randomCopy = () => copies.idOf(Math.floor(Math.random() * (size - 1)));
    // The middle of the organization's wallets, newest first: every copy shares the template's
    // creation time, so the page after this cursor starts halfway down the index.
    const middle = encodeURIComponent(`${template.createdAt}|${copies.idOf(Math.floor((size - 1) / 2))}`);
    const withdrawn = new Set<string>();
    const requests: Record<RequestName, () => Promise<unknown>> = {
      "create wallet": () =>
        call(sandbox, "POST", "/v2/portfolio-wallets", { requestId: randomUUID(), positions: POSITIONS }),
      "GET wallet": () => call(sandbox, "GET", `/v2/portfolio-wallets/${randomCopy()}`),
      "list, first page": () => call(sandbox, "GET", "/v2/portfolio-wallets?pageSize=20"),
      "list, middle page": () => call(sandbox, "GET", `/v2/portfolio-wallets?pageSize=20&cursor=${middle}`),
      withdraw: () => {
        let id = randomCopy();
        while (withdrawn.has(id)) id = randomCopy();
        withdrawn.add(id);
        return call(sandbox, "POST", `/v2/portfolio-wallets/${id}/withdraw`, {
          requestId: randomUUID(),
          withdrawalAmount: 1,
          ...PAYOUT,
        });
      },
      "yield, one wallet": () =>
        call(sandbox, "POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: [randomCopy()] }),
      "yield, organization": () => call(sandbox, "POST", "/v2/portfolio-wallets/yield", {}),
      // From the middle of the day of yield the copies settled into their ledgers, to now.
      "yield, one wallet, a period from the past": () =>
        call(sandbox, "POST", "/v2/portfolio-wallets/yield", {
          portfolioWalletIds: [randomCopy()],
          periodStartIso: "2026-03-01T12:00:00.000Z",
        }),
    };
    const byRequest = {} as SizeResult["byRequest"];
    for (const name of REQUESTS) {
      const reps = name.startsWith("yield")
        ? YIELD_REPS
        : Math.min(REPS, name === "withdraw" ? size - 1 : REPS);
      await requests[name](); // warm: the first of a kind prepares and caches what it needs
      const durations: number[] = [];
      for (let rep = 0; rep < reps; rep++) {
        const started = performance.now();
        await requests[name]();
        durations.push(performance.now() - started);
      }
      const sorted = [...durations].sort((a, b) => a - b);
      byRequest[name] = {
        reps,
        medianMs: Math.round(median(durations) * 100) / 100,
        p95Ms: Math.round((sorted[Math.ceil(0.95 * sorted.length) - 1] ?? Number.NaN) * 100) / 100,
      };
      console.log(`bench:store: ${size} wallets, ${name}: median ${byRequest[name].medianMs} ms`);
    }
    await sandbox.close();
    return { wallets: size, seedSeconds, dataDirMB: directoryBytes(dataDir) / 1e6, loadAverage, byRequest };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: SizeResult[] = [];
for (const size of SIZES) results.push(await measureSize(size));

const smallest = results[0];
const date = new Date().toISOString();
const lines = [
  `# Store growth results (${date})`,
  "",
  `Node ${process.versions.node}, ${os.cpus().length} CPUs. One organization holding all the wallets (funded, ` +
    `each with yield settled into its ledger and an hour unsettled), on a data directory; one request at a time; ` +
    `median and p95 of ${REPS} requests (yield: ${YIELD_REPS}); ratio = median / median at ${smallest?.wallets}.`,
  "",
  `| request | ${results.map((r) => `${r.wallets} wallets: median ms (p95)`).join(" | ")} | ${results
    .slice(1)
    .map((r) => `ratio at ${r.wallets}`)
    .join(" | ")} |`,
  `|---|${results.map(() => "---").join("|")}|${results
    .slice(1)
    .map(() => "---")
    .join("|")}|`,
  ...REQUESTS.map(
    (name) =>
      `| ${name} | ${results.map((r) => `${r.byRequest[name].medianMs} (${r.byRequest[name].p95Ms})`).join(" | ")} | ${results
        .slice(1)
        .map(
          (r) =>
            `${(r.byRequest[name].medianMs / (smallest?.byRequest[name].medianMs ?? Number.NaN)).toFixed(2)}×`,
        )
        .join(" | ")} |`,
  ),
  "",
  "| wallets | seeded in s | data directory MB | load average (1 min) |",
  "|---|---|---|---|",
  ...results.map(
    (r) =>
      `| ${r.wallets} | ${r.seedSeconds.toFixed(1)} | ${r.dataDirMB.toFixed(0)} | ${r.loadAverage.toFixed(2)} |`,
  ),
];
mkdirSync(OUT_DIR, { recursive: true });
const stamp = date.replaceAll(":", "-");
writeFileSync(path.join(OUT_DIR, `store-${stamp}.json`), `${JSON.stringify({ date, results }, null, 2)}\n`);
writeFileSync(path.join(OUT_DIR, `store-${stamp}.md`), `${lines.join("\n")}\n`);
writeFileSync(path.join(OUT_DIR, "latest-store.md"), `${lines.join("\n")}\n`);
console.log(`\n${lines.join("\n")}\n\nbench:store: results in ${OUT_DIR}`);
