// Part of `npm run bench` (also `npm run bench:throttling`): the provider's shared concurrency
// limiter against the real sandbox over HTTP, on the wall clock. 40 creates sent at once, as an
// engine running 40 steps in parallel sends them, to a sandbox that serves each create in 200 ms
// and answers 429 (Retry-After: 1, nothing applied) to any create arriving while more than five of
// the organization's requests are in flight (the `concurrency` and `delay` faults): the 429s and the
// seconds, without the limiter (each client retrying on its own) and with
// the provider's pool. Reports, never asserts: the counts depend on how fast the machine sends and
// answers. test/provider/throttling.test.ts holds the same comparison on a fake clock, where they
// do not.
import { randomUUID } from "node:crypto";
import { ServiceConnectionPool } from "../../provider/serviceConnection.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { PortfolioWalletClient } from "../../sdk/nodejs/client/index.ts";
import { deploymentRetryOptions } from "../../sdk/nodejs/client/serviceClient.ts";
import {
  callSandbox,
  requestCounts,
  resetRequestCounts,
  type SandboxAccess,
} from "../support/sandboxAccess.ts";

const CREATES = 40;
const MAX_IN_FLIGHT = 5;
const SERVE_MS = 200;
const ROUNDS = Number(process.env["BENCH_THROTTLING_ROUNDS"] ?? "3");
const ADMIN = "bench-admin";
const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

const sandbox = await startSandbox({
  port: 0,
  dataDir: ":memory:",
  tokens: { "bench-alone": "org-alone", "bench-pooled": "org-pooled" },
  adminToken: ADMIN,
});

/** Arms the two faults for the token's organization, for the whole run. */
async function throttle(access: SandboxAccess): Promise<void> {
  const fault = { method: "POST", path: "/v2/portfolio-wallets", times: 1000 };
  await callSandbox(access, "POST", "/_sandbox/faults", {
    ...fault,
    kind: "concurrency",
    maxInFlight: MAX_IN_FLIGHT,
  });
  await callSandbox(access, "POST", "/_sandbox/faults", { ...fault, kind: "delay", delayMs: SERVE_MS });
}

async function createAllAtOnce(client: PortfolioWalletClient, access: SandboxAccess) {
  await resetRequestCounts(access);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CREATES }, () =>
      client.wallets.create({ requestId: randomUUID(), positions: POSITIONS }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const sent = (await requestCounts(access))["POST /v2/portfolio-wallets"] ?? 0;
  return { throttled: sent - CREATES, seconds };
}

type Figures = Awaited<ReturnType<typeof createAllAtOnce>>;
const rows: { alone: Figures; pooled: Figures }[] = [];
try {
  const alone: SandboxAccess = { url: sandbox.url, token: "bench-alone", adminToken: ADMIN };
  const pooled: SandboxAccess = { url: sandbox.url, token: "bench-pooled", adminToken: ADMIN };
  await throttle(alone);
  await throttle(pooled);
  for (let round = 0; round < ROUNDS; round++) {
    const client = new PortfolioWalletClient({
      baseUrl: sandbox.url,
      apiToken: alone.token,
      ...deploymentRetryOptions({ retryTimeoutMs: 300_000 }),
    });
    const withoutLimiter = await createAllAtOnce(client, alone).finally(() => client.close());
    // A new pool each round, as each deployment's provider process has its own.
    const pool = new ServiceConnectionPool();
    const source = {
      get: (key: string) =>
        ({ "portfolio-wallet:baseUrl": sandbox.url, "portfolio-wallet:apiToken": pooled.token })[key],
    };
    const withLimiter = await createAllAtOnce(pool.for(source).client, pooled).finally(() => pool.closeAll());
    rows.push({ alone: withoutLimiter, pooled: withLimiter });
  }
} finally {
  await sandbox.close();
}

const cell = ({ throttled, seconds }: Figures) => `${throttled} × 429 in ${seconds.toFixed(1)} s`;
console.log(
  [
    "",
    `## Throttling: ${CREATES} creates at once, at most ${MAX_IN_FLIGHT} in flight served, ${SERVE_MS} ms each (real sandbox, wall clock)`,
    "",
    "| round | each client on its own | the provider's shared limiter |",
    "|---|---|---|",
    ...rows.map((row, index) => `| ${index + 1} | ${cell(row.alone)} | ${cell(row.pooled)} |`),
  ].join("\n"),
);
