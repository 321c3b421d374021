import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { InboxDeliveryListSchema, type InboxDelivery } from "../../sdk/nodejs/contract/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ensureChromium, launchBrowser, signIn } from "../sandbox/console/harness.ts";
import { heldPort } from "../support/heldPort.ts";
import { callSandbox, depositInto, type SandboxAccess } from "../support/sandboxAccess.ts";

// The README's main job, run as a user runs it (`node scripts/quickstart.ts`), through the real
// engine, in its own stack, state directory and sandbox port so it never touches a developer's
// own quickstart stack.

const run = promisify(execFile);
const stateRoot = mkdtempSync(path.join(tmpdir(), "pw-quickstart-test-"));
const stackName = `quickstart-test-${path.basename(stateRoot).slice(-6).toLowerCase()}`;
let port = 0;

async function quickstart(...args: string[]): Promise<string> {
  // As the README's first command runs it: the engine type-checks the quickstart program (the
  // heavy tier's transpile-only setting, vitest.config.ts, is not a user's).
  const { PULUMI_NODEJS_TRANSPILE_ONLY: _tierSetting, ...userEnv } = process.env;
  const { stdout } = await run(process.execPath, ["scripts/quickstart.ts", ...args], {
    cwd: repoRoot,
    env: {
      ...userEnv,
      PORTFOLIO_WALLET_QUICKSTART_STACK: stackName,
      PORTFOLIO_WALLET_QUICKSTART_STATE_DIR: stateRoot,
      PORTFOLIO_WALLET_QUICKSTART_PORT: String(port),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

const HOUR_MS = 60 * 60 * 1000;
/** The inbox scripts/quickstart.ts points the quickstart's webhook at. */
const INBOX = "quickstart";

/**
 * What the webhook the `up` registered received, read through the inbox API: the quickstart's
 * sandbox runs only while the script does, so a sandbox is started on its data and port (the
 * inbox URL names that port) between two runs. Wallet creation emits no event (docs/webhooks.md),
 * so money is moved in the wallet the `up` made: a deposit, then all of it withdrawn, so that the
 * wallet is empty again for the destroy at the end.
 */
async function eventsOfTheUpsWebhook(walletId: string): Promise<void> {
  const sandbox = await startSandbox({
    port,
    dataDir: path.join(stateRoot, "sandbox-data"),
    // Time stands still, so the wallet earns nothing between the deposit and the withdrawal.
    manualClock: true,
  });
  const access: SandboxAccess = { url: sandbox.url, token: "sandbox-token" };
  try {
    await depositInto(access, walletId, 1000, 1000);
    await callSandbox(access, "POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
      requestId: randomUUID(),
      withdrawalAmount: 1000,
      destinationToken: "usdc",
      destinationChain: "ethereum",
      destinationAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    await callSandbox(access, "POST", "/_sandbox/clock/advance", { ms: 169 * HOUR_MS });
    const [registration] = (await callSandbox(access, "GET", "/webhooks/registrations")).data;
    expect(registration.url).toBe(`${sandbox.url}/_sandbox/inboxes/${INBOX}`);
    // Every delivery of the registration answered, each to the inbox.
    const deliveries = async () =>
      (await callSandbox(access, "GET", `/_sandbox/webhook-deliveries?registrationId=${registration.id}`))
        .data as { eventId: string; eventType: string; status: string }[];
    let all: Awaited<ReturnType<typeof deliveries>> = [];
    let received: InboxDelivery[] = [];
    // Delivered in the background: read until every delivery has succeeded and the inbox holds each
    // (a retried delivery is more than one attempt there, so deliveries are counted by id), for a
    // minute at most, then say what was missing.
    const settled = () =>
      all.length >= 5 &&
      all.every((d) => d.status === "succeeded") &&
      new Set(received.map((r) => r.deliveryId)).size === all.length;
    const giveUpAt = Date.now() + 60_000;
    while (!settled()) {
      if (Date.now() > giveUpAt)
        throw new Error(
          `the inbox did not receive every delivery within a minute: ${JSON.stringify({ deliveries: all.map((d) => d.status), attempts: received.length })}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
      all = await deliveries();
      received = InboxDeliveryListSchema.parse(
        await callSandbox(access, "GET", `/_sandbox/inboxes/${INBOX}/deliveries?limit=200`),
      ).data;
    }
    const events = received.map((delivery) => ({ ...delivery, event: JSON.parse(delivery.body) }));
    expect(new Set(events.map((e) => e.eventId))).toEqual(
      new Set((await deliveries()).map((d) => d.eventId)),
    );
    for (const e of events) {
      expect(e.signature).toEqual({ valid: true, reason: null });
      expect(e.answer.status).toBe(200);
      expect(e.event.data.portfolioWalletId).toBe(walletId);
    }
    const deposits = events.filter((e) => e.eventType === "portfolio_wallet.deposit.status_changed");
    expect(deposits.map((e) => e.event.data.deposit.status).sort()).toEqual(["completed", "processing"]);
    const balances = events.filter((e) => e.eventType === "portfolio_wallet.balance.updated");
    expect(balances.map((e) => e.event.data.totalBalanceUsd)).toContain(0);

    // And on the inbox's console page, each with its signature verified.
    const { context, close } = await launchBrowser(await ensureChromium());
    try {
      const page = await context.newPage();
      await signIn(page, sandbox.consoleUrl, "sandbox-token");
      await page.goto(`${sandbox.consoleUrl}webhooks/inboxes/${INBOX}`);
      const rows = page.locator("tr[data-inbox-delivery-id]");
      await rows.nth(events.length - 1).waitFor();
      const shown = await rows.evaluateAll((all) =>
        all.map((row) => [row.getAttribute("data-event-id"), row.getAttribute("data-signature")]),
      );
      expect(shown).toEqual(events.map((e) => [e.eventId, "valid"]));
    } finally {
      await close();
    }
  } finally {
    await sandbox.close();
  }
}

afterAll(() => {
  rmSync(stateRoot, { recursive: true, force: true });
  rmSync(path.join(repoRoot, `Pulumi.${stackName}.yaml`), { force: true });
});

describe("npm run quickstart", () => {
  test(
    "creates the wallet and webhook, is a no-op the second time, and tears down",
    { timeout: 300_000 },
    async () => {
      port = await heldPort();
      const first = await quickstart();
      expect(first).toMatch(/\+ 3 created/);
      const walletId = /wallet id:\s+([0-9a-f-]{36})/.exec(first)?.[1];
      expect(walletId).toBeDefined();
      expect(first).toMatch(/blended rate \(bps\): \d+/);
      for (const chain of ["ethereum", "solana", "bsc", "avalanche", "arbitrum", "base", "optimism"]) {
        expect(first).toMatch(new RegExp(`^\\s+${chain}\\s+\\S+$`, "m"));
      }

      // The webhook the `up` registered points at the embedded sandbox's inbox, which shows what it was sent.
      await eventsOfTheUpsWebhook(walletId!);

      const second = await quickstart();
      expect(second).toMatch(/3 unchanged/);
      expect(second).not.toMatch(/created|updated|replaced/);
      expect(second).toContain(`wallet id:          ${walletId}`);

      // The reviewer's view of the program as it stands: the report of a real preview.
      const report = await quickstart("report");
      expect(report).toContain(
        `<!-- portfolio-wallet-report project=portfolio-wallet-quickstart stack=${stackName}`,
      );
      expect(report).toContain(`### portfolio-wallet-quickstart/${stackName}: no changes`);

      const destroyed = await quickstart("destroy");
      expect(destroyed).toMatch(/- 3 deleted/);
      expect(existsSync(path.join(stateRoot, "sandbox-data"))).toBe(true);
    },
  );
});
