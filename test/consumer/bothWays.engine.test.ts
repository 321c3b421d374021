import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { creationRequestId, strategyUpdateRequestId } from "../../sdk/nodejs/client/requestIds.ts";
import { requestCounts, resetRequestCounts, type SandboxAccess } from "../support/sandboxAccess.ts";
import { ConsumerProject, listeningUrl, stopProcess } from "./harness/consumerProject.ts";
import { packedPackage } from "./harness/packedPackage.ts";
import { configSetAll } from "../support/pulumiConfig.ts";

/**
 * One scenario, both ways a user can run it: create a wallet, reweight it, then try to delete it
 * while it holds funds; once through the dynamic resources (a TypeScript program) and once
 * through the native provider plugin (found on PATH, as `npm install` puts it in
 * node_modules/.bin). Both must send the service the same requests, derive their requestIds from
 * their URNs the same way, and end the same: the funded wallet is not dropped.
 */

const ADMIN_TOKEN = "pw-both-ways-admin-4f1d";
const WAYS = {
  dynamic: { token: "pw-both-ways-dynamic-1c9e", organization: "both-ways-dynamic" },
  native: { token: "pw-both-ways-native-8a2b", organization: "both-ways-native" },
} as const;
type Way = keyof typeof WAYS;
const POSITIONS_A = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const POSITIONS_B = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "resolvRlp", targetWeightBps: 7000 },
];
const programsDir = path.join(import.meta.dirname, "programs");

let tarball: string;
let sandboxHost: ConsumerProject;
let sandbox: ChildProcess | undefined;
let serviceUrl: string;
const projects: ConsumerProject[] = [];

beforeAll(async () => {
  tarball = await packedPackage();
  sandboxHost = await ConsumerProject.fromTemplate(
    path.join(programsDir, "dynamic-wallet"),
    "both-ways-host",
    tarball,
  );
  projects.push(sandboxHost);
  // A rebalance falls due at once: it completes at the next request (due work settles before any
  // request reads state), so following an update takes the same requests however loaded the
  // machine is. With the default 300 ms, whether the provider's second or third look (100 ms,
  // then 200 ms later) found it done depended on timing, and the counts compared below with it.
  sandbox = sandboxHost.spawnCli(
    ["sandbox", "--port", "0", "--data", ":memory:", "--rebalance-delay-ms", "0"],
    {
      SANDBOX_TOKENS: Object.values(WAYS)
        .map((way) => `${way.token}=${way.organization}`)
        .join(","),
      SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    },
  );
  serviceUrl = await listeningUrl(sandbox);
}, 300_000);

afterAll(async () => {
  await stopProcess(sandbox);
  for (const project of projects) project.cleanUp();
});

const accessOf = (way: Way): SandboxAccess => ({
  url: serviceUrl,
  token: WAYS[way].token,
  adminToken: ADMIN_TOKEN,
});

