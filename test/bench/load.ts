// `npm run bench:load:engine`: one sandbox shared by many pipelines, as a team's CI would share it.
// Reports, never asserts. See docs/performance.md ("One sandbox shared by many pipelines").
//
// One sandbox process (test/bench/load/sandboxProcess.ts, a data directory on disk) serves, for
// each N in BENCH_LOAD_ORGS (default 1,4,8,16), N organizations at once. Organization 0 runs a real
// `pulumi preview`, `up` of BENCH_LOAD_WALLETS (50) wallets and no-change preview through the
// engine and the packed package, then a treasury's money movements on its wallets through the
// client; every other organization runs the same requests the provider sends (the catalog read,
// the creates four at a time as the engine overlaps them, a refresh's reads) through the client,
// and the same money movements: deposits, clock advances, withdrawals paid in legs, yield reads,
// strategy changes, with a webhook registration whose receiver answers slowly. Before the loads,
// the same pipelines run alone: the quiet figures. For each N it records throughput, each
// organization's p50/p95/p99, the engine's wall times, and what the sandbox spent: CPU, event
// loop utilization and delay, time inside SQLite and its commits; and the machine's load.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureBuilt } from "../../scripts/build.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";
import type { SandboxProcessStats } from "./load/sandboxProcess.ts";
import { startSandboxProcess, type SandboxHandle } from "./load/sandboxHandle.ts";
import { clientOf, type Api, type Body, type Sample } from "./load/timedClient.ts";
import { median, percentile, toTenth } from "./statistics.ts";

const ORG_COUNTS = (process.env["BENCH_LOAD_ORGS"] ?? "1,4,8,16").split(",").map(Number);
const WALLETS = Number(process.env["BENCH_LOAD_WALLETS"] ?? "50");
/** Times each client organization runs its pipeline within one load. */
const ITERATIONS = Number(process.env["BENCH_LOAD_ITERATIONS"] ?? "2");
/** 0: no organization drives the real engine (client requests only). */
const ENGINE = process.env["BENCH_LOAD_ENGINE"] !== "0";
/** How long the webhook receiver takes to answer. */
const RECEIVER_DELAY_MS = Number(process.env["BENCH_LOAD_RECEIVER_DELAY_MS"] ?? "500");
/** Wallets of each pipeline that money moves through. */
const TREASURY_WALLETS = 5;
/** Creates and refresh reads in flight at once per organization, as the engine overlaps them. */
const PARALLEL = 4;
const OUT_DIR = process.env["BENCH_OUT"] ?? path.join(repoRoot, "bench-results");
const PAYOUT = {
  destinationToken: "usdc",
  destinationChain: "ethereum",
  destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
};
const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

// ---- The sandbox process, the slow receiver, the machine ----------------------------------

/** A webhook receiver that answers 200 after RECEIVER_DELAY_MS: a slow consumer of events. */
async function startSlowReceiver(): Promise<{ url: string; received: () => number; server: Server }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      setTimeout(() => res.writeHead(200).end("ok"), RECEIVER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received: () => received, server };
}

/** Busy and total jiffies of all CPUs, from /proc/stat. */
function cpuTimes(): { busy: number; total: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

const directoryBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(path.join(dir, name)).size, 0);

// ---- One organization's requests ----------------------------------------------------------

/** Runs `work` over `items`, `parallel` at a time. */
async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** What the provider sends for a preview, an `up` of WALLETS wallets, a no-change preview and a refresh. */
async function providerRequests(api: Api): Promise<{ id: string; depositAddresses: Body }[]> {
  await api("GET", "/v2/portfolio-wallets/strategies", "/v2/portfolio-wallets/strategies");
  await api("GET", "/v2/portfolio-wallets/strategies", "/v2/portfolio-wallets/strategies");
  const wallets: { id: string; depositAddresses: Body }[] = [];
  await inParallel(
    Array.from({ length: WALLETS }, (_, index) => index),
    PARALLEL,
    async (index) => {
      wallets.push(
        await api("POST", "/v2/portfolio-wallets", "/v2/portfolio-wallets", {
          requestId: randomUUID(),
          label: `load ${index}`,
          positions: POSITIONS,
        }),
      );
    },
  );
  await api("GET", "/v2/portfolio-wallets/strategies", "/v2/portfolio-wallets/strategies");
  await inParallel(wallets, PARALLEL, async (wallet) => {
    await api("GET", "/v2/portfolio-wallets/:id", `/v2/portfolio-wallets/${wallet.id}`);
  });
  return wallets;
}

