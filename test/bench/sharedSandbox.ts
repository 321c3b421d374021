// `npm run bench:load [-- <git ref>]`: one sandbox shared by many organizations' pipelines, and
// whether one organization's load reaches another's. Reports, never asserts. See
// docs/performance.md ("One sandbox shared by many organizations").
//
// Each run starts a fresh sandbox process (test/bench/load/sandboxProcess.ts, a data directory on
// disk) for one scenario at one N:
// - even: N organizations at once, each ROUNDS rounds of the provider's and a treasury's request
//   mix (catalog, quote, create, get, list, deposit, withdraw) one request after another;
// - loud: the same, with organization 0 sending LOUD_FACTOR times as much (that many round loops at
//   once): what the others' p99 becomes;
// - fan-out: organization 0, with FANOUT_REGISTRATIONS webhook registrations, withdraws in a loop
//   (every withdrawal's events go to each registration), while READERS other organizations read
//   the catalog and one of their wallets: the readers' p95.
// With a git ref (an argument, or BENCH_LOAD_AGAINST), each run is made with that commit's sandbox
// (a git worktree of it) and this checkout's in turn, ref first, RUNS times each, and the report
// prints this checkout's figures over the ref's: a regression shows as a ratio, which a noisy
// machine moves far less than it moves a time.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { clientOf, pipelineConnections, type Api, type Sample } from "./load/timedClient.ts";
import { startSandboxProcess, type SandboxHandle } from "./load/sandboxHandle.ts";
import { median, percentile, toTenth } from "./statistics.ts";

const ORG_COUNTS = (process.env["BENCH_LOAD_ORGS"] ?? "16,32,64").split(",").map(Number);
const SCENARIOS = (process.env["BENCH_LOAD_SCENARIOS"] ?? "even,loud,fan-out").split(",");
/** Rounds of the request mix each organization sends. */
const ROUNDS = Number(process.env["BENCH_LOAD_ROUNDS"] ?? "25");
/** How many times as much the loud organization sends. */
const LOUD_FACTOR = 10;
const FANOUT_REGISTRATIONS = 20;
const FANOUT_WITHDRAWALS = Number(process.env["BENCH_LOAD_FANOUT_WITHDRAWALS"] ?? "150");
/** Organizations reading while another fans out. */
const READERS = 4;
/** Runs per checkout and scenario (alternating with the ref's when one is given). */
const RUNS = Number(process.env["BENCH_LOAD_RUNS"] ?? "2");
const AGAINST = process.argv[2] ?? process.env["BENCH_LOAD_AGAINST"];
/** Writes each run's CPU profile of the sandbox here (`node --cpu-prof`), when set. */
const PROFILE_DIR = process.env["BENCH_LOAD_PROFILE_DIR"];
const OUT_DIR = process.env["BENCH_OUT"] ?? path.join(repoRoot, "bench-results");

const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const PAYOUT = {
  destinationToken: "usdc",
  destinationChain: "ethereum",
  destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
};
const EVENT_TYPES = [
  "portfolio_wallet.balance.updated",
  "portfolio_wallet.withdrawal.status_changed",
  "portfolio_wallet.withdrawal.payout.status_changed",
];

// ---- The checkouts: this one and, with a ref, that commit's ------------------------------------

interface Checkout {
  name: string;
  sourceRoot: string | undefined;
}

/**
 * A git worktree of `ref` beside this checkout, sharing this checkout's node_modules when the
 * packages the sandbox runs on are the same (else installing its own).
 */
function worktreeOf(ref: string): { checkout: Checkout; remove: () => void } {
  const commit = execFileSync("git", ["rev-parse", "--short", `${ref}^{commit}`], {
    cwd: repoRoot,
    encoding: "utf8",
  }).trim();
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "pw-bench-ref-")), commit);
  execFileSync("git", ["worktree", "add", "--detach", dir, commit], { cwd: repoRoot, stdio: "ignore" });
  const dependencies = (root: string) =>
    JSON.stringify(
      (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies?: unknown })
        .dependencies,
    );
  if (dependencies(dir) === dependencies(repoRoot)) {
    symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"), "dir");
  } else {
    console.log(`bench:load: ${commit} runs on other packages: npm ci in its worktree`);
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: dir,
      stdio: "inherit",
    });
  }
  return {
    checkout: { name: commit, sourceRoot: dir },
    remove: () =>
      execFileSync("git", ["worktree", "remove", "--force", dir], { cwd: repoRoot, stdio: "ignore" }),
  };
}