async function admin(way: Way, method: string, route: string, body: unknown): Promise<void> {
  const response = await fetch(`${serviceUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${WAYS[way].token}`,
      "x-sandbox-admin-token": ADMIN_TOKEN,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${route} answered ${response.status}: ${await response.text()}`);
}

interface ScenarioRecord {
  urn: string;
  requests: Record<"create" | "reweight" | "delete", Record<string, number>>;
  // Stack outputs are loose JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  outputs: Record<"create" | "reweight", Record<string, any>>;
  deleteError: string;
}

async function runScenario(way: Way): Promise<ScenarioRecord> {
  const project = await ConsumerProject.fromTemplate(
    path.join(programsDir, `${way}-wallet`),
    `both-ways-${way}`,
    tarball,
  );
  projects.push(project);
  // The engine finds the plugin on PATH: the package's bin, where `npm install` puts it.
  const pathWithPlugin = {
    PATH: [path.join(project.dir, "node_modules", ".bin"), project.env()["PATH"]].join(path.delimiter),
  };
  const pulumi = (args: string[]) => project.pulumi(args, pathWithPlugin);
  await pulumi(["stack", "init", "dev"]);
  await pulumi(
    configSetAll(
      { "portfolio-wallet:baseUrl": serviceUrl, positions: JSON.stringify(POSITIONS_A) },
      { "portfolio-wallet:apiToken": WAYS[way].token },
    ),
  );
  const outputsAfter = async () =>
    JSON.parse((await pulumi(["stack", "output", "--json", "--show-secrets"])).stdout);
  const step = async (run: () => Promise<unknown>) => {
    await resetRequestCounts(accessOf(way));
    await run();
    return requestCounts(accessOf(way));
  };

  const create = await step(() => pulumi(["up", "--yes", "--skip-preview"]));
  const created = await outputsAfter();
  await pulumi(["config", "set", "positions", JSON.stringify(POSITIONS_B)]);
  const reweight = await step(() => pulumi(["up", "--yes", "--skip-preview"]));
  const reweighted = await outputsAfter();

  const wallet = (await (
    await fetch(`${serviceUrl}/v2/portfolio-wallets/${created.walletId}`, {
      headers: { authorization: `Bearer ${WAYS[way].token}` },
    })
  ).json()) as { depositAddresses: { ethereum: { address: string } } };
  await admin(way, "POST", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses.ethereum.address,
    amount: 1500,
    txHash: `0x${way}${"0".repeat(40)}`,
  });
  await admin(way, "POST", "/_sandbox/clock/advance", { seconds: 3600 });
  let deleteError = "";
  const deleted = await step(async () => {
    deleteError = await pulumi(["destroy", "--yes", "--skip-preview"]).then(
      () => "",
      (error: Error) => error.message,
    );
  });
  const state = await project.stateResources();
  const urn = state.find((resource) => resource.urn.endsWith("::treasury"))?.urn ?? "";
  return {
    urn,
    requests: { create, reweight, delete: deleted },
    outputs: { create: created, reweight: reweighted },
    deleteError,
  };
}

describe("the same scenario through the dynamic resources and the native plugin", () => {
  const records = new Map<Way, ScenarioRecord>();

  test("each way creates, reweights and refuses to drop the funded wallet", async () => {
    // The two ways at once: each is its own organization at the sandbox, with its own clock and
    // request counts, so neither sees the other's requests.
    const ways = Object.keys(WAYS) as Way[];
    const ran = await Promise.all(ways.map(async (way) => [way, await runScenario(way)] as const));
    for (const [way, record] of ran) {
      records.set(way, record);
      expect(record.outputs.create.walletId, way).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.outputs.reweight.strategyChange.targetPositions, way).toEqual([
        { positionKey: "resolvRlp", targetWeightBps: 7000 },
        { positionKey: "tbills", targetWeightBps: 3000 },
      ]);
      expect(record.deleteError, way).toMatch(/refusing to drop portfolio wallet .* it holds \$1,500\.\d\d/);
      // The wallet is still in the stack, and still at the service.
      expect(record.urn, way).not.toBe("");
    }
    expect(records.get("dynamic")!.urn).toContain(
      "::pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet::treasury",
    );
    expect(records.get("native")!.urn).toContain("::portfolio-wallet:index:PortfolioWallet::treasury");
  }, 600_000);

  test("both send the service the same requests at every step", () => {
    const dynamic = records.get("dynamic")!;
    const native = records.get("native")!;
    expect(native.requests).toEqual(dynamic.requests);
    expect(Object.keys(native.requests.create)).toContain("POST /v2/portfolio-wallets");
    // The strategy PATCH, replayed with its requestId to follow the update (the service offers no
    // other way to read an update's status); no second wallet, no second update.
    expect(native.requests.reweight["PATCH /v2/portfolio-wallets/:id/strategy"]).toBeGreaterThanOrEqual(1);
    expect(native.requests.reweight["POST /v2/portfolio-wallets"]).toBeUndefined();
  });

  test("both derive their requestIds from their URN the same way", () => {
    for (const way of Object.keys(WAYS) as Way[]) {
      const { urn, outputs } = records.get(way)!;
      expect(outputs.create.creationRequestId, way).toBe(creationRequestId(urn));
      const change = outputs.reweight.strategyChange;
      expect(change.requestId, way).toBe(strategyUpdateRequestId(urn, change.revision, POSITIONS_B));
    }
  });
});