/** A treasury's money movements and reads on some of the pipeline's wallets. */
async function treasury(api: Api, wallets: { id: string; depositAddresses: Body }[]): Promise<void> {
  const some = wallets.slice(0, TREASURY_WALLETS);
  for (const wallet of some) {
    await api("POST", "/_sandbox/deposits", "/_sandbox/deposits", {
      chain: "ethereum",
      address: wallet.depositAddresses.ethereum.address,
      amount: 100_000,
      txHash: `0x${randomUUID().replaceAll("-", "")}`,
    });
  }
  await api("POST", "/_sandbox/clock/advance", "/_sandbox/clock/advance", { ms: 2000 });
  const withdrawals: string[][] = [];
  for (const wallet of some) {
    await api("GET", "/v2/portfolio-wallets/:id", `/v2/portfolio-wallets/${wallet.id}`);
    const withdrawal = await api(
      "POST",
      "/v2/portfolio-wallets/:id/withdraw",
      `/v2/portfolio-wallets/${wallet.id}/withdraw`,
      {
        requestId: randomUUID(),
        withdrawalAmount: 1000,
        ...PAYOUT,
      },
    );
    if (typeof withdrawal?.id === "string") withdrawals.push([wallet.id, withdrawal.id]);
  }
  // A day later the redeem legs have paid out too.
  await api("POST", "/_sandbox/clock/advance", "/_sandbox/clock/advance", { ms: 25 * 60 * 60 * 1000 });
  for (const [walletId, withdrawalId] of withdrawals) {
    await api(
      "GET",
      "/v2/portfolio-wallets/:id/withdrawals/:withdrawalId",
      `/v2/portfolio-wallets/${walletId}/withdrawals/${withdrawalId}`,
    );
  }
  await api("POST", "/v2/portfolio-wallets/yield", "/v2/portfolio-wallets/yield", {});
  await api("POST", "/v2/portfolio-wallets/yield", "/v2/portfolio-wallets/yield", {
    portfolioWalletIds: some.map((w) => w.id),
  });
  for (const wallet of some) {
    await api("PATCH", "/v2/portfolio-wallets/:id/strategy", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
      requestId: randomUUID(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    });
    await api("GET", "/v2/portfolio-wallets/:id", `/v2/portfolio-wallets/${wallet.id}`);
  }
}

async function registerWebhook(api: Api, receiverUrl: string): Promise<void> {
  await api("POST", "/webhooks/registrations", "/webhooks/registrations", {
    url: receiverUrl,
    eventTypes: [
      "portfolio_wallet.balance.updated",
      "portfolio_wallet.deposit.status_changed",
      "portfolio_wallet.withdrawal.status_changed",
      "portfolio_wallet.withdrawal.payout.status_changed",
      "portfolio_wallet.strategy.status_changed",
    ],
  });
}

async function clientPipeline(api: Api, receiverUrl: string): Promise<void> {
  await registerWebhook(api, receiverUrl);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const wallets = await providerRequests(api);
    await treasury(api, wallets);
  }
}

// ---- The engine's organization ----------------------------------------------------------------

interface EngineTimes {
  preview: number;
  up: number;
  "no-change preview": number;
}

