// End-to-end lifecycle of the provider through the real Pulumi engine (offline CLI, Node language
// host, dynamic-provider plugin; scripts/pulumiEnv.ts) against one in-process sandbox. The steps
// build on each other and run in order: one wallet stack lives through steps 1 to 8.
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import type { ConfigMap, EngineEvent, Stack, StepEventMetadata } from "@pulumi/pulumi/automation/index.js";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { approveSigningActivity } from "../../sdk/nodejs/approval/index.ts";
import { TargetAllocation, canonicalAllocation } from "../../sdk/nodejs/contract/allocation.ts";
import { KNOWN_CHAINS } from "../../sdk/nodejs/contract/wallet.ts";
import { PORTFOLIO_WALLET_TYPE } from "../../sdk/nodejs/index.ts";
import { creationRequestId } from "../../sdk/nodejs/client/requestIds.ts";
import type { ApproverSettings } from "../../sdk/nodejs/stackSettings.ts";
import type { TurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";
import { isRunning, killProcessTree, spawnPulumi } from "./harness/crash.ts";
import { EngineRun, PROGRAMS, errorLines } from "./harness/engineRun.ts";
import { E2eSandbox, mutatingCalls, type Allocation } from "./harness/sandbox.ts";
import { filesUnder, hexKeySecret, secretFindings, textSecret } from "./harness/secrets.ts";
import { stateOf } from "./harness/state.ts";

const targetWeightsByKey = (positions: Parameters<typeof TargetAllocation.ofPositions>[0]) =>
  TargetAllocation.ofPositions(positions).weightsBps;

const STEP_TIMEOUT_MS = 5 * 60_000;

const INITIAL: Allocation = [
  { positionKey: "tbills", targetWeightBps: 5000 },
  { positionKey: "syrupUsdc", targetWeightBps: 3000 },
  { positionKey: "resolvRlp", targetWeightBps: 2000 },
];
const APPROVED_BY_PROVIDER: Allocation = [
  { positionKey: "tbills", targetWeightBps: 4000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  { positionKey: "resolvRlp", targetWeightBps: 2000 },
];
const APPROVED_LATER: Allocation = [
  { positionKey: "tbills", targetWeightBps: 3000 },
  { positionKey: "syrupUsdc", targetWeightBps: 5000 },
  { positionKey: "resolvRlp", targetWeightBps: 2000 },
];
const OUT_OF_BAND: Allocation = [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }];
const FROM_STRATEGY_STACK: Allocation = [
  { positionKey: "syrupUsdc", targetWeightBps: 7000 },
  { positionKey: "tbills", targetWeightBps: 3000 },
];

const TURNKEY_CONFIG_KEYS = [
  "portfolio-wallet:turnkeyApiBaseUrl",
  "portfolio-wallet:turnkeyOrganizationId",
  "portfolio-wallet:turnkeyApiPublicKey",
  "portfolio-wallet:turnkeyApiPrivateKey",
];

/** Input properties whose values differ between the old and the new state of a step. */
function changedInputs(step: StepEventMetadata): string[] {
  const olds = step.old?.inputs ?? {};
  const news = step.new?.inputs ?? {};
  return [...new Set([...Object.keys(olds), ...Object.keys(news)])]
    .filter((key) => key !== "__provider" && JSON.stringify(olds[key]) !== JSON.stringify(news[key]))
    .sort();
}

/** The engine's step events for one resource (preview and update emit one per step). */
function stepEventsOf(events: EngineEvent[], urn: string) {
  return events.flatMap((event) => {
    const metadata = event.resourcePreEvent?.metadata;
    return metadata !== undefined && metadata.urn === urn ? [metadata] : [];
  });
}

// The steps build on each other: never concurrent, in file order.
describe("PortfolioWallet lifecycle through the Pulumi engine", { concurrent: false, shuffle: false }, () => {
  let sandbox: E2eSandbox;
  let run: EngineRun;
  let main: Stack;
  let mainStackName: string;
  let walletId: string;
  let walletUrn: string;
  let approverKeys: TurnkeyApiKeyPair;
  let anyStepFailed = false;

  const providerConfig = (): ConfigMap => ({
    "portfolio-wallet:baseUrl": { value: sandbox.url },
    "portfolio-wallet:apiToken": { value: sandbox.token, secret: true },
    "portfolio-wallet:approvalTimeoutSeconds": { value: "60" },
  });
  const setPositions = (stack: Stack, positions: unknown) =>
    stack.setConfig("e2e:positions", { value: JSON.stringify(positions) });

  beforeAll(async () => {
    sandbox = await E2eSandbox.start();
    run = EngineRun.start();
    console.log(`[e2e] sandbox ${sandbox.url}; backend and engine log in ${run.runDir}`);
    mainStackName = `e2e-${run.runId}`;
    main = await run.stack("wallet", mainStackName, {
      ...providerConfig(),
      "e2e:positions": { value: JSON.stringify(INITIAL) },
    });
    walletUrn = `urn:pulumi:${mainStackName}::${PROGRAMS.wallet.project}::${PORTFOLIO_WALLET_TYPE}::treasury`;
  });

  afterEach((context) => {
    if (context.task.result?.state === "fail") anyStepFailed = true;
  });

  afterAll(async () => {
    if (run) {
      console.log(
        "[e2e] wall time per operation:\n" +
          run.timings
            .map(
              (t) =>
                `  ${t.step.padEnd(8)} ${t.operation.padEnd(44)} ${t.stack.padEnd(18)} ${t.seconds.toFixed(1)} s`,
            )
            .join("\n"),
      );
      run.cleanUp({ keepRunDir: anyStepFailed });
    }
    await sandbox?.close();
  });

  test(
    "1. up creates the wallet and the webhook registration; outputs hold every chain's deposit address and the blended rate",
    async () => {
      const { result } = await run.run("step 1", "up", main, (io) => main.up(io));
      expect(result.summary.resourceChanges).toEqual({ create: 3 });

      const outputs = result.outputs;
      walletId = outputs["walletId"]?.value;
      const wallet = await sandbox.client.wallets.retrieve(walletId);
      const addresses = outputs["depositAddresses"]?.value as Record<string, string>;
      expect(Object.keys(addresses).sort()).toEqual([...KNOWN_CHAINS].sort());
      for (const chain of KNOWN_CHAINS) {
        expect(addresses[chain]).toBe(wallet.depositAddresses[chain]?.address);
      }
      expect(outputs["blendedRateBps"]?.value).toBe(wallet.blendedRateBps);
      expect(wallet.blendedRateBps).toBeGreaterThan(0);
      expect(outputs["targetWeightsBps"]?.value).toEqual(targetWeightsByKey(INITIAL));
      expect(await sandbox.appliedAllocation(walletId)).toEqual(canonicalAllocation(INITIAL));

      const registration = await sandbox.client.webhookRegistrations.retrieve(
        outputs["webhookRegistrationId"]?.value,
      );
      expect(registration.status).toBe("active");
      expect(registration.url).toBe("https://example.com/hooks/e2e");
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "2. preview and refresh right after up show no changes",
    async () => {
      await sandbox.resetRequestCounts();
      const { result: preview } = await run.run("step 2", "preview", main, (io) =>
        main.preview({ ...io, expectNoChanges: true }),
      );
      expect(preview.changeSummary).toEqual({ same: 3 });
      // A no-change preview changes nothing at the service and reads the catalog at most once.
      const previewCounts = await sandbox.requestCounts();
      expect(mutatingCalls(previewCounts)).toEqual([]);
      expect(previewCounts["GET /v2/portfolio-wallets/strategies"] ?? 0).toBeLessThanOrEqual(1);
      const { result: refresh } = await run.run("step 2", "refresh", main, (io) =>
        main.refresh({ ...io, expectNoChanges: true }),
      );
      expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
      expect(mutatingCalls(await sandbox.requestCounts())).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "3. a weight change previews as an in-place update of the positions and, approved by the configured approver, lands at the service",
    async () => {
      approverKeys = await sandbox.registerApproverKey("e2e-approver");
      await sandbox.setStrategyUpdateApprovals(1);
      await main.setAllConfig({
        "portfolio-wallet:turnkeyApiBaseUrl": { value: sandbox.url },
        "portfolio-wallet:turnkeyOrganizationId": { value: sandbox.organizationId },
        "portfolio-wallet:turnkeyApiPublicKey": { value: approverKeys.apiPublicKey },
        "portfolio-wallet:turnkeyApiPrivateKey": { value: approverKeys.apiPrivateKey, secret: true },
      });
      await setPositions(main, APPROVED_BY_PROVIDER);

      // --diff: the property-level display a reviewer reads in a pull request.
      const preview = await run.run("step 3", "preview --diff", main, (io) =>
        main.preview({ ...io, diff: true }),
      );
      expect(preview.result.changeSummary).toEqual({ same: 2, update: 1 });
      const walletSteps = stepEventsOf(preview.events, walletUrn);
      expect(walletSteps.map((step) => step.op)).toEqual(["update"]);
      // The engine's events carry the old and new inputs (this provider returns no detailed diff):
      // only the allocation changed, in whichever of its two forms the checked inputs keep.
      const changed = changedInputs(walletSteps[0]!);
      expect(changed).toContain("targetWeightsBps");
      expect(changed.filter((key) => key !== "positions" && key !== "targetWeightsBps")).toEqual([]);
      const replacing = preview.events.filter((event) =>
        ["replace", "create-replacement", "delete-replaced"].includes(
          event.resourcePreEvent?.metadata.op ?? "",
        ),
      );
      expect(replacing).toEqual([]);
      console.log(`[e2e] step 3 preview --diff:\n${preview.stdout}`);
      // The wallet's own block (before the stack outputs) names the allocation map and each changed source.
      const blockStart = preview.stdout.indexOf(
        "~ pulumi-nodejs:dynamic/portfoliowallet:PortfolioWallet: (update)",
      );
      expect(blockStart).toBeGreaterThanOrEqual(0);
      const walletBlock = preview.stdout.slice(
        blockStart,
        preview.stdout.indexOf("--outputs:--", blockStart),
      );
      expect(walletBlock).toMatch(
        /~ targetWeightsBps: \{[^}]*~ syrupUsdc: 3000 => 4000[^}]*~ tbills +: 5000 => 4000/,
      );

      await sandbox.resetRequestCounts();
      const { result } = await run.run("step 3", "up", main, (io) => main.up(io));
      expect(result.summary.resourceChanges).toEqual({ same: 2, update: 1 });
      const counts = await sandbox.requestCounts();
      expect(counts["PATCH /v2/portfolio-wallets/:id/strategy"]).toBeGreaterThanOrEqual(1);
      expect(counts["POST /v2/portfolio-wallets"]).toBeUndefined();

      // The provider voted with the configured key: the signing activity is completed.
      expect(result.outputs["strategyChangeStatus"]?.value).toBe("completed");
      const activityId = result.outputs["signingActivityId"]?.value;
      expect(activityId).toEqual(expect.any(String));
      const activity = await sandbox.adminOk("GET", `/_sandbox/signing-activities/${activityId}`);
      expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

      expect(await sandbox.appliedAllocation(walletId)).toEqual(canonicalAllocation(APPROVED_BY_PROVIDER));
      const { result: after } = await run.run("step 3", "preview after up", main, (io) =>
        main.preview({ ...io, expectNoChanges: true }),
      );
      expect(after.changeSummary).toEqual({ same: 3 });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "4. without an approver, up leaves the change pending_approval; once approved, refresh shows it applied",
    async () => {
      await main.removeAllConfig(TURNKEY_CONFIG_KEYS);
      await setPositions(main, APPROVED_LATER);
      const appliedBefore = await sandbox.appliedAllocation(walletId);

      const { result } = await run.run("step 4", "up", main, (io) => main.up(io));
      expect(result.summary.resourceChanges).toEqual({ same: 2, update: 1 });
      expect(result.outputs["strategyChangeStatus"]?.value).toBe("pending_approval");
      const signingActivityId = result.outputs["signingActivityId"]?.value;
      expect(signingActivityId).toEqual(expect.any(String));
      // Nothing is applied until someone approves.
      expect(await sandbox.appliedAllocation(walletId)).toEqual(appliedBefore);

      const approver: ApproverSettings = {
        apiBaseUrl: sandbox.url,
        organizationId: sandbox.organizationId,
        apiPublicKey: approverKeys.apiPublicKey,
        apiPrivateKey: approverKeys.apiPrivateKey,
      };
      const outcome = await approveSigningActivity(approver, signingActivityId);
      expect(outcome.kind).toBe("completed");
      await sandbox.waitForAllocation(walletId, APPROVED_LATER);

      // The refreshed inputs equal the code's (the up recorded the target it requested), so the
      // engine counts the wallet as "same"; what refresh changes is the change's status in state.
      await run.run("step 4", "refresh", main, (io) => main.refresh(io));
      const wallet = (await stateOf(main)).resource(walletUrn);
      expect(wallet.outputs["strategyChangeStatus"]).toBe("completed");
      expect(wallet.outputs["targetWeightsBps"]).toEqual(targetWeightsByKey(APPROVED_LATER));

      const { result: after } = await run.run("step 4", "preview after refresh", main, (io) =>
        main.preview({ ...io, expectNoChanges: true }),
      );
      expect(after.changeSummary).toEqual({ same: 3 });
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "5. refresh detects an out-of-band strategy change and up restores the code's allocation",
    async () => {
      await sandbox.setStrategyUpdateApprovals(0);
      const update = await sandbox.client.wallets.updateStrategy(walletId, {
        requestId: randomUUID(),
        positions: OUT_OF_BAND,
      });
      expect(update.status).toBe("processing");
      await sandbox.waitForAllocation(walletId, OUT_OF_BAND);

      const { result: refresh } = await run.run("step 5", "refresh", main, (io) => main.refresh(io));
      expect(refresh.summary.resourceChanges).toEqual({ same: 2, update: 1 });
      const refreshed = (await stateOf(main)).resource(walletUrn);
      expect(refreshed.outputs["targetWeightsBps"]).toEqual(targetWeightsByKey(OUT_OF_BAND));
      expect(refreshed.inputs["targetWeightsBps"]).toEqual(targetWeightsByKey(OUT_OF_BAND));

      const preview = await run.run("step 5", "preview", main, (io) => main.preview(io));
      expect(preview.result.changeSummary).toEqual({ same: 2, update: 1 });

      const { result } = await run.run("step 5", "up", main, (io) => main.up(io));
      expect(result.summary.resourceChanges).toEqual({ same: 2, update: 1 });
      expect(result.outputs["strategyChangeStatus"]?.value).toBe("completed");
      expect(await sandbox.appliedAllocation(walletId)).toEqual(canonicalAllocation(APPROVED_LATER));
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "6. a WalletStrategy in a second stack manages the wallet through a StackReference",
    async () => {
      const strategyStackName = `strategy-${run.runId}`;
      const strategy = await run.stack("strategy", strategyStackName, {
        ...providerConfig(),
        "e2e:walletStack": { value: run.qualifiedStackName("wallet", mainStackName) },
        "e2e:positions": { value: JSON.stringify(FROM_STRATEGY_STACK) },
      });

      const { result } = await run.run("step 6", "up", strategy, (io) => strategy.up(io));
      expect(result.summary.resourceChanges).toEqual({ create: 2 });
      expect(result.outputs["walletId"]?.value).toBe(walletId);
      expect(result.outputs["strategyChangeStatus"]?.value).toBe("completed");
      expect(await sandbox.appliedAllocation(walletId)).toEqual(canonicalAllocation(FROM_STRATEGY_STACK));

      await run.run("step 6", "preview after up", strategy, (io) =>
        strategy.preview({ ...io, expectNoChanges: true }),
      );

      // Deleting a WalletStrategy stops managing the allocation; it sends nothing to the service.
      await sandbox.resetRequestCounts();
      await run.run("step 6", "destroy", strategy, (io) => strategy.destroy(io));
      expect(mutatingCalls(await sandbox.requestCounts())).toEqual([]);
      expect(await sandbox.appliedAllocation(walletId)).toEqual(canonicalAllocation(FROM_STRATEGY_STACK));

      // The wallet stack owns the allocation again: refresh adopts what the strategy stack left.
      await setPositions(main, FROM_STRATEGY_STACK);
      await run.run("step 6", "refresh", main, (io) => main.refresh(io));
      await run.run("step 6", "preview after refresh", main, (io) =>
        main.preview({ ...io, expectNoChanges: true }),
      );
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "7. bad input fails preview with the property and the reason, before any mutating call",
    async () => {
      await sandbox.resetRequestCounts();

      await setPositions(main, [
        { positionKey: "tbills", targetWeightBps: 5000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4999 },
      ]);
      const badSum = await run.runExpectingFailure("step 7", "preview (weights sum to 9999)", main, (io) =>
        main.preview(io),
      );
      console.log(`[e2e] step 7 preview (weights sum to 9999) reported:\n${errorLines(badSum.text)}`);
      expect(badSum.text).toMatch(
        /resource 'treasury': property positions value .* has a problem: target weights sum to 9999 bps; they must sum to exactly 10000 \(100%\)/,
      );

      await setPositions(main, [
        { positionKey: "tbills", targetWeightBps: 5000 },
        { positionKey: "moonShot", targetWeightBps: 5000 },
      ]);
      const unknownKey = await run.runExpectingFailure(
        "step 7",
        "preview (unknown positionKey)",
        main,
        (io) => main.preview(io),
      );
      console.log(`[e2e] step 7 preview (unknown positionKey) reported:\n${errorLines(unknownKey.text)}`);
      expect(unknownKey.text).toMatch(
        /resource 'treasury': property positions\[1\]\.positionKey value .* has a problem: unknown positionKey "moonShot"; valid keys are: /,
      );

      expect(mutatingCalls(await sandbox.requestCounts())).toEqual([]);
      await setPositions(main, FROM_STRATEGY_STACK);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "8. destroy refuses a funded wallet and keeps it in state; with onDelete retain, destroy leaves it at the service",
    async () => {
      await fundWallet(sandbox, walletId);

      const refused = await run.runExpectingFailure("step 8", "destroy (funded)", main, (io) =>
        main.destroy(io),
      );
      console.log(`[e2e] step 8 destroy (funded) reported:\n${errorLines(refused.text)}`);
      expect(refused.text).toContain(`refusing to drop portfolio wallet ${walletId} from the stack`);
      expect(refused.text).toContain('set onDelete: "retain" on the resource, run `pulumi up`');
      expect((await stateOf(main)).find(walletUrn)).toBeDefined();

      await main.setConfig("e2e:onDelete", { value: "retain" });
      await sandbox.resetRequestCounts();
      const { result } = await run.run("step 8", "up (onDelete retain)", main, (io) => main.up(io));
      expect(result.summary.resourceChanges?.["update"]).toBe(1);
      expect(await sandbox.requestCounts()).not.toHaveProperty(["PATCH /v2/portfolio-wallets/:id/strategy"]);
      expect((await stateOf(main)).resource(walletUrn).outputs["onDelete"]).toBe("retain");

      const { result: destroyed } = await run.run("step 8", "destroy (retain)", main, (io) =>
        main.destroy(io),
      );
      expect(destroyed.summary.resourceChanges?.["delete"]).toBe(3);
      expect((await stateOf(main)).find(walletUrn)).toBeUndefined();
      const wallet = await sandbox.client.wallets.retrieve(walletId);
      expect(wallet.id).toBe(walletId);
      expect(wallet.totalBalanceUsd + wallet.pendingAllocationsUsd).toBeGreaterThan(0);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "9. an up killed after the service created the wallet, but before Pulumi recorded it, resumes without a second wallet",
    async () => {
      const crashStackName = `crash-${run.runId}`;
      const label = `e2e crash ${run.runId}`;
      const crash = await run.stack("wallet", crashStackName, {
        ...providerConfig(),
        "e2e:positions": { value: JSON.stringify(INITIAL) },
        "e2e:label": { value: label },
        "e2e:webhook": { value: "false" },
      });
      const urn = `urn:pulumi:${crashStackName}::${PROGRAMS.wallet.project}::${PORTFOLIO_WALLET_TYPE}::treasury`;
      const walletsWithLabel = async () => (await sandbox.allWallets()).filter((w) => w.label === label);

      // The create is applied and its answer lost (drop); the client's retry with the same
      // requestId is then held (delay) while the CLI is killed.
      const holdMs = 15_000;
      await sandbox.resetRequestCounts();
      await sandbox.addFault({ method: "POST", path: "/v2/portfolio-wallets", kind: "drop", times: 1 });
      await sandbox.addFault({
        method: "POST",
        path: "/v2/portfolio-wallets",
        kind: "delay",
        delayMs: holdMs,
      });
      const write = run.logSection(`step 9 · pulumi up --stack ${crashStackName} (killed)`);
      const started = performance.now();
      const cli = spawnPulumi(
        ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", crashStackName],
        {
          cwd: PROGRAMS.wallet.dir,
          env: run.envVars,
          write,
        },
      );
      let exitedEarly = false;
      void cli.exited.then(() => (exitedEarly = true));
      let killed: number[] = [];
      let heldAt: number;
      try {
        const deadline = Date.now() + 120_000;
        while (((await sandbox.requestCounts())["POST /v2/portfolio-wallets"] ?? 0) < 2) {
          if (exitedEarly || Date.now() > deadline) {
            throw new Error(
              `pulumi up ended (or stalled) before the retried create reached the sandbox; see ${run.logFile}`,
            );
          }
          await sleep(50);
        }
        heldAt = Date.now();
        expect((await walletsWithLabel()).length).toBe(1);
      } finally {
        // Killed here whatever happened above: a failed wait must not leave the engine running.
        if (!exitedEarly) killed = killProcessTree(cli.child.pid!);
      }
      const exit = await cli.exited;
      run.record({
        step: "step 9",
        operation: "up, killed with SIGKILL",
        stack: crashStackName,
        seconds: (performance.now() - started) / 1000,
        ok: true,
      });
      expect(exit.signal).toBe("SIGKILL");
      expect(killed.length).toBeGreaterThanOrEqual(3); // the CLI, the language host and its Node program at least
      await sleep(200);
      expect(killed.filter(isRunning)).toEqual([]);
      await sandbox.clearFaults();

      // What the engine left: the stack lock of the killed update, and the create as pending.
      const locked = await run.runExpectingFailure("step 9", "up (stack still locked)", crash, (io) =>
        crash.up(io),
      );
      expect(locked.text).toContain("the stack is currently locked");
      expect(locked.text).toContain("pulumi cancel");
      await crash.cancel();
      const pending = (await stateOf(crash)).pendingOperations;
      expect(pending.map((op) => [op.type, op.resource.urn])).toEqual([["creating", urn]]);
      expect((await stateOf(crash)).find(urn)).toBeUndefined();

      // As the engine asks: refresh clears the pending create (non-interactively, with --clear-pending-creates).
      await run.run("step 9", "refresh --clear-pending-creates", crash, (io) =>
        crash.refresh({ ...io, clearPendingCreates: true }),
      );
      expect((await stateOf(crash)).pendingOperations).toEqual([]);

      // The resumed create sends the same URN-derived requestId: the service answers with the wallet it created.
      const { result } = await run.run("step 9", "up (resumed)", crash, (io) => crash.up(io));
      expect(result.summary.resourceChanges).toEqual({ same: 1, create: 1 });
      const wallets = await walletsWithLabel();
      expect(wallets.map((w) => w.id)).toEqual([result.outputs["walletId"]?.value]);
      expect(result.outputs["creationRequestId"]?.value).toBe(creationRequestId(urn));
      expect((await sandbox.requestCounts())["POST /v2/portfolio-wallets"]).toBeGreaterThanOrEqual(3);

      await run.run("step 9", "preview after up", crash, (io) =>
        crash.preview({ ...io, expectNoChanges: true }),
      );
      // Let the held retry finish before the sandbox closes (it replays the same create).
      await sleep(Math.max(0, heldAt + holdMs + 1_000 - Date.now()));
      expect((await walletsWithLabel()).length).toBe(1);
    },
    STEP_TIMEOUT_MS,
  );

  test(
    "10. neither the API token nor the Turnkey private key is in the backend, the stack config or the engine log",
    async () => {
      // The backend with its history and backups, PULUMI_HOME, the engine log and events, and the
      // stack config files beside the programs.
      const files = [...filesUnder(run.runDir), ...run.configFiles()];
      expect(files.some((f) => f.includes("/.pulumi/history/"))).toBe(true);
      expect(files.some((f) => f.includes("/.pulumi/backups/"))).toBe(true);
      expect(files).toContain(run.eventsFile);
      // The log is verbose enough to show the provider being configured with the stack's secrets.
      expect(readFileSync(run.logFile, "utf8")).toMatch(/Provider\[\w+\]\.Configure\(\) executing/);
      // The scan finds what is there: the wallet id is in state, log and events.
      expect(secretFindings(files, [textSecret("wallet id", walletId)]).length).toBeGreaterThan(2);

      const findings = secretFindings(files, [
        textSecret("API token", sandbox.token),
        hexKeySecret("Turnkey API private key", approverKeys.apiPrivateKey),
      ]);
      expect(findings).toEqual([]);
    },
    STEP_TIMEOUT_MS,
  );
});

/**
 * Sends a simulated on-chain deposit to the wallet's ethereum address (the sandbox's admin call)
 * and waits until the wallet shows the money, received or pending.
 */
async function fundWallet(sandbox: E2eSandbox, walletId: string): Promise<void> {
  const wallet = await sandbox.client.wallets.retrieve(walletId);
  const answer = await sandbox.admin("POST", "/_sandbox/deposits", {
    chain: "ethereum",
    address: wallet.depositAddresses["ethereum"]?.address,
    amount: 2500,
    txHash: `0x${randomBytes(32).toString("hex")}`,
  });
  if (answer.status === 404) {
    throw new Error("the sandbox has no deposit simulation (POST /_sandbox/deposits answered 404)");
  }
  expect(answer.status).toBe(201);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const funded = await sandbox.client.wallets.retrieve(walletId);
    const pendingOnChain = Object.values(funded.depositAddresses).some((a) => a.pendingAllocationsUsd > 0);
    if (funded.totalBalanceUsd > 0 || funded.pendingAllocationsUsd > 0 || pendingOnChain) return;
    if (Date.now() > deadline) throw new Error(`wallet ${walletId} shows no funds 30 s after a deposit`);
    await sleep(100);
  }
}
