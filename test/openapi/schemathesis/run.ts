/**
 * Runs Schemathesis against a sandbox with seeded data, on every operation of GET /openapi.json,
 * and prints one summary line. Usage (test/openapi/schemathesis.engine.test.ts runs it in a network
 * namespace of its own, so nothing it registers can make the sandbox reach beyond loopback):
 *
 *   node test/openapi/schemathesis/run.ts <schemathesis venv> <report dir>
 *
 * Exits with Schemathesis's exit code (0: every check passed on every operation).
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandbox } from "../../../sandbox/index.ts";

const [venv, reportDir] = process.argv.slice(2);
if (venv === undefined || reportDir === undefined) {
  console.error("usage: run.ts <schemathesis venv> <report dir>");
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));

/** Settings of the run, each bounded so that it fits CI (2 cores): see docs/openapi.md. */
export const RUN = {
  seed: 20261124,
  maxExamples: 60,
  // One worker: Python 3.11 (this machine's) can fail ast.parse run from two threads at once
  // ("AST constructor recursion depth mismatch"), which Hypothesis does to describe strategies.
  workers: 1,
  checks: [
    "not_a_server_error",
    "response_schema_conformance",
    "status_code_conformance",
    "content_type_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
  ],
} as const;

const TOKEN = "schemathesis-token";
const sandbox = await startSandbox({
  port: 0,
  dataDir: ":memory:",
  tokens: { [TOKEN]: "schemathesis-org" },
  depositProcessingDelayMs: 0,
  rebalanceDelayMs: 0,
});

async function call(method: string, route: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sandbox.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`seeding: ${method} ${route} answered ${res.status}: ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

// Seeded data: a funded wallet with a deposit and a withdrawal, and a webhook registration, so
// that path ids name real resources.
const wallet = await call("POST", "/v2/portfolio-wallets", {
  requestId: randomUUID(),
  positions: [
    { positionKey: "tbills", targetWeightBps: 6000 },
    { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  ],
  label: "seeded for Schemathesis",
});
const walletId = wallet.id as string;
const addresses = wallet.depositAddresses as Record<string, { address: string }>;
const deposit = await call("POST", "/_sandbox/deposits", {
  chain: "ethereum",
  address: addresses.ethereum?.address,
  amount: 1_000_000,
  txHash: `0x${"ab".repeat(32)}`,
});
await call("POST", "/_sandbox/clock/advance", { seconds: 60 });
const withdrawal = await call("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
  requestId: randomUUID(),
  destinationAddress: `0x${"12".repeat(20)}`,
  withdrawalAmount: 100,
  destinationToken: "usdc",
  destinationChain: "ethereum",
});
const registration = await call("POST", "/webhooks/registrations", {
  url: "https://hooks.example.com/portfolio",
  eventTypes: ["portfolio_wallet.balance.updated"],
  description: "seeded for Schemathesis",
});

const document = JSON.parse(await (await fetch(`${sandbox.url}/openapi.json`)).text()) as {
  paths: Record<string, Record<string, unknown>>;
};
const operationCount = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);

const started = Date.now();
const exitCode = await new Promise<number>((resolve, reject) => {
  const child = spawn(
    path.join(venv, "bin", "st"),
    [
      "--config-file",
      path.join(here, "schemathesis.toml"),
      "run",
      `${sandbox.url}/openapi.json`,
      "--checks",
      RUN.checks.join(","),
      "--seed",
      String(RUN.seed),
      "--max-examples",
      String(RUN.maxExamples),
      "--workers",
      String(RUN.workers),
      "--report",
      "json",
      "--report-json-path",
      path.join(reportDir, "report.json"),
      "--no-color",
    ],
    {
      // Its own cache (.schemathesis/) goes to the temporary folder, not into the repository.
      cwd: reportDir,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        SANDBOX_TOKEN: TOKEN,
        WALLET_ID: walletId,
        DEPOSIT_ID: deposit.id as string,
        WITHDRAWAL_ID: withdrawal.id as string,
        REGISTRATION_ID: registration.id as string,
        // Hypothesis keeps its example database here, not in the repository.
        HYPOTHESIS_STORAGE_DIRECTORY: path.join(reportDir, ".hypothesis"),
      },
    },
  );
  child.on("error", reject);
  child.on("exit", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
});
const seconds = (Date.now() - started) / 1000;
await sandbox.close();

const report = JSON.parse(readFileSync(path.join(reportDir, "report.json"), "utf8")) as StReport;
// The last line of output: what the test reads.
console.log(
  JSON.stringify({
    exitCode,
    documentedOperations: operationCount,
    testedOperations: report.operations.tested,
    generated: report.test_cases.generated,
    failures: report.test_cases.unique_failures,
    errors: report.errors.reduce((n, error) => n + error.count, 0),
    seconds: Math.round(seconds * 10) / 10,
  }),
);
process.exit(exitCode);

/** The fields of Schemathesis's JSON report that the summary reads. */
interface StReport {
  operations: { tested: number };
  test_cases: { generated: number; unique_failures: number };
  errors: { count: number }[];
}