async function enginePipeline(
  project: ConsumerProject,
  sandboxUrl: string,
  token: string,
  stack: string,
  api: Api,
  receiverUrl: string,
): Promise<EngineTimes> {
  await project.pulumi(["stack", "init", stack]);
  await project.pulumi(["config", "set", "bench:count", String(WALLETS)]);
  await project.pulumi(["config", "set", "bench:kind", "wallet"]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", sandboxUrl]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", token]);
  await registerWebhook(api, receiverUrl);
  const times = {} as EngineTimes;
  const run = async (name: keyof EngineTimes, args: string[]) => {
    const started = performance.now();
    await project.pulumi(args);
    times[name] = (performance.now() - started) / 1000;
  };
  await run("preview", ["preview"]);
  await run("up", ["up", "--yes", "--skip-preview"]);
  await run("no-change preview", ["preview", "--expect-no-changes"]);
  // The treasury's part, on the wallets the engine made.
  const page = await api(
    "GET",
    "/v2/portfolio-wallets",
    `/v2/portfolio-wallets?pageSize=${TREASURY_WALLETS}`,
  );
  await treasury(api, page.data);
  return times;
}

// ---- Loads ------------------------------------------------------------------------------------

interface OrganizationFigures {
  organization: string;
  engine: boolean;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors4xx: number;
}

interface LoadResult {
  name: string;
  organizations: number;
  seconds: number;
  requests: number;
  throughput: number;
  byOrganization: OrganizationFigures[];
  byRoute: { route: string; count: number; p50: number; p95: number; p99: number }[];
  engine: EngineTimes | null;
  sandbox: SandboxProcessStats;
  machineCpuBusy: number;
  /** CPU time of this process (the simulated pipelines' client side), ms. */
  clientCpuMs: number;
  loadAverage: number[];
  webhooksReceived: number;
  dataDirBytes: number;
}

