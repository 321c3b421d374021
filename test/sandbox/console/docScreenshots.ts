// Takes the screenshots of docs/console.md (docs/images/console-*.png) with the browser tests'
// harness: `node test/sandbox/console/docScreenshots.ts`. A sandbox with a few wallets, money moving,
// a strategy update waiting for approval and webhooks, made through the public and admin APIs.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Page } from "playwright-core";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { ensureChromium, launchBrowser, signIn, startCliSandbox } from "./harness.ts";

const TOKEN = "sandbox-token";
const ADMIN_TOKEN = randomBytes(12).toString("hex");
const PAYOUT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const outDir = path.join(repoRoot, "docs", "images");

const receiver = createServer((_request, response) => response.writeHead(204).end());
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

const sandbox = await startCliSandbox({ tokens: { [TOKEN]: "sandbox-org" }, adminToken: ADMIN_TOKEN });
// The treasury service's events go to an inbox the sandbox hosts, as a team without a receiver of
// its own points them (docs/sandbox.md "Webhook inboxes").
const INBOX = "treasury-service";
const inboxUrl = `${sandbox.url}/_sandbox/inboxes/${INBOX}`;
async function call(method: string, route: string, body?: unknown, admin = false) {
  const answer = await sandbox.api(TOKEN, method, route, body, admin);
  if (answer.status >= 300)
    throw new Error(`${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}
const advance = (seconds: number) => call("POST", "/_sandbox/clock/advance", { seconds }, true);
async function wallet(
  label: string,
  positions: { positionKey: string; targetWeightBps: number }[],
  amount: number,
) {
  const created = await call("POST", "/v2/portfolio-wallets", { requestId: randomUUID(), label, positions });
  await call(
    "POST",
    "/_sandbox/deposits",
    {
      chain: "ethereum",
      address: created.depositAddresses.ethereum.address,
      amount,
      txHash: `0x${randomBytes(32).toString("hex")}`,
    },
    true,
  );
  return created as { id: string; depositAddresses: Record<string, { address: string }> };
}
const withdraw = (walletId: string, withdrawalAmount: number) =>
  call("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
    requestId: randomUUID(),
    withdrawalAmount,
    destinationToken: "usdc",
    destinationChain: "ethereum",
    destinationAddress: PAYOUT_ADDRESS,
  });

await call("POST", "/webhooks/registrations", {
  url: inboxUrl,
  eventTypes: [
    "portfolio_wallet.deposit.status_changed",
    "portfolio_wallet.withdrawal.status_changed",
    "portfolio_wallet.strategy.status_changed",
  ],
  description: "treasury service",
});
await call("POST", "/webhooks/registrations", {
  url: "http://127.0.0.1:9/alerts",
  eventTypes: ["portfolio_wallet.balance.updated"],
  description: "alerting (receiver down)",
});
await wallet(
  "Growth sleeve",
  [
    { positionKey: "tbills", targetWeightBps: 5000 },
    { positionKey: "resolvRlp", targetWeightBps: 5000 },
  ],
  60_000,
);
await wallet("Payroll buffer", [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }], 40_000);
const treasury = await wallet(
  "Treasury reserve",
  [
    { positionKey: "tbills", targetWeightBps: 6000 },
    { positionKey: "syrupUsdc", targetWeightBps: 4000 },
  ],
  250_000,
);
await advance(2);
await call(
  "POST",
  "/_sandbox/deposits",
  {
    chain: "base",
    address: treasury.depositAddresses.base!.address,
    amount: 12_500,
    txHash: `0x${randomBytes(32).toString("hex")}`,
  },
  true,
);
await advance(3 * 86400);
const twoLegs = (await withdraw(treasury.id, 130_000)) as { id: string };
await advance(86400);
await withdraw(treasury.id, 20_000);
await advance(3600);
await call("PUT", "/_sandbox/policy", { strategyUpdateApprovals: 1 }, true);
await call("PATCH", `/v2/portfolio-wallets/${treasury.id}/strategy`, {
  requestId: randomUUID(),
  positions: [
    { positionKey: "tbills", targetWeightBps: 5000 },
    { positionKey: "syrupUsdc", targetWeightBps: 3000 },
    { positionKey: "resolvRlp", targetWeightBps: 2000 },
  ],
});

// Away from UTC, so the pictures show times read in the browser's own zone, as a user sees them.
const browser = await launchBrowser(await ensureChromium(), { timezoneId: "Europe/Paris" });
const page = await browser.context.newPage();
await page.setViewportSize({ width: 1280, height: 800 });
async function shoot(name: string, fullPage = true) {
  await page.waitForTimeout(700);
  await page.screenshot({ path: path.join(outDir, `console-${name}.png`), fullPage });
  console.log(`docs/images/console-${name}.png`);
}
async function open(target: Page, route: string, ready: string) {
  await target.goto(`${sandbox.consoleUrl}${route}`);
  await target.locator(ready).first().waitFor();
}

await open(page, "sign-in", "main form");
await shoot("sign-in", false);
await signIn(page, sandbox.consoleUrl, TOKEN, ADMIN_TOKEN);
await open(page, "wallets", "tr[data-wallet-id]");
await shoot("wallets", false);
await open(page, `wallets/${treasury.id}`, ".allocation-table");
await page.locator("[data-yield=generated]").waitFor();
await shoot("wallet");
await page.setViewportSize({ width: 420, height: 900 });
await page.locator("[data-yield=generated]").waitFor();
await shoot("wallet-narrow", false);
await page.setViewportSize({ width: 1280, height: 800 });
await open(page, `wallets/${treasury.id}/deposits`, "[data-leg-amount]");
await shoot("deposits", false);
await open(page, `wallets/${treasury.id}/withdrawals`, "article[data-withdrawal-id]");
await shoot("withdrawals");
// The wallet's life so far, the period the form starts with.
await open(page, `wallets/${treasury.id}/statement`, "#statement-form");
await page.locator("#statement-form").getByRole("button", { name: "Show statement" }).click();
await page.locator("[data-figure]").first().waitFor();
await shoot("statement");
await open(page, `ids/${twoLegs.id}`, "[data-object-kind] [data-step]");
await shoot("object-page");
await open(page, "approvals", "article.approval");
await shoot("approvals");
await open(page, "webhooks", "tr[data-registration-id]");
await page.locator(`tr[data-status="succeeded"]`).first().waitFor();
await shoot("webhooks", false);
await page
  .locator("tr[data-delivery-id]")
  .first()
  .getByRole("button", { name: /^Inspect/ })
  .click();
await page.getByText("Headers of each attempt").waitFor();
await page.locator("#delivery-heading").scrollIntoViewIfNeeded();
await shoot("webhook-delivery", false);
await open(page, `webhooks/inboxes/${INBOX}`, "[data-inbox-delivery-id]");
await shoot("inbox");
// A registration made in the page: its secret shown once, in its box, with Copy.
await open(page, "webhooks", "#webhook-form input[name=eventTypes]");
await page.locator("#webhook-form").getByLabel("URL").fill(`${receiverUrl}/new`);
await page.locator("#webhook-form").getByRole("button", { name: "Register webhook" }).click();
await page.locator("[data-secret-box]").waitFor();
await shoot("webhook-secret", false);
await open(page, "events?method=POST", "tr[data-request-id]");
await shoot("events", false);
await call(
  "POST",
  "/_sandbox/faults/withdrawal-leg",
  { walletId: treasury.id, legKey: "redeem", reason: "bridge outage (injected)" },
  true,
);
await open(page, `controls?wallet=${treasury.id}`, "main form");
const depositForm = page.locator("form", { has: page.getByRole("button", { name: "Simulate deposit" }) });
await depositForm.getByLabel("Amount (USD)").fill("5000");
await depositForm.getByRole("button", { name: "Simulate deposit" }).click();
await depositForm.getByText("Deposit detected").waitFor();
await shoot("controls");
await call("POST", "/_sandbox/snapshot/save", { file: "before-the-reweight.snapshot" }, true);
await open(page, "controls", "#snapshot-files");
await page.locator("#snapshots-heading").scrollIntoViewIfNeeded();
await shoot("snapshots", false);

await browser.close();
await sandbox.close();
receiver.close();