// ---- One organization's requests ---------------------------------------------------------------

const WALLETS = "/v2/portfolio-wallets";

/** A wallet with money in it to withdraw from: created, deposited to, settled. Not timed. */
async function fundedWallet(api: Api, label: string): Promise<string> {
  const wallet = await api("POST", WALLETS, WALLETS, {
    requestId: randomUUID(),
    label,
    positions: POSITIONS,
  });
  await api("POST", "/_sandbox/deposits", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: 10_000_000,
    txHash: `0x${randomUUID().replaceAll("-", "")}`,
  });
  await api("POST", "/_sandbox/clock/advance", "/_sandbox/clock/advance", { ms: 60 * 60 * 1000 });
  return wallet.id as string;
}

/** One round of the mix: what a pipeline's preview and `up` send, and a treasury's movements. */
async function round(api: Api, fundedWalletId: string, index: number): Promise<void> {
  await api("GET", `${WALLETS}/strategies`, `${WALLETS}/strategies`);
  await api("POST", `${WALLETS}/quote`, `${WALLETS}/quote`, {
    requestId: randomUUID(),
    liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 4000 }],
  });
  const wallet = await api("POST", WALLETS, WALLETS, {
    requestId: randomUUID(),
    label: `round ${index}`,
    positions: POSITIONS,
  });
  await api("GET", `${WALLETS}/:id`, `${WALLETS}/${wallet.id}`);
  await api("GET", WALLETS, `${WALLETS}?pageSize=20`);
  await api("POST", "/_sandbox/deposits", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: 1000,
    txHash: `0x${randomUUID().replaceAll("-", "")}`,
  });
  await api("POST", `${WALLETS}/:id/withdraw`, `${WALLETS}/${fundedWalletId}/withdraw`, {
    requestId: randomUUID(),
    withdrawalAmount: 10,
    ...PAYOUT,
  });
}

/** A receiver of webhooks that answers 200 at once. */
async function startReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, server };
}

// ---- One run -------------------------------------------------------------------------------------

interface RunResult {
  checkout: string;
  scenario: string;
  organizations: number;
  seconds: number;
  requests: number;
  throughput: number;
  /** p99 of each organization, ms, organization 0 first. */
  p99ByOrganization: number[];
  /** The p95 of the organizations the scenario watches (the readers of fan-out; all others). */
  watchedP95: number;
  watchedP99: number;
  /** Answers ≥ 400 to the watched organizations, and to organization 0. */
  watchedErrors: number;
  firstOrganizationErrors: number;
  peakRssMb: number;
  cpuMs: number;
}