async function load(
  name: string,
  sandbox: SandboxHandle,
  receiver: Awaited<ReturnType<typeof startSlowReceiver>>,
  organizations: { token: string; organization: string; engine: boolean }[],
  project: ConsumerProject | null,
): Promise<LoadResult> {
  const samples = new Map<string, Sample[]>();
  let engine: EngineTimes | null = null;
  await sandbox.ask("reset");
  const cpuBefore = cpuTimes();
  const clientCpuBefore = process.cpuUsage();
  const receivedBefore = receiver.received();
  const started = performance.now();
  await Promise.all(
    organizations.map(async ({ token, organization, engine: drivesEngine }) => {
      const own: Sample[] = [];
      samples.set(organization, own);
      const api = clientOf(sandbox.url, token, own);
      if (drivesEngine && project !== null) {
        engine = await enginePipeline(
          project,
          sandbox.url,
          token,
          `${name}-${organization}`,
          api,
          receiver.url,
        );
      } else {
        await clientPipeline(api, receiver.url);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const stats = await sandbox.ask("stats");
  const cpuAfter = cpuTimes();
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const all = [...samples.values()].flat();
  const routes = [...new Set(all.map((s) => s.route))].sort();
  return {
    name,
    organizations: organizations.length,
    seconds: toTenth(seconds),
    requests: all.length,
    throughput: toTenth(all.length / seconds),
    byOrganization: organizations.map(({ organization, engine: drivesEngine }) => {
      const ms = (samples.get(organization) ?? []).map((s) => s.ms);
      return {
        organization,
        engine: drivesEngine && project !== null,
        requests: ms.length,
        p50: toTenth(percentile(ms, 50)),
        p95: toTenth(percentile(ms, 95)),
        p99: toTenth(percentile(ms, 99)),
        max: toTenth(Math.max(...ms)),
        errors4xx: (samples.get(organization) ?? []).filter((s) => s.status >= 400).length,
      };
    }),
    byRoute: routes.map((route) => {
      const ms = all.filter((s) => s.route === route).map((s) => s.ms);
      return {
        route,
        count: ms.length,
        p50: toTenth(percentile(ms, 50)),
        p95: toTenth(percentile(ms, 95)),
        p99: toTenth(percentile(ms, 99)),
      };
    }),
    engine,
    sandbox: stats,
    machineCpuBusy: (cpuAfter.busy - cpuBefore.busy) / Math.max(1, cpuAfter.total - cpuBefore.total),
    clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    loadAverage: os.loadavg(),
    webhooksReceived: receiver.received() - receivedBefore,
    dataDirBytes: directoryBytes(sandbox.dataDir),
  };
}

// ---- Main -------------------------------------------------------------------------------------

const phases: { name: string; organizations: number; engine: boolean }[] = [
  { name: "quiet-client", organizations: 1, engine: false },
  ...(ENGINE ? [{ name: "quiet-engine", organizations: 1, engine: true }] : []),
  ...ORG_COUNTS.map((count) => ({ name: `n${count}`, organizations: count, engine: ENGINE })),
];
const tokens: Record<string, string> = {};
const plan = phases.map((phase) => ({
  ...phase,
  organizations: Array.from({ length: phase.organizations }, (_, index) => {
    const organization = `load-${phase.name}-org${index}`;
    const token = `token-${organization}`;
    tokens[token] = organization;
    return { token, organization, engine: phase.engine && index === 0 };
  }),
}));

let project: ConsumerProject | null = null;
if (ENGINE) {
  await ensureBuilt();
  const tarball = await packedPackage();
  console.log(`bench:load:engine: installing ${path.basename(tarball)} into a project outside the repo`);
  project = await ConsumerProject.fromTemplate(
    path.join(repoRoot, "test", "bench", "programs", "fleet"),
    "bench-load",
    tarball,
  );
}
const sandbox = await startSandboxProcess(tokens);
const receiver = await startSlowReceiver();
const results: LoadResult[] = [];
try {
  for (const phase of plan) {
    const result = await load(phase.name, sandbox, receiver, phase.organizations, project);
    results.push(result);
    const worst = Math.max(...result.byOrganization.map((o) => o.p99));
    console.log(
      `bench:load:engine: ${phase.name}: ${result.requests} requests in ${result.seconds} s (${result.throughput}/s), ` +
        `worst organization p99 ${worst} ms, sandbox CPU ${Math.round((100 * result.sandbox.cpuMs) / result.sandbox.wallMs)}%, ` +
        `event loop ${Math.round(100 * result.sandbox.eventLoopUtilization)}% busy, SQLite ${Math.round((100 * result.sandbox.sqliteMs) / result.sandbox.wallMs)}%` +
        (result.engine === null ? "" : `, engine up ${result.engine.up.toFixed(1)} s`) +
        `, load ${result.loadAverage[0]?.toFixed(1)}`,
    );
  }
} finally {
  await sandbox.close();
  receiver.server.closeAllConnections();
  receiver.server.close();
  project?.cleanUp();
}

// ---- Report -----------------------------------------------------------------------------------

const synchronousSetting =
  ["OFF", "NORMAL", "FULL", "EXTRA"][sandbox.synchronous] ?? String(sandbox.synchronous);
const pct = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
const quietClient = results.find((r) => r.name === "quiet-client");
const quietEngine = results.find((r) => r.name === "quiet-engine");
const loads = results.filter((r) => r.name.startsWith("n"));
const worstP99 = (r: LoadResult) => Math.max(...r.byOrganization.map((o) => o.p99));
const knee = loads.find((r) => worstP99(r) > 1000);
const date = new Date().toISOString();
const lines = [
  `# Load bench results (${date})`,
  "",
  `Node ${process.versions.node}, ${os.cpus().length} CPUs. One sandbox process (data directory on disk), ` +
    `${WALLETS} wallets per pipeline, ${ITERATIONS} pipeline runs per client organization, ${PARALLEL} creates or reads ` +
    `in flight per organization, webhook receiver answering after ${RECEIVER_DELAY_MS} ms, ` +
    `SQLite synchronous=${synchronousSetting}${process.env["LOAD_SANDBOX_PRAGMAS"] ? `, ${process.env["LOAD_SANDBOX_PRAGMAS"]}` : ""}. ` +
    (ENGINE ? "Organization 0 of each load drives the real engine." : "No organization drives the engine."),
  "",
  "## Per load",
  "",
  "| load | organizations | requests | seconds | requests/s | worst org p50 ms | worst org p95 ms | worst org p99 ms | median org p99 ms | engine up s | sandbox CPU | event loop busy | loop delay p99 ms | in SQLite | in commits | client CPU | machine CPU busy (2 cores) | load avg (1 min) |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...results.map((r) => {
    const orgs = r.byOrganization;
    return (
      `| ${r.name} | ${r.organizations} | ${r.requests} | ${r.seconds} | ${r.throughput} | ` +
      `${Math.max(...orgs.map((o) => o.p50))} | ${Math.max(...orgs.map((o) => o.p95))} | ${worstP99(r)} | ` +
      `${toTenth(median(orgs.map((o) => o.p99)))} | ${r.engine?.up.toFixed(1) ?? "-"} | ` +
      `${pct(r.sandbox.cpuMs, r.sandbox.wallMs)} | ${pct(r.sandbox.eventLoopUtilization, 1)} | ` +
      `${toTenth(r.sandbox.loopDelayP99Ms)} | ${pct(r.sandbox.sqliteMs, r.sandbox.wallMs)} | ` +
      `${pct(r.sandbox.commitMs, r.sandbox.wallMs)} | ${pct(r.clientCpuMs, r.seconds * 1000)} | ${pct(r.machineCpuBusy, 1)} | ${r.loadAverage[0]?.toFixed(2)} |`
    );
  }),
  "",
  knee === undefined
    ? `No load's worst organization p99 passed 1 s (largest: N = ${Math.max(...ORG_COUNTS)}).`
    : `The worst organization's p99 first passes 1 s at N = ${knee.organizations} (${worstP99(knee)} ms).`,
  "",
  "## Engine (organization 0): wall time of each operation, s",
  "",
  "| load | preview | up | no-change preview |",
  "|---|---|---|---|",
  ...results
    .filter((r) => r.engine !== null)
    .map(
      (r) =>
        `| ${r.name} | ${r.engine?.preview.toFixed(1)} | ${r.engine?.up.toFixed(1)} | ${r.engine?.["no-change preview"].toFixed(1)} |`,
    ),
  "",
  "## Per route (all organizations), ms",
  "",
  ...[quietClient, ...loads].flatMap((r) =>
    r === undefined
      ? []
      : [
          `### ${r.name}`,
          "",
          "| route | count | p50 | p95 | p99 |",
          "|---|---|---|---|---|",
          ...r.byRoute.map((x) => `| ${x.route} | ${x.count} | ${x.p50} | ${x.p95} | ${x.p99} |`),
          "",
        ],
  ),
  "## Per organization, ms",
  "",
  "| load | organization | engine | requests | p50 | p95 | p99 | max | 4xx |",
  "|---|---|---|---|---|---|---|---|---|",
  ...results.flatMap((r) =>
    r.byOrganization.map(
      (o) =>
        `| ${r.name} | ${o.organization} | ${o.engine ? "yes" : ""} | ${o.requests} | ${o.p50} | ${o.p95} | ${o.p99} | ${o.max} | ${o.errors4xx} |`,
    ),
  ),
  "",
  `Quiet figures: one client organization alone ${quietClient ? `p50 ${quietClient.byOrganization[0]?.p50} ms, p99 ${quietClient.byOrganization[0]?.p99} ms` : "-"}` +
    (quietEngine?.engine
      ? `; the engine's up of ${WALLETS} wallets alone ${quietEngine.engine.up.toFixed(1)} s.`
      : "."),
  `Data directory after all loads: ${(results.at(-1)?.dataDirBytes ?? 0) / 1e6} MB.`,
];
mkdirSync(OUT_DIR, { recursive: true });
const stamp = date.replaceAll(":", "-");
const summary = {
  meta: {
    date,
    node: process.versions.node,
    cpus: os.cpus().length,
    ORG_COUNTS,
    WALLETS,
    ITERATIONS,
    ENGINE,
    RECEIVER_DELAY_MS,
  },
  results,
};
writeFileSync(path.join(OUT_DIR, `load-${stamp}.json`), `${JSON.stringify(summary, null, 2)}\n`);
writeFileSync(path.join(OUT_DIR, `load-${stamp}.md`), `${lines.join("\n")}\n`);
writeFileSync(path.join(OUT_DIR, "latest-load.md"), `${lines.join("\n")}\n`);
console.log(`\n${lines.join("\n")}\n\nbench:load:engine: results in ${OUT_DIR}`);