async function run(checkout: Checkout, scenario: string, organizations: number): Promise<RunResult> {
  const tokens: Record<string, string> = {};
  const orgs = Array.from({ length: organizations }, (_, index) => {
    const organization = `org${index}`;
    tokens[`token-${organization}`] = organization;
    return { organization, token: `token-${organization}` };
  });
  const profileDir =
    PROFILE_DIR === undefined
      ? undefined
      : path.join(PROFILE_DIR, `${checkout.name}-${scenario}-${organizations}`);
  const sandbox: SandboxHandle = await startSandboxProcess(
    tokens,
    {},
    {
      sourceRoot: checkout.sourceRoot,
      ...(profileDir === undefined ? {} : { cpuProfileDir: profileDir }),
    },
  );
  const receiver = await startReceiver();
  const samples = orgs.map(() => [] as Sample[]);
  const untimed: Sample[] = [];
  // Each organization's pipeline has its own connections, opened by its set-up requests.
  const connections = orgs.map(() => pipelineConnections());
  try {
    const apis = orgs.map(({ token }, index) =>
      clientOf(sandbox.url, token, samples[index] ?? [], connections[index]),
    );
    const setupApis = orgs.map(({ token }, index) =>
      clientOf(sandbox.url, token, untimed, connections[index]),
    );
    const funded = await Promise.all(setupApis.map((api, index) => fundedWallet(api, `funded ${index}`)));
    if (scenario === "fan-out") {
      for (let i = 0; i < FANOUT_REGISTRATIONS; i++)
        await setupApis[0]?.("POST", "/webhooks/registrations", "/webhooks/registrations", {
          url: receiver.url,
          eventTypes: EVENT_TYPES,
        });
    }
    await sandbox.ask("reset");
    const started = performance.now();
    if (scenario === "fan-out") {
      let fanningOut = true;
      const withdrawals = (async () => {
        for (let i = 0; i < FANOUT_WITHDRAWALS; i++)
          await apis[0]?.("POST", `${WALLETS}/:id/withdraw`, `${WALLETS}/${funded[0]}/withdraw`, {
            requestId: randomUUID(),
            withdrawalAmount: 10,
            ...PAYOUT,
          });
        fanningOut = false;
      })();
      const readers = apis.slice(1, 1 + READERS).map(async (api, index) => {
        while (fanningOut) {
          await api("GET", `${WALLETS}/strategies`, `${WALLETS}/strategies`);
          await api("GET", `${WALLETS}/:id`, `${WALLETS}/${funded[index + 1]}`);
        }
      });
      await Promise.all([withdrawals, ...readers]);
    } else {
      await Promise.all(
        apis.map(async (api, index) => {
          const loops = scenario === "loud" && index === 0 ? LOUD_FACTOR : 1;
          await Promise.all(
            Array.from({ length: loops }, async () => {
              for (let r = 0; r < ROUNDS; r++) await round(api, funded[index] ?? "", r);
            }),
          );
        }),
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const stats = await sandbox.ask("stats");
    const watched = scenario === "fan-out" ? samples.slice(1, 1 + READERS) : samples.slice(1);
    const watchedMs = watched.flat().map((s) => s.ms);
    const requests = samples.reduce((sum, own) => sum + own.length, 0);
    return {
      checkout: checkout.name,
      scenario,
      organizations: scenario === "fan-out" ? 1 + READERS : organizations,
      seconds: toTenth(seconds),
      requests,
      throughput: toTenth(requests / seconds),
      p99ByOrganization: samples.map((own) =>
        toTenth(
          percentile(
            own.map((s) => s.ms),
            99,
          ),
        ),
      ),
      watchedP95: toTenth(percentile(watchedMs, 95)),
      watchedP99: toTenth(percentile(watchedMs, 99)),
      watchedErrors: watched.flat().filter((s) => s.status >= 400).length,
      firstOrganizationErrors: (samples[0] ?? []).filter((s) => s.status >= 400).length,
      peakRssMb: Math.round(sandbox.memory().peakRssBytes / 1e6),
      cpuMs: Math.round(stats.cpuMs),
    };
  } finally {
    await Promise.all(connections.map((agent) => agent.destroy()));
    await sandbox.close();
    receiver.server.closeAllConnections();
    receiver.server.close();
  }
}

// ---- Main ----------------------------------------------------------------------------------------

const current: Checkout = {
  name: `this checkout (${execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim()}${
    execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim()
      ? ", with changes"
      : ""
  })`,
  sourceRoot: undefined,
};
const reference = AGAINST === undefined ? undefined : worktreeOf(AGAINST);
const checkouts = reference === undefined ? [current] : [reference.checkout, current];
const plan = SCENARIOS.flatMap((scenario) =>
  scenario === "fan-out"
    ? [{ scenario, organizations: 1 + READERS }]
    : ORG_COUNTS.map((n) => ({ scenario, organizations: n })),
);
const results: RunResult[] = [];
try {
  for (const { scenario, organizations } of plan) {
    for (let attempt = 0; attempt < RUNS; attempt++) {
      for (const checkout of checkouts) {
        const result = await run(checkout, scenario, organizations);
        results.push(result);
        console.log(
          `bench:load: ${scenario} N=${organizations} ${checkout.name}: ${result.requests} requests, ${result.throughput}/s, ` +
            `worst p99 ${Math.max(...result.p99ByOrganization)} ms, watched p95 ${result.watchedP95} ms p99 ${result.watchedP99} ms, ` +
            `errors ${result.watchedErrors} (org0 ${result.firstOrganizationErrors}), peak RSS ${result.peakRssMb} MB, load ${os.loadavg()[0]?.toFixed(1)}`,
        );
      }
    }
  }
} finally {
  reference?.remove();
}

// ---- Report --------------------------------------------------------------------------------------

const date = new Date().toISOString();
const of = (checkout: Checkout, scenario: string, organizations: number) =>
  results.filter(
    (r) => r.checkout === checkout.name && r.scenario === scenario && r.organizations === organizations,
  );
const figure = (runs: RunResult[], pick: (r: RunResult) => number) => toTenth(median(runs.map(pick)));
const worst = (r: RunResult) => Math.max(...r.p99ByOrganization);
const columns: [string, (r: RunResult) => number][] = [
  ["requests/s", (r) => r.throughput],
  ["worst org p99 ms", worst],
  ["watched p95 ms", (r) => r.watchedP95],
  ["watched p99 ms", (r) => r.watchedP99],
  ["peak RSS MB", (r) => r.peakRssMb],
  ["sandbox CPU s", (r) => r.cpuMs / 1000],
];
const rows = plan.flatMap(({ scenario, organizations }) =>
  checkouts.map((checkout) => {
    const runs = of(checkout, scenario, organizations);
    const errors = runs.reduce((sum, r) => sum + r.watchedErrors, 0);
    const loudErrors = runs.reduce((sum, r) => sum + r.firstOrganizationErrors, 0);
    return `| ${scenario} | ${organizations} | ${checkout.name} | ${columns.map(([, pick]) => figure(runs, pick)).join(" | ")} | ${errors} | ${loudErrors} |`;
  }),
);
const ratios =
  reference === undefined
    ? []
    : [
        "",
        `## This checkout over ${reference.checkout.name} (medians of ${RUNS} alternated runs)`,
        "",
        `| scenario | N | ${columns.map(([name]) => name).join(" | ")} |`,
        `|---|---|${columns.map(() => "---").join("|")}|`,
        ...plan.map(({ scenario, organizations }) => {
          const now = of(current, scenario, organizations);
          const before = of(reference.checkout, scenario, organizations);
          return `| ${scenario} | ${organizations} | ${columns
            .map(([, pick]) => `${(figure(now, pick) / figure(before, pick)).toFixed(2)}×`)
            .join(" | ")} |`;
        }),
      ];
const lines = [
  `# Shared-sandbox load (${date})`,
  "",
  `Node ${process.versions.node}, ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} at the end. ` +
    `${ROUNDS} rounds of the mix per organization (loud: organization 0 sends ${LOUD_FACTOR}×); fan-out: organization 0 with ` +
    `${FANOUT_REGISTRATIONS} registrations and ${FANOUT_WITHDRAWALS} withdrawals, ${READERS} readers. "Watched": every organization ` +
    "but 0 (fan-out: the readers). Errors: answers ≥ 400 (429s included).",
  "",
  `| scenario | N | sandbox | ${columns.map(([name]) => name).join(" | ")} | watched errors | org 0 errors |`,
  `|---|---|---|${columns.map(() => "---").join("|")}|---|---|`,
  ...rows,
  ...ratios,
];
mkdirSync(OUT_DIR, { recursive: true });
const stamp = date.replaceAll(":", "-");
writeFileSync(
  path.join(OUT_DIR, `shared-sandbox-${stamp}.json`),
  `${JSON.stringify({ date, results }, null, 2)}\n`,
);
writeFileSync(path.join(OUT_DIR, "latest-shared-sandbox.md"), `${lines.join("\n")}\n`);
console.log(`\n${lines.join("\n")}\n\nbench:load: results in ${OUT_DIR}`);
