import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ensureChromium,
  launchBrowser,
  screenshot,
  signIn,
  startCliSandbox,
  submitSignIn,
  type CliSandbox,
} from "./harness.ts";
import { startReceiver } from "../domain/events/harness/receiver.ts";
import { boxOf, eventually, offscreenActions, overlap, seriousViolations } from "./pageChecks.ts";
import { statementCsv, usdToMicros, type Statement } from "../../../sdk/nodejs/contract/index.ts";
import { ETHEREUM_PAYOUT } from "../../support/sandboxAccess.ts";

/**
 * The console in a real browser (Debian's Chromium through playwright-core), against
 * `portfolio-wallet sandbox` run as a user runs it, with data made through the public API.
 * Screenshots of the main pages go to test-artifacts/console/ (gitignored).
 */

// Long random tokens, so that finding one in a URL, the page or the logs cannot be a coincidence.
const TOKEN_A = `console-a-${randomBytes(12).toString("hex")}`;
const TOKEN_B = `console-b-${randomBytes(12).toString("hex")}`;
/** An organization with no wallet until the snapshot scenario makes one (an import needs none). */
const TOKEN_C = `console-c-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `console-admin-${randomBytes(12).toString("hex")}`;
/** Organization C's own admin token: its admin calls, nothing that acts on every organization. */
const ORG_C_ADMIN_TOKEN = `console-c-admin-${randomBytes(12).toString("hex")}`;
const SECRETS = [TOKEN_A, TOKEN_B, TOKEN_C, ADMIN_TOKEN, ORG_C_ADMIN_TOKEN];
const PAYOUT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
const SCENARIO_TIMEOUT_MS = 120_000;

let sandbox: CliSandbox;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
/** Every URL the browser asked for, from any page of the test. */
const requestedUrls: string[] = [];
/** What the pages printed on their consoles, and their uncaught errors. */
const pageErrors: string[] = [];
const openPages: Page[] = [];

type Wallet = { id: string; createdAt: string; depositAddresses: Record<string, { address: string }> };

const apiA = (method: string, route: string, body?: unknown, admin = false) =>
  sandbox.api(TOKEN_A, method, route, body, admin);

/** A wallet of organization A (or B), funded with `amount` invested in its positions. */
async function walletOf(token: string, label: string, amount: number): Promise<Wallet> {
  const created = await sandbox.api(token, "POST", "/v2/portfolio-wallets", {
    requestId: randomUUID(),
    label,
    positions: POSITIONS,
  });
  expect(created.status).toBe(201);
  if (amount > 0) {
    const funded = await sandbox.api(
      token,
      "POST",
      "/_sandbox/deposits",
      {
        chain: "ethereum",
        address: created.body.depositAddresses.ethereum.address,
        amount,
        txHash: `0x${randomBytes(32).toString("hex")}`,
      },
      true,
    );
    expect(funded.status).toBe(201);
    expect((await sandbox.api(token, "POST", "/_sandbox/clock/advance", { seconds: 2 }, true)).status).toBe(
      200,
    );
  }
  return created.body as Wallet;
}

async function newPage(): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    // Chromium reports every 4xx answer as a failed resource; refusals are part of the scenarios.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      pageErrors.push(`console: ${message.text()}`);
  });
  openPages.push(page);
  return page;
}

/** A page signed in to organization A, with the admin token unless `admin` is false. */
async function signedInPage(admin = true): Promise<Page> {
  const page = await newPage();
  await signIn(page, sandbox.consoleUrl, TOKEN_A, admin ? ADMIN_TOKEN : undefined);
  return page;
}

/** Makes and registers an approver key from the Approvals page; answers its public key. */
async function newApproverKey(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Create and register an approver key" }).click();
  await page.getByText("Registered console approver").waitFor();
  return (await page.locator("[data-current-approver]").getAttribute("data-current-approver"))!;
}

/** Organization A's withdrawal of `amount` in usdc on ethereum, as the API answers it. */
const withdrawFromA = (walletId: string, amount: number) =>
  apiA("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
    requestId: randomUUID(),
    withdrawalAmount: amount,
    destinationToken: "usdc",
    destinationChain: "ethereum",
    destinationAddress: PAYOUT_ADDRESS,
  });

/** Goes to a console path in the browser's address bar (a full page load). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${sandbox.consoleUrl}${path.replace(/^\//, "")}`);
}

/** Forgets the approver keys this browser keeps (IndexedDB of the sandbox's origin). */
async function forgetApproverKeys(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const deleting = indexedDB.deleteDatabase("portfolio-wallet-console");
        deleting.onsuccess = () => resolve();
        deleting.onerror = () => reject(deleting.error);
      }),
  );
}

beforeAll(async () => {
  // Installs Chromium when missing (apt-get): this can take minutes on a fresh machine.
  const executable = await ensureChromium();
  sandbox = await startCliSandbox({
    tokens: { [TOKEN_A]: "org-a", [TOKEN_B]: "org-b", [TOKEN_C]: "org-c" },
    adminToken: ADMIN_TOKEN,
    flags: ["--org-admin-tokens", `${ORG_C_ADMIN_TOKEN}=org-c`],
  });
  ({ context, close: closeBrowser } = await launchBrowser(executable));
  context.on("request", (request) => requestedUrls.push(request.url()));
}, 20 * 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await sandbox?.close();
});

describe("sandbox console in Chromium", () => {
  test(
    "signing in with organization A's token shows its wallets only; B's wallet id in the URL is a not-found page",
    async () => {
      const mine = await walletOf(TOKEN_A, "Operating reserve", 1000);
      const theirs = await walletOf(TOKEN_B, "Other organization's wallet", 500);
      const page = await signedInPage();
      await eventually(() => page.url()).toBe(`${sandbox.consoleUrl}wallets`);
      await page.locator(`tr[data-wallet-id="${mine.id}"]`).waitFor();
      expect(await page.locator("[data-organization]").textContent()).toBe("org-a");
      const listed = await page
        .locator("tr[data-wallet-id]")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-wallet-id")));
      expect(listed).toContain(mine.id);
      expect(listed).not.toContain(theirs.id);
      await screenshot(page, "wallets");

      await open(page, `/wallets/${theirs.id}`);
      await page.locator("[data-not-found]").waitFor();
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Wallet not found");
      expect(await page.locator("main").textContent()).not.toContain("Other organization's wallet");
      await screenshot(page, "wallet-not-found");
      for (const path of [`/wallets/${mine.id}/nothing-here`, "/wallets/not-a-wallet-id", "/nowhere"]) {
        await open(page, path);
        await page.locator("[data-not-found]").waitFor();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a wallet's allocation chart matches the API's weights, with its liquidity profile and deposit addresses",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Allocation check", 2500);
      // Drift: an instant withdrawal takes from the instantly withdrawable source only.
      const withdrawn = await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        requestId: randomUUID(),
        withdrawalAmount: 300,
        destinationToken: "usdc",
        destinationChain: "ethereum",
        destinationAddress: PAYOUT_ADDRESS,
      });
      expect(withdrawn.status).toBe(201);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}`);
      await page.locator(".allocation-table tr[data-position-key]").first().waitFor();
      const { body: fromApi } = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`);
      // Weights that are not round numbers, so the chart's figures are checked for real.
      expect(fromApi.positions.every((p: { driftBps: number }) => Math.abs(p.driftBps) > 100)).toBe(true);
      await eventually(async () =>
        page.locator(".allocation-table tr[data-position-key]").evaluateAll((rows) =>
          rows.map((row) => ({
            positionKey: row.getAttribute("data-position-key"),
            targetWeightBps: Number(row.getAttribute("data-target-bps")),
            weightBps: Number(row.getAttribute("data-weight-bps")),
            driftBps: Number(row.getAttribute("data-drift-bps")),
            shown: Array.from(row.children, (cell) => cell.textContent),
          })),
        ),
      ).toEqual(
        fromApi.positions.map(
          (p: { positionKey: string; targetWeightBps: number; weightBps: number; driftBps: number }) => ({
            positionKey: p.positionKey,
            targetWeightBps: p.targetWeightBps,
            weightBps: p.weightBps,
            driftBps: p.driftBps,
            shown: [
              p.positionKey,
              `${(p.targetWeightBps / 100).toFixed(2)}%`,
              `${(p.weightBps / 100).toFixed(2)}%`,
              expect.stringMatching(/pp$/),
              expect.stringMatching(/^\$/),
            ],
          }),
        ),
      );
      // The chart's text equivalent names every source's target and actual weight.
      const label = (await page.locator(".bullet-chart").getAttribute("aria-label")) ?? "";
      for (const p of fromApi.positions as { positionKey: string; weightBps: number }[])
        expect(label).toContain(`${p.positionKey}: target`);
      // Each chain's deposit address, with a copy button.
      for (const [chain, entry] of Object.entries(
        fromApi.depositAddresses as Record<string, { address: string }>,
      )) {
        const row = page.locator(`tr[data-chain="${chain}"]`);
        expect(await row.locator("code").textContent()).toBe(entry.address);
        await row.getByRole("button", { name: `Copy the ${chain} deposit address` }).waitFor();
      }
      expect(await page.locator(".bar-chart").getAttribute("aria-label")).toMatch(/withdrawable/);
      await page.locator("[data-yield=generated]").waitFor();
      // The yield counts from this wallet's creation, not from the organization's first wallet.
      expect(await page.locator("[data-yield-since] time").getAttribute("datetime")).toBe(wallet.createdAt);
      await screenshot(page, "wallet-overview");
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a withdrawal's payout legs progress on its timeline as the clock is advanced",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Two-leg payout", 1000);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/withdrawals`);
      await page.getByLabel("Amount (USD)").fill("700");
      await page.getByLabel("Destination address").fill(PAYOUT_ADDRESS);
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Withdraw" }).click();
      // The answer's status in words, not its code (partially_completed).
      await page.getByText("Withdrawal requested: partly paid out.").waitFor();

      const withdrawal = page.locator("article[data-withdrawal-id]").first();
      const legStatus = (legKey: string) =>
        withdrawal.locator(`[data-leg-key="${legKey}"]`).getAttribute("data-leg-status");
      await eventually(() => legStatus("instant")).toBe("completed");
      expect(await legStatus("redeem")).toBe("processing");
      expect(await withdrawal.locator(`[data-leg-key="redeem"]`).textContent()).toMatch(
        /due .*\(in\s(?:24\sh|23\sh\s59\smin)\)/,
      );
      await screenshot(page, "wallet-withdrawals");

      const controls = await signedInPage();
      await open(controls, "/controls");
      // The controls say which kind of admin token the tab holds (GET /_sandbox/admin-scope).
      await controls.getByText("the sandbox's own admin token, which acts on every organization").waitFor();
      await controls.getByRole("button", { name: "+ 24 hours" }).click();
      await controls.getByText("The sandbox clock is now").waitFor();

      await eventually(() => legStatus("redeem")).toBe("completed");
      await withdrawal.locator('[data-outcome="completed"]').waitFor();
      const { body } = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}/withdrawals`);
      expect(body.data[0].status).toBe("completed");
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a failed payout leg shows on the timeline with its failure reason",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Failing payout", 1000);
      const armed = await apiA(
        "POST",
        "/_sandbox/faults/withdrawal-leg",
        { walletId: wallet.id, legKey: "redeem", reason: "bridge outage" },
        true,
      );
      expect(armed.status).toBe(201);
      expect(
        (
          await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
            requestId: randomUUID(),
            withdrawalAmount: 700,
            destinationToken: "usdc",
            destinationChain: "ethereum",
            destinationAddress: PAYOUT_ADDRESS,
          })
        ).status,
      ).toBe(201);
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 86400 }, true)).status).toBe(200);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/withdrawals`);
      const withdrawal = page.locator("article[data-withdrawal-id]").first();
      await eventually(() =>
        withdrawal.locator('[data-leg-key="redeem"]').getAttribute("data-leg-status"),
      ).toBe("failed");
      expect(await withdrawal.locator(".failure-reason").textContent()).toContain(
        "payout leg redeem failed: bridge outage",
      );
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a webhook registration is disabled from the console",
    async () => {
      const created = await apiA("POST", "/webhooks/registrations", {
        url: "http://127.0.0.1:9/console-test-hook",
        eventTypes: ["portfolio_wallet.balance.updated"],
        description: "console test receiver",
      });
      expect(created.status).toBe(201);
      await walletOf(TOKEN_A, "Webhook traffic", 10);
      const page = await signedInPage();
      await open(page, "/webhooks");
      const row = page.locator(`tr[data-registration-id="${created.body.id}"]`);
      await row.waitFor();
      // A delivery to nowhere: attempted, failing, with a next retry.
      await page.locator("table", { hasText: "portfolio_wallet.balance.updated" }).last().waitFor();
      await screenshot(page, "webhooks");
      await row.getByRole("button", { name: "Disable http://127.0.0.1:9/console-test-hook" }).click();
      // A confirmation first, asking for the reason the API keeps.
      const dialog = page.getByRole("dialog", { name: "Disable this webhook?" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await apiA("GET", `/webhooks/registrations/${created.body.id}`)).body.status).toBe("active");
      await row.getByRole("button", { name: "Disable http://127.0.0.1:9/console-test-hook" }).click();
      await dialog.getByLabel("Reason").fill("receiver moved to the new cluster");
      await dialog.getByRole("button", { name: "Disable" }).click();
      await eventually(() => row.getAttribute("data-status")).toBe("disabled");
      expect(await page.getByRole("group", { name: "Registration change result" }).textContent()).toContain(
        `PATCH /webhooks/registrations/${created.body.id}/status`,
      );
      const { body } = await apiA("GET", `/webhooks/registrations/${created.body.id}`);
      expect(body.status).toBe("disabled");
      expect(body.disabledReason).toBe("receiver moved to the new cluster");
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a wrong token and an admin action without the admin token are refused, saying so",
    async () => {
      const page = await newPage();
      await submitSignIn(page, sandbox.consoleUrl, "not-a-token-of-this-sandbox");
      const error = page.locator("#sign-in-error");
      await eventually(() => error.textContent()).toContain(
        "Refused (401 unauthorized): the API token is not valid for this sandbox",
      );
      expect(page.url()).toContain("/sign-in");
      // Said at the token's field, naming the token a sandbox without SANDBOX_TOKENS accepts.
      expect(await error.textContent()).toContain("or sandbox-token when it runs without that setting");
      expect(await page.locator("#api-token-hint").textContent()).toContain("accepts sandbox-token");
      expect(await page.locator("#api-token").getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#api-token").getAttribute("aria-describedby")).toContain("sign-in-error");
      await screenshot(page, "sign-in-refused");

      await submitSignIn(page, sandbox.consoleUrl, TOKEN_A, "not-the-admin-token");
      await eventually(() => error.textContent()).toContain("accepted the API token but not the admin token");
      expect(await page.locator("#admin-token").getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#api-token").getAttribute("aria-invalid")).toBeNull();

      // The sandbox restarted with another admin token: the one this tab kept is refused. The
      // controls page checks it as it opens, forgets it and says what to do, rather than a bare 403 per action.
      const stale = await signedInPage();
      await stale.evaluate(() => {
        const key = "portfolio-wallet-console.session";
        const kept = JSON.parse(sessionStorage.getItem(key) ?? "{}");
        sessionStorage.setItem(
          key,
          JSON.stringify({ ...kept, adminToken: "an-admin-token-of-an-earlier-run" }),
        );
      });
      await open(stale, "/controls");
      const refused = stale.locator("[data-admin-token-refused]");
      await refused.waitFor();
      expect(await refused.textContent()).toContain("Paste the admin token it printed at start");
      // Forgotten: the field asks for a token again rather than offering to replace one.
      expect(await stale.locator('label[for="controls-admin-token"]').textContent()).toBe("Admin token");

      const wallet = await walletOf(TOKEN_A, "Admin refusal", 0);
      const withoutAdmin = await signedInPage(false);
      await open(withoutAdmin, `/controls?wallet=${wallet.id}`);
      const form = withoutAdmin.locator("form", {
        has: withoutAdmin.getByRole("button", { name: "Simulate deposit" }),
      });
      await form.getByRole("button", { name: "Simulate deposit" }).click();
      const refusal = form.getByRole("alert");
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain(
        "Refused (403 forbidden): admin calls need the sandbox's admin token",
      );
      expect(await form.locator(".request-log").textContent()).toContain("403 Forbidden");
      expect((await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`)).body.totalBalanceUsd).toBe(0);
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: layout, messages, confirmations and status cues", () => {
  test(
    "the banner saying the sandbox did not answer sits above the page at 1280 and 420 px, and goes when it answers",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Banner layout", 1000);
      const page = await signedInPage();
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, `/wallets/${wallet.id}`);
        await page.locator('[data-stat="totalBalanceUsd"]').waitFor();
        const mainBefore = await boxOf(page, "main");
        await page.route(/\/_console\/api\/session/, (route) => route.abort());
        const banner = page.locator(".live-banner");
        await banner.waitFor({ state: "visible", timeout: 15_000 });
        expect(await banner.textContent()).toContain("The sandbox did not answer");
        const bannerBox = await boxOf(page, ".live-banner");
        const mainAfter = await boxOf(page, "main");
        // The page keeps its column and width; the banner is a line above it, not a tall box.
        expect(mainAfter.left).toBe(mainBefore.left);
        expect(mainAfter.width).toBe(mainBefore.width);
        expect(bannerBox.left).toBeGreaterThanOrEqual(mainAfter.left);
        expect(bannerBox.left + bannerBox.width).toBeLessThanOrEqual(mainAfter.left + mainAfter.width + 1);
        expect(bannerBox.top + bannerBox.height).toBeLessThanOrEqual(mainAfter.top + 1);
        expect(bannerBox.height).toBeLessThan(width === 420 ? 120 : 70);
        const stats = await page.locator(".stats > div").evaluateAll((cells) =>
          cells.map((cell) => {
            const { left, top, width: w, height } = cell.getBoundingClientRect();
            return { left, top, width: w, height };
          }),
        );
        expect(stats.length).toBe(5);
        for (const [index, cell] of stats.entries())
          for (const other of stats.slice(index + 1)) expect(overlap(cell, other)).toBe(false);
        await screenshot(page, `banner-${width}`);
        await page.unroute(/\/_console\/api\/session/);
        await banner.waitFor({ state: "hidden", timeout: 20_000 });
      }
      await page.setViewportSize({ width: 1280, height: 860 });
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "at 420 px the header is compact, the navigation folds under a menu, and deposit addresses show whole with their Copy buttons",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Narrow wallet", 1000);
      const page = await signedInPage();
      await page.setViewportSize({ width: 420, height: 900 });
      await open(page, `/wallets/${wallet.id}`);
      await page.locator('tr[data-chain="ethereum"]').waitFor();
      const header = await boxOf(page, ".topbar");
      expect(header.height).toBeLessThanOrEqual(110);
      // The page starts right under the header: no navigation, no blank band.
      expect((await boxOf(page, "main")).top).toBeLessThanOrEqual(header.height + 2);
      const menu = page.getByRole("button", { name: "Menu" });
      expect(await menu.getAttribute("aria-expanded")).toBe("false");
      expect(await page.locator("#console-nav").isVisible()).toBe(false);
      await menu.click();
      expect(await menu.getAttribute("aria-expanded")).toBe("true");
      await page.locator("#console-nav").getByRole("link", { name: "Webhooks" }).click();
      await eventually(() => page.url()).toBe(`${sandbox.consoleUrl}webhooks`);
      expect(await page.locator("#console-nav").isVisible()).toBe(false);

      await open(page, `/wallets/${wallet.id}`);
      for (const [chain, entry] of Object.entries(wallet.depositAddresses)) {
        const row = page.locator(`tr[data-chain="${chain}"]`);
        const address = await row.locator("code").boundingBox();
        // At most two lines of a monospace address, whole, inside the window.
        expect(address!.height).toBeLessThan(50);
        expect(await row.locator("code").textContent()).toBe(entry.address);
        const copy = row.getByRole("button", { name: `Copy the ${chain} deposit address` });
        expect(await copy.isVisible()).toBe(true);
        const box = await copy.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(420);
      }
      expect(await offscreenActions(page)).toEqual([]);
      await screenshot(page, "wallet-narrow");
      // The header's clock menu opens inside the window too.
      await page.getByText("Advance time").click();
      await page.getByRole("button", { name: "+ 7 days" }).waitFor();
      expect(await offscreenActions(page)).toEqual([]);
      await page.getByText("Advance time").click();
      await page.setViewportSize({ width: 1280, height: 860 });
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a refused field is marked at the control, said once, and cleared when it is fixed",
    async () => {
      const page = await signedInPage();
      await open(page, "/wallets/new");
      const form = page.locator("#new-wallet-form");
      const weights = form.locator("input.weight-input");
      await weights.first().waitFor();
      const count = await weights.count();
      for (let index = 0; index < count; index += 1)
        await weights.nth(index).fill(index === 0 ? "9000" : "0");
      await form.getByRole("button", { name: "Create wallet" }).click();
      const alert = form.getByRole("alert");
      await alert.waitFor();
      const said = (await alert.textContent()) ?? "";
      expect(said).toContain("sum to 9000");
      expect(said.split("sum to 9000").length - 1).toBe(1);
      const fieldError = form.locator(".field-error");
      expect(await fieldError.textContent()).toContain("target weights sum to 9000 bps");
      const errorId = await fieldError.getAttribute("id");
      for (let index = 0; index < count; index += 1) {
        expect(await weights.nth(index).getAttribute("aria-invalid")).toBe("true");
        expect(await weights.nth(index).getAttribute("aria-describedby")).toContain(errorId);
      }
      // Fixed: the total turns 10000 and every message about 9000 goes.
      await weights.nth(1).fill("1000");
      await eventually(() => form.locator(".weight-total").textContent()).toContain("Total 10000 of 10000");
      expect(await form.locator(".field-error").count()).toBe(0);
      expect(await form.locator("[aria-invalid]").count()).toBe(0);
      expect(await form.getByRole("alert").count()).toBe(0);

      // A withdrawal: an address that is not one on the chain, then an amount past what the wallet
      // holds; each refused at its field before the confirmation, and nothing sent.
      const wallet = await walletOf(TOKEN_A, "Refused fields", 1000);
      await open(page, `/wallets/${wallet.id}/withdrawals`);
      const withdrawCalls: string[] = [];
      page.on("request", (sent) => {
        if (sent.method() === "POST" && sent.url().endsWith("/withdraw")) withdrawCalls.push(sent.url());
      });
      const withdraw = page.locator("#withdraw-form");
      await withdraw.getByLabel("Amount (USD)").fill("10");
      await withdraw.getByLabel("Destination address").fill("0x12");
      await withdraw.getByRole("button", { name: "Request withdrawal" }).click();
      const refusal = withdraw.getByRole("alert");
      await refusal.waitFor();
      expect(await page.getByRole("dialog").count()).toBe(0);
      const text = (await refusal.textContent()) ?? "";
      expect(text).toContain("Destination address");
      expect(text.split("0x followed by 40 hex digits").length - 1).toBe(1);
      const address = withdraw.getByLabel("Destination address");
      expect(await address.getAttribute("aria-invalid")).toBe("true");
      expect(await address.getAttribute("aria-describedby")).toMatch(
        /withdraw-form-destinationAddress-error/,
      );
      expect(await withdraw.locator("#withdraw-form-destinationAddress-error").textContent()).toContain(
        "must be an ethereum address",
      );
      expect(await withdraw.getByLabel("Amount (USD)").getAttribute("aria-invalid")).toBeNull();
      // Another chain: the address was refused for ethereum, so that refusal no longer stands.
      await withdraw.getByLabel("Chain").selectOption("solana");
      expect(await address.getAttribute("aria-invalid")).toBeNull();
      expect(await withdraw.locator(".field-error").count()).toBe(0);
      await withdraw.getByLabel("Chain").selectOption("ethereum");
      await address.fill(PAYOUT_ADDRESS);
      expect(await address.getAttribute("aria-invalid")).toBeNull();
      expect(await withdraw.getByRole("alert").count()).toBe(0);

      await withdraw.getByLabel("Amount (USD)").fill("15000");
      await withdraw.getByRole("button", { name: "Request withdrawal" }).click();
      await withdraw.getByRole("alert").waitFor();
      expect(await page.getByRole("dialog").count()).toBe(0);
      // Money as money: "$15,000.00", never "15000 USD"; the field named.
      const insufficient = (await withdraw.getByRole("alert").textContent()) ?? "";
      expect(insufficient).toContain("Amount (USD)");
      expect(insufficient).toContain("$15,000.00");
      expect(insufficient).not.toMatch(/\d USD/);
      expect(await withdraw.getByLabel("Amount (USD)").getAttribute("aria-invalid")).toBe("true");
      expect(await withdraw.locator(".field-error").textContent()).toContain("$1,000.00");
      expect(withdrawCalls).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "rejecting asks first; the 'create a key first' message goes once there is a key; a rejected withdrawal's legs read skipped",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Rejected withdrawal", 1000);
      expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 1 }, true)).status).toBe(200);
      try {
        const requested = await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
          requestId: randomUUID(),
          withdrawalAmount: 100,
          destinationToken: "usdc",
          destinationChain: "ethereum",
          destinationAddress: PAYOUT_ADDRESS,
        });
        expect(requested.body.status).toBe("pending_approval");
        const page = await signedInPage();
        // No key yet: this browser keeps the keys of earlier scenarios (IndexedDB).
        await forgetApproverKeys(page);
        await open(page, "/approvals");
        const item = page.locator("article.approval", { hasText: "Rejected withdrawal" });
        await item.waitFor();
        await item.getByRole("button", { name: /^Approve/ }).click();
        const first = page.getByText("Create an approver key first");
        await first.waitFor();
        await page.getByRole("button", { name: "Create and register an approver key" }).click();
        await page.getByText("Registered console approver").waitFor();
        expect(await first.count()).toBe(0);

        await item.getByRole("button", { name: /^Reject/ }).click();
        const dialog = page.getByRole("dialog");
        expect(await dialog.textContent()).toContain("cannot be approved again");
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await dialog.waitFor({ state: "detached" });
        const pending = await apiA(
          "GET",
          `/v2/portfolio-wallets/${wallet.id}/withdrawals/${requested.body.id}`,
        );
        expect(pending.body.status).toBe("pending_approval");
        await item.getByRole("button", { name: /^Reject/ }).click();
        await dialog.getByRole("button", { name: "Reject" }).click();
        await page.getByText("rejected: it fails with an approval-rejected reason").waitFor();

        await open(page, `/wallets/${wallet.id}/withdrawals`);
        const withdrawal = page.locator(`article[data-withdrawal-id="${requested.body.id}"]`);
        await withdrawal.locator('[data-outcome="failed"]').waitFor();
        const legs = withdrawal.locator("[data-leg-key]");
        expect(await legs.count()).toBeGreaterThan(0);
        for (const leg of await legs.all()) {
          expect(await leg.getAttribute("data-leg-state")).toBe("skipped");
          expect(await leg.locator(".step-mark").textContent()).not.toBe("✓");
          expect(await leg.locator(".pill").getAttribute("class")).not.toContain("pill-good");
          expect(await leg.textContent()).toContain("(skipped)");
        }
      } finally {
        expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 0 }, true)).status).toBe(200);
      }
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a withdrawal asks first; in a failed one the leg that failed reads failed and the leg returned with it reads returned",
    async () => {
      // Two sources that both pay out after a wait: a 900 withdrawal takes a leg from each.
      const created = await apiA("POST", "/v2/portfolio-wallets", {
        requestId: randomUUID(),
        label: "Returned leg",
        positions: [
          { positionKey: "tbills", targetWeightBps: 5000 },
          { positionKey: "resolvRlp", targetWeightBps: 5000 },
        ],
      });
      expect(created.status).toBe(201);
      const wallet = created.body as Wallet;
      const funded = await apiA(
        "POST",
        "/_sandbox/deposits",
        {
          chain: "ethereum",
          address: wallet.depositAddresses.ethereum!.address,
          amount: 1000,
          txHash: `0x${randomBytes(32).toString("hex")}`,
        },
        true,
      );
      expect(funded.status).toBe(201);
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 2 }, true)).status).toBe(200);
      expect(
        (
          await apiA(
            "POST",
            "/_sandbox/faults/withdrawal-leg",
            { walletId: wallet.id, legKey: "redeem", reason: "bridge outage" },
            true,
          )
        ).status,
      ).toBe(201);

      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/withdrawals`);
      await page.getByLabel("Amount (USD)").fill("900");
      await page.getByLabel("Destination address").fill(PAYOUT_ADDRESS);
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      const dialog = page.getByRole("dialog", { name: "Request this withdrawal?" });
      expect(await dialog.textContent()).toContain("$900.00");
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await apiA("GET", `/v2/portfolio-wallets/${wallet.id}/withdrawals`)).body.data).toEqual([]);
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      await dialog.getByRole("button", { name: "Withdraw" }).click();
      await page.getByText("Withdrawal requested").waitFor();
      // Made: the amount and address are cleared, so a second click cannot pay the same again unawares.
      expect(await page.getByLabel("Amount (USD)").inputValue()).toBe("");
      expect(await page.getByLabel("Destination address", { exact: true }).inputValue()).toBe("");
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 86400 }, true)).status).toBe(200);

      const withdrawal = page.locator("article[data-withdrawal-id]").first();
      await withdrawal.locator('[data-outcome="failed"]').waitFor({ timeout: 15_000 });
      const states = await withdrawal
        .locator("[data-leg-key]")
        .evaluateAll((legs) =>
          legs.map((leg) => [leg.getAttribute("data-leg-key"), leg.getAttribute("data-leg-state")]),
        );
      expect(states).toEqual([
        ["redeem_PT24H", "bad"],
        ["redeem_PT168H", "returned"],
      ]);
      const returned = withdrawal.locator('[data-leg-key="redeem_PT168H"]');
      expect(await returned.textContent()).toContain("returned to the wallet");
      expect(await returned.locator(".step-mark").textContent()).not.toBe("✕");
      const reason = (await withdrawal.locator(".failure-reason").textContent()) ?? "";
      expect(reason).toContain(
        "payout leg redeem_PT24H failed: bridge outage; $900.00 returned to the wallet",
      );
      expect(reason).not.toMatch(/\d USD/);
      await screenshot(page, "withdrawal-returned-leg");

      // The request as the Events page keeps it: its time on the wall clock, said so, and the token
      // symbol paid out shown (a symbol, not a secret).
      await open(page, "/events");
      const requestsHead = page.locator('section[aria-labelledby="requests-heading"] thead th');
      await requestsHead.first().waitFor();
      expect(await requestsHead.allTextContents()).toContain("Time (wall clock)");
      await page
        .getByRole("button", {
          name: new RegExp(`^Bodies of POST /v2/portfolio-wallets/${wallet.id}/withdraw`),
        })
        .click();
      const sent = (await page.locator(".request-bodies pre").first().textContent()) ?? "";
      expect(sent).toContain('"destinationToken": "usdc"');
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "times read in the browser's time zone, the zone named, with the same moment in UTC on hover",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Time zone wallet", 100);
      const page = await newPage();
      // A zone half an hour off UTC, with no summer time: no wall clock there reads as UTC's.
      const devtools = await page.context().newCDPSession(page);
      await devtools.send("Emulation.setTimezoneOverride", { timezoneId: "Asia/Kolkata" });
      await signIn(page, sandbox.consoleUrl, TOKEN_A, ADMIN_TOKEN);
      await open(page, `/wallets/${wallet.id}`);
      const created = page.locator(`main time[datetime="${wallet.createdAt}"]`).first();
      await created.waitFor();
      const clockIn = (timeZone: string, iso: string) =>
        new Intl.DateTimeFormat("en-GB", {
          hour: "2-digit",
          minute: "2-digit",
          second: "2-digit",
          hourCycle: "h23",
          timeZone,
        }).format(new Date(iso));
      const text = async (value: Promise<string | null>) => ((await value) ?? "").replaceAll("\u00a0", " ");
      const shown = await text(created.textContent());
      expect(shown).toContain(clockIn("Asia/Kolkata", wallet.createdAt));
      expect(shown).toMatch(/ (?:IST|GMT\+5:30)$/);
      const onHover = await text(created.getAttribute("title"));
      expect(onHover).toContain(clockIn("UTC", wallet.createdAt));
      expect(onHover).toMatch(/ UTC$/);
      // The header's sandbox time too.
      const header = page.locator("[data-sandbox-now]");
      await header.locator("[title]").waitFor();
      // Read at once: the header moves with the clock.
      const [now, headerShown, headerOnHover] = await header.evaluate((element) => {
        const value = element.querySelector("[title]");
        return [
          element.getAttribute("data-sandbox-now") ?? "",
          value?.textContent ?? "",
          value?.getAttribute("title") ?? "",
        ];
      });
      expect(headerShown.replaceAll("\u00a0", " ")).toContain(clockIn("Asia/Kolkata", now));
      expect(headerOnHover.replaceAll("\u00a0", " ")).toContain(`${clockIn("UTC", now)} UTC`);
      await devtools.detach();
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a wallet at its targets has no largest drift to name",
    async () => {
      const wallet = await walletOf(TOKEN_A, "On target", 1000);
      const { body } = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(body.positions.every((p: { driftBps: number }) => Math.abs(p.driftBps) < 0.5)).toBe(true);
      const page = await signedInPage();
      await open(page, "/wallets");
      const cell = page.locator(`tr[data-wallet-id="${wallet.id}"] [data-drift]`);
      await cell.waitFor();
      expect(await cell.textContent()).toBe("none: on target");
      await open(page, `/wallets/${wallet.id}`);
      const stat = page.locator(".stats [data-drift]");
      await stat.waitFor();
      expect(await stat.textContent()).toBe("none: on target");
      expect(await page.locator(".stats").textContent()).not.toContain("tbills");
    },
    SCENARIO_TIMEOUT_MS,
  );
  test(
    "the wallets page totals the organization's balances and yield, as the API gives them",
    async () => {
      await walletOf(TOKEN_A, "Totals check", 1234.5);
      const page = await signedInPage();
      await open(page, "/wallets");
      const balance = page.locator('[data-total="totalBalanceUsd"]');
      const generated = page.locator('[data-total="generated"]');
      const { body: list } = await apiA("GET", "/v2/portfolio-wallets?pageSize=100");
      expect(list.nextCursor).toBeNull();
      const expected =
        Math.round(
          (list.data as { totalBalanceUsd: number }[]).reduce(
            (acc, wallet) => acc + wallet.totalBalanceUsd,
            0,
          ) * 1e6,
        ) / 1e6;
      // Balances move with accrual: within a cent of the API's sum read just before.
      await eventually(async () =>
        Math.abs(Number(await balance.getAttribute("data-value")) - expected),
      ).toBeLessThan(0.01);
      const { body: metrics } = await apiA("POST", "/v2/portfolio-wallets/yield", {});
      await eventually(async () =>
        Math.abs(Number(await generated.getAttribute("data-value")) - metrics.global.generated),
      ).toBeLessThan(0.01);
      expect(await balance.textContent()).toMatch(/^\$[\d,]+\.\d{2}$/);
    },
    SCENARIO_TIMEOUT_MS,
  );
  test(
    "a wallet's balance, yield and weights over time: charts with a table whose figures are the API's, readable at 420 px",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Over time", 1000);
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 86400 }, true)).status).toBe(200);
      expect(
        (
          await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
            requestId: randomUUID(),
            withdrawalAmount: 300,
            destinationToken: "usdc",
            destinationChain: "ethereum",
            destinationAddress: PAYOUT_ADDRESS,
          })
        ).status,
      ).toBe(201);
      const { body: history } = await apiA("GET", `/_console/api/wallets/${wallet.id}/history`);
      const points = history.points as { at: string; balanceUsd: number; yieldGeneratedUsd: number }[];
      expect(points.length).toBeGreaterThanOrEqual(3);
      const page = await signedInPage();
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, `/wallets/${wallet.id}`);
        const rows = page.locator(".history-table tr[data-at]:not([data-live])");
        await rows.first().waitFor();
        const shown = await rows.evaluateAll((all) =>
          all.map((row) => ({
            at: row.getAttribute("data-at"),
            balanceUsd: Number(row.getAttribute("data-balance")),
            yieldGeneratedUsd: Number(row.getAttribute("data-yield")),
            text: row.textContent ?? "",
          })),
        );
        const expected = points.slice(-shown.length).reverse();
        expect(
          shown.map(({ at, balanceUsd, yieldGeneratedUsd }) => ({ at, balanceUsd, yieldGeneratedUsd })),
        ).toEqual(
          expected.map(({ at, balanceUsd, yieldGeneratedUsd }) => ({ at, balanceUsd, yieldGeneratedUsd })),
        );
        // The figures as money, and each source's weight with its drift.
        expect(shown[0]!.text).toContain("$");
        expect(shown[0]!.text).toMatch(/tbills|%/);
        // The live row: the wallet as read now.
        const live = page.locator('.history-table tr[data-live="true"]');
        const { body: now } = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`);
        expect(Math.abs(Number(await live.getAttribute("data-balance")) - now.totalBalanceUsd)).toBeLessThan(
          0.01,
        );
        // Each chart is an image with its figures in words.
        const labels = await page
          .locator(".time-chart-body")
          .evaluateAll((charts) => charts.map((chart) => chart.getAttribute("aria-label") ?? ""));
        expect(labels).toHaveLength(3);
        expect(labels[0]).toContain("Balance from $1,000.00");
        expect(labels[2]).toContain("tbills (target 60.00%)");
        // Readable at 420 px: the plots fit the window.
        for (const box of await page
          .locator(".time-chart-plot")
          .evaluateAll((plots) => plots.map((plot) => plot.getBoundingClientRect().right)))
          expect(box).toBeLessThanOrEqual(width);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        await screenshot(page, `wallet-over-time-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 860 });
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: controls where they are used", () => {
  test(
    "a deposit's legs show the money routed to each position, as the console API gives it; a skipped leg shows $0.00",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Deposit legs", 100);
      for (const amount of [33.333333, 0.000001]) {
        const made = await apiA(
          "POST",
          "/_sandbox/deposits",
          {
            chain: "ethereum",
            address: wallet.depositAddresses.ethereum!.address,
            amount,
            txHash: `0x${randomBytes(32).toString("hex")}`,
          },
          true,
        );
        expect(made.status).toBe(201);
      }
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 2 }, true)).status).toBe(200);
      const fromApi = (await apiA("GET", `/_console/api/wallets/${wallet.id}/deposits`)).body.data as {
        id: string;
        amountUsd: number;
        legs: { legKey: string; status: string; amount: number }[];
      }[];
      expect(fromApi).toHaveLength(3);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/deposits`);
      const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
      for (const deposit of fromApi) {
        const row = page.locator(`tr[data-deposit-id="${deposit.id}"]`);
        await row.waitFor();
        const micros = deposit.legs.reduce((sum, leg) => sum + Math.round(leg.amount * 1e6), 0);
        expect(micros, deposit.id).toBe(Math.round(deposit.amountUsd * 1e6));
        for (const leg of deposit.legs) {
          const item = row.locator(`li[data-leg="${leg.legKey}"]`);
          const shownAmount = item.locator("[data-leg-amount]");
          expect(Number(await shownAmount.getAttribute("data-leg-amount"))).toBe(leg.amount);
          const text = (await shownAmount.textContent()) ?? "";
          // Money: dollars and cents, or micro-units for an amount below a cent.
          expect(text).toMatch(/^\$\d[\d,]*\.\d{2,6}$/);
          if (leg.amount >= 0.005 || leg.amount === 0) expect(text).toBe(money.format(leg.amount));
          expect(await item.locator(".pill").getAttribute("data-status")).toBe(leg.status);
        }
      }
      // 1 micro-dollar split 60/40: one leg gets it, the other's share rounds to nothing.
      const tiny = fromApi.find((deposit) => deposit.amountUsd === 0.000001)!;
      const skipped = page.locator(`tr[data-deposit-id="${tiny.id}"] li[data-leg="syrupUsdc"]`);
      expect(await skipped.locator("[data-leg-amount]").textContent()).toBe("$0.00");
      expect(await skipped.locator(".pill").textContent()).toBe("skipped");
      await screenshot(page, "wallet-deposit-legs");
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "armed faults are listed with their fields, planned failures included, and each is disarmed from the page",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Armed faults", 100);
      const leg = await apiA(
        "POST",
        "/_sandbox/faults/withdrawal-leg",
        { walletId: wallet.id, legKey: "redeem", reason: "bridge outage" },
        true,
      );
      expect(leg.status).toBe(201);
      const http = await apiA(
        "POST",
        "/_sandbox/faults",
        {
          method: "GET",
          path: "/v2/portfolio-wallets/:id/deposits",
          kind: "status",
          status: 503,
          times: 2,
          after: 1,
        },
        true,
      );
      expect(http.status).toBe(201);
      const page = await signedInPage();
      const legItem = page.locator(`li[data-fault-id="${leg.body.id}"]`);
      // The page's read of the wallets answers only after the faults are first listed, as on a slow
      // connection: the list must be drawn again once it knows the wallet's name.
      await page.route(
        /\/v2\/portfolio-wallets\?/,
        async (route) => {
          await legItem.waitFor();
          await route.continue();
        },
        { times: 1 },
      );
      await open(page, "/controls");
      await legItem.waitFor();
      await legItem.getByText(`Armed faults (${wallet.id})`).waitFor();
      expect(await legItem.textContent()).toContain("The redeem leg of the next withdrawal fails");
      expect(await legItem.textContent()).toContain("bridge outage");
      // Its fields in the form's words, not the API's names.
      expect(await legItem.locator(".fault-fields dt").allTextContents()).toEqual(
        expect.arrayContaining(["Wallet", "Leg", "Reason"]),
      );
      expect(await legItem.locator(".fault-fields dt").allTextContents()).not.toContain("walletId");
      const httpItem = page.locator(`li[data-fault-id="${http.body.id}"]`);
      const shown = (await httpItem.textContent()) ?? "";
      expect(shown).toContain("GET /v2/portfolio-wallets/:id/deposits → status");
      // When it fires, in words: one matching request passes, then two are answered with the error.
      expect(await httpItem.locator(".fault-fires").textContent()).toBe(
        "Lets the next 1 matching request pass, then fires on 2 requests in a row, then disarms itself.",
      );
      expect(shown).not.toMatch(/passesLeft|remaining/);
      // Each kind has its own default reason: a strategy update's is not a payout's.
      const faultKind = page.getByLabel("Fault", { exact: true });
      const faultReason = page.locator("#fault-reason");
      expect(await faultReason.inputValue()).toBe("payout failed (injected from the console)");
      await faultKind.selectOption("strategy");
      expect(await faultReason.inputValue()).toBe("rebalance failed (injected from the console)");
      await screenshot(page, "controls-armed-faults");
      // Without the admin token the list says why it is empty, and lists the same faults again once
      // the token is given back.
      await page.getByRole("button", { name: "Forget the admin token" }).click();
      await page.getByText("Armed faults are listed once the sandbox accepts the admin token.").waitFor();
      await page.locator("#controls-admin-token").fill(ADMIN_TOKEN);
      await page.getByRole("button", { name: "Use this token" }).click();
      await legItem.waitFor();
      await legItem.getByRole("button", { name: /^Disarm/ }).click();
      await legItem.waitFor({ state: "detached" });
      const left = (await apiA("GET", "/_sandbox/faults", undefined, true)).body;
      expect(left.planned.map((fault: { id: string }) => fault.id)).not.toContain(leg.body.id);
      expect(left.faults.map((fault: { id: string }) => fault.id)).toContain(http.body.id);
      await page.getByRole("button", { name: "Clear all faults" }).click();
      await page.getByText("None armed.").waitFor();
      expect((await apiA("GET", "/_sandbox/faults", undefined, true)).body).toEqual({
        faults: [],
        planned: [],
      });
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: snapshots and copy as code", () => {
  test(
    "a snapshot saved, an organization exported, the snapshot restored (undoing the change, saying what it replaced), the export imported and both downloaded; the save's curl runs without the token in it",
    async () => {
      const page = await newPage();
      await signIn(page, sandbox.consoleUrl, TOKEN_C, ADMIN_TOKEN);
      await open(page, "/controls");
      const sandboxFiles = page.locator("#snapshot-files");
      const orgFiles = page.locator("#export-files");
      await sandboxFiles.getByLabel("File name").fill("before-c.snapshot");
      await sandboxFiles.getByRole("button", { name: "Save snapshot" }).click();
      await sandboxFiles.getByText("Saved the whole sandbox as before-c.snapshot").waitFor();
      await sandboxFiles.locator('tr[data-file="before-c.snapshot"]').waitFor();

      // Copy as code beside the request the save sent: curl with the tokens as shell variables.
      await sandboxFiles.locator(".copy-as-code summary").click();
      const curl = (await sandboxFiles.locator('pre[data-code="curl"]').textContent()) ?? "";
      expect(curl).toContain(`curl -X POST '${sandbox.url}/_sandbox/snapshot/save'`);
      expect(curl).toContain('-H "Authorization: Bearer $API_TOKEN"');
      expect(curl).toContain('-H "X-Sandbox-Admin-Token: $ADMIN_TOKEN"');
      expect(await sandboxFiles.locator('pre[data-code="typescript"]').textContent()).toContain("fetch(");
      expect((await page.content()) + curl).not.toMatch(new RegExp(SECRETS.join("|")));
      // Run with the variables set, it reaches the sandbox as the console did: the file exists now.
      const { stdout } = await promisify(execFile)("sh", ["-c", curl], {
        env: { PATH: process.env["PATH"], API_TOKEN: TOKEN_C, ADMIN_TOKEN },
      });
      expect(JSON.parse(stdout).error.details[0]).toMatchObject({
        field: "file",
        reason: expect.stringMatching(/a file is already there/),
      });
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 860 });
        expect(await seriousViolations(page), `${width} px`).toEqual([]);
        expect(await offscreenActions(page), `${width} px`).toEqual([]);
      }
      await page.setViewportSize({ width: 1280, height: 860 });

      // The change a restore undoes: a funded wallet, which the organization's export keeps.
      const wallet = await walletOf(TOKEN_C, "Made after the snapshot", 100);
      await orgFiles.getByLabel("File name").fill("org-c.export");
      await orgFiles.getByRole("button", { name: "Export organization" }).click();
      await orgFiles.getByText("Exported this organization as org-c.export: 1 wallet(s)").waitFor();

      await sandboxFiles.getByRole("button", { name: "Restore before-c.snapshot" }).click();
      const dialog = page.getByRole("dialog");
      expect(await dialog.textContent()).toContain(
        "replaces the state of every organization of this sandbox",
      );
      await dialog.getByRole("button", { name: "Restore" }).click();
      const restored = sandboxFiles.locator(".notice-good", { hasText: "Restored before-c.snapshot" });
      await restored.waitFor();
      const [, before, after] =
        /it replaced (\d+) wallets? in \d+ organizations? with the snapshot's (\d+) wallets?/.exec(
          (await restored.textContent()) ?? "",
        ) ?? [];
      expect(Number(before) - Number(after)).toBe(1);
      const c = (method: string, route: string) => sandbox.api(TOKEN_C, method, route, undefined, true);
      expect((await c("GET", `/v2/portfolio-wallets/${wallet.id}`)).status).toBe(404);

      // The export outlives the restore (files are not the sandbox's state): imported, the wallet is back.
      await orgFiles.getByRole("button", { name: "Import org-c.export" }).click();
      await orgFiles.getByText("Imported org-c.export into this organization: 1 wallet(s)").waitFor();
      const back = await c("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(back.status).toBe(200);
      expect(back.body.label).toBe("Made after the snapshot");

      // Downloads: the files' bytes, named as listed.
      for (const [section, file, route] of [
        [sandboxFiles, "before-c.snapshot", "/_sandbox/snapshots/before-c.snapshot"],
        [orgFiles, "org-c.export", "/_sandbox/organization/exports/org-c.export"],
      ] as const) {
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          section.getByRole("button", { name: `Download ${file}` }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(file);
        const bytes = readFileSync(await download.path());
        expect(bytes.subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
        expect(bytes).toEqual(Buffer.from((await c("GET", route)).body.contentBase64, "base64"));
      }
      await screenshot(page, "controls-snapshots");

      // With the organization's own admin token: its exports, and word that whole-sandbox files are not its.
      const scoped = await newPage();
      await signIn(scoped, sandbox.consoleUrl, TOKEN_C, ORG_C_ADMIN_TOKEN);
      await open(scoped, "/controls");
      await scoped.locator('#export-files tr[data-file="org-c.export"]').waitFor();
      expect(await scoped.locator("#snapshot-files").textContent()).toContain(
        "they need the sandbox's admin token; the admin token given is this organization's",
      );
      expect(await scoped.locator("#snapshot-files form").count()).toBe(0);
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: webhooks", () => {
  test(
    "a webhook registered from the console, its refused URL marked at the field; deliveries filtered, inspected and redelivered",
    async () => {
      const receiver = await startReceiver(() => 204);
      try {
        const page = await signedInPage();
        await open(page, "/webhooks");
        const form = page.locator("#webhook-form");
        await form.getByRole("checkbox", { name: "portfolio_wallet.deposit.status_changed" }).check();
        await form.getByLabel("URL").fill("ftp://example.com/hooks");
        await form.getByRole("button", { name: "Register webhook" }).click();
        await form.getByRole("alert").waitFor();
        const url = form.getByLabel("URL");
        expect(await url.getAttribute("aria-invalid")).toBe("true");
        expect(await form.locator("#webhook-form-url-error").textContent()).toContain(
          "must be an absolute http(s) URL",
        );
        expect(await url.getAttribute("aria-describedby")).toContain("webhook-form-url-error");

        await url.fill(receiver.url);
        expect(await url.getAttribute("aria-invalid")).toBeNull();
        await form.getByLabel(/^Description/).fill("console receiver");
        await form.getByRole("button", { name: "Register webhook" }).click();
        await page.locator("[data-secret-box]").waitFor();
        expect(await page.locator("#webhook-secret").textContent()).toMatch(/^whsec_/);
        const { body: registrations } = await apiA("GET", "/webhooks/registrations?pageSize=100");
        const created = registrations.data.find((r: { url: string }) => r.url === receiver.url);
        expect(created).toMatchObject({
          description: "console receiver",
          eventTypes: ["portfolio_wallet.balance.updated", "portfolio_wallet.deposit.status_changed"],
        });
        await page.locator(`tr[data-registration-id="${created.id}"]`).waitFor();

        await walletOf(TOKEN_A, "Webhook inspection", 10);
        await eventually(() => receiver.requests.length).toBeGreaterThanOrEqual(2);
        // Filtered to one event type and to what succeeded.
        await page.getByLabel("Event type").selectOption("portfolio_wallet.deposit.status_changed");
        await page.getByLabel("Status", { exact: true }).selectOption("succeeded");
        const rows = page.locator("tr[data-delivery-id]");
        await eventually(
          async () =>
            (await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-event-type")))).every(
              (type) => type === "portfolio_wallet.deposit.status_changed",
            ) && (await rows.count()) > 0,
        ).toBe(true);
        expect(
          await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-status"))),
        ).not.toContain("failed");

        const row = rows.first();
        const deliveryId = await row.getAttribute("data-delivery-id");
        await row.getByRole("button", { name: /^Inspect/ }).click();
        const detail = page.locator(`[data-delivery-id="${deliveryId}"]`).last();
        await detail.getByText("Headers of each attempt").waitFor();
        const { body: delivery } = await apiA("GET", `/_console/api/webhook-deliveries/${deliveryId}`);
        const sent = receiver.requests.find((r) => r.headers["x-portfolio-event-id"] === delivery.eventId)!;
        expect(await detail.locator("pre").first().textContent()).toBe(
          JSON.stringify(JSON.parse(sent.body), null, 2),
        );
        expect(await detail.textContent()).toContain("x-portfolio-signature");
        expect(await detail.textContent()).toContain("verifyWebhookSignature");
        await screenshot(page, "webhook-delivery");

        const before = receiver.requests.length;
        await detail.getByRole("button", { name: "Redeliver" }).click();
        await page.getByText("Sent again as a new delivery").waitFor();
        await eventually(() => receiver.requests.length).toBeGreaterThan(before);
        expect(receiver.requests.at(-1)!.headers["x-portfolio-event-id"]).toBe(delivery.eventId);
        expect(receiver.requests.at(-1)!.body).toBe(sent.body);
        expect((await apiA("DELETE", `/webhooks/registrations/${created.id}`)).status).toBe(204);
      } finally {
        await receiver.close();
      }
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: approver keys", () => {
  test(
    "an approver key survives a reload, still not extractable, votes after it, and is removed from both lists",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Key after reload", 1000);
      const page = await signedInPage();
      await forgetApproverKeys(page);
      await open(page, "/approvals");
      await page.getByRole("button", { name: "Create and register an approver key" }).click();
      await page.getByText("Registered console approver").waitFor();
      const current = page.locator("[data-current-approver]");
      const publicKey = (await current.getAttribute("data-current-approver"))!;
      expect(publicKey).toMatch(/^0[23][0-9a-f]{64}$/);

      await page.reload();
      await eventually(() => current.getAttribute("data-current-approver")).toBe(publicKey);
      const kept = page.locator(`tr[data-kept-key="${publicKey}"]`);
      expect(await kept.textContent()).toContain("yes");
      await page.locator(`tr[data-registered-key="${publicKey}"]`).waitFor();
      // Kept as the CryptoKey itself, and still not extractable: no script can read its bytes.
      const stored = await page.evaluate(async (key) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const opening = indexedDB.open("portfolio-wallet-console");
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = () => reject(opening.error);
        });
        const record = await new Promise<{ privateKey: CryptoKey }>((resolve, reject) => {
          const reading = db.transaction("approver-keys").objectStore("approver-keys").get(key);
          reading.onsuccess = () => resolve(reading.result);
          reading.onerror = () => reject(reading.error);
        });
        db.close();
        const exported = await crypto.subtle.exportKey("pkcs8", record.privateKey).then(
          () => "exported",
          (error: Error) => error.name,
        );
        return { type: record.privateKey.type, extractable: record.privateKey.extractable, exported };
      }, publicKey);
      expect(stored).toEqual({ type: "private", extractable: false, exported: "InvalidAccessError" });

      // It votes after the reload.
      expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 1 }, true)).status).toBe(200);
      try {
        const requested = await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
          requestId: randomUUID(),
          withdrawalAmount: 50,
          destinationToken: "usdc",
          destinationChain: "ethereum",
          destinationAddress: PAYOUT_ADDRESS,
        });
        expect(requested.body.status).toBe("pending_approval");
        const item = page.locator("article.approval", { hasText: "Key after reload" });
        await item.getByRole("button", { name: /^Approve/ }).click();
        await page.getByText("approved: it proceeds by itself").waitFor();
      } finally {
        expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 0 }, true)).status).toBe(200);
      }

      await kept.getByRole("button", { name: /^Remove/ }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
      await page.getByText(/^Removed console approver/).waitFor();
      await kept.waitFor({ state: "detached" });
      await page.locator(`tr[data-registered-key="${publicKey}"]`).waitFor({ state: "detached" });
      const { body } = await apiA("GET", "/_sandbox/signing/api-keys", undefined, true);
      expect(body.data.map((key: { publicKey: string }) => key.publicKey)).not.toContain(publicKey);
      await page.getByRole("button", { name: "Create and register an approver key" }).waitFor();
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: money to the micro, on a sandbox whose clock stands still", () => {
  // Yield accrues with sandbox time: on the wall clock, a balance read a moment later holds a few
  // micros more, and more so on a loaded machine ('1234.560028' for '1234.56', issue 54). Here the
  // sandbox's clock stands still (`--manual-clock`) and the tests move it where they mean to.
  let running: CliSandbox;
  let standing: CliSandbox | undefined;
  beforeAll(async () => {
    standing = await startCliSandbox({
      tokens: { [TOKEN_A]: "org-a", [TOKEN_B]: "org-b" },
      adminToken: ADMIN_TOKEN,
      flags: ["--manual-clock"],
    });
    running = sandbox;
    sandbox = standing;
  });
  afterAll(async () => {
    sandbox = running;
    const output = standing?.output() ?? "";
    await standing?.close();
    expect(output).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  });

  test(
    "a deposit simulated in the console shows in another tab's balance without a reload",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Deposit watch", 0);
      const watching = await signedInPage();
      await open(watching, `/wallets/${wallet.id}`);
      const balance = watching.locator('[data-stat="totalBalanceUsd"]');
      await eventually(() => balance.getAttribute("data-value")).toBe("0");
      await watching.evaluate(() => ((window as unknown as { loadedOnce: string }).loadedOnce = "same page"));

      const controls = await signedInPage();
      await open(controls, `/controls?wallet=${wallet.id}`);
      const form = controls.locator("form", {
        has: controls.getByRole("button", { name: "Simulate deposit" }),
      });
      await eventually(() => form.getByLabel("Deposit address").inputValue()).toBe(
        wallet.depositAddresses.ethereum!.address,
      );
      await form.getByLabel("Amount (USD)").fill("1234.56");
      await form.getByRole("button", { name: "Simulate deposit" }).click();
      const log = form.locator(".request-log");
      await log.getByText("Deposit detected").waitFor();
      const shown = await log.textContent();
      expect(shown).toContain("POST /_sandbox/deposits");
      expect(shown).toContain("201 Created");
      expect(shown).toContain("X-Sandbox-Admin-Token: $ADMIN_TOKEN");
      await screenshot(controls, "controls");

      await eventually(() => balance.getAttribute("data-value")).toBe("1234.56");
      expect(await balance.textContent()).toBe("$1,234.56");
      expect(await watching.evaluate(() => (window as unknown as { loadedOnce?: string }).loadedOnce)).toBe(
        "same page",
      );
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a strategy update approved from the console changes the wallet's allocation",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Reweight with approval", 1000);
      const page = await signedInPage();

      // The approval policy, from the console's controls.
      await open(page, "/controls");
      const policy = page.locator("form", { has: page.getByRole("button", { name: "Save policy" }) });
      await policy.getByLabel("Approvals per strategy update").fill("1");
      await policy.getByRole("button", { name: "Save policy" }).click();
      await policy.getByText("Policy saved").waitFor();

      // The reweight, from the wallet's page.
      await page.getByRole("link", { name: "Wallets" }).first().click();
      await page.getByRole("link", { name: "Reweight with approval" }).click();
      await page.getByRole("link", { name: "Strategy updates" }).click();
      await page.getByLabel("tbills", { exact: true }).fill("5000");
      await page.getByLabel("syrupUsdc", { exact: true }).fill("5000");
      await page.getByRole("button", { name: "Request strategy update" }).click();
      await page.getByText("It waits for approval").waitFor();
      await page.locator('tr[data-status="pending_approval"]').waitFor();
      await screenshot(page, "wallet-strategy");

      // The approval, through the signing provider with a key made in the page.
      await page.getByRole("link", { name: /^Approvals/ }).click();
      await page.getByRole("button", { name: "Create and register an approver key" }).click();
      await page.getByText("Registered console approver").waitFor();
      const item = page.locator("article.approval", { hasText: "Reweight with approval" });
      await item.waitFor();
      expect(await item.textContent()).toContain("Target after approval");
      // The dollars before any vote, equal to what the service's own wallet answer gives at the
      // proposed 5000 / 5000: the sum of what each source gains, to the micro (±1 for the split).
      const moved = item.locator("[data-moved-micros]");
      await moved.waitFor();
      const atService = (await sandbox.api(TOKEN_A, "GET", `/v2/portfolio-wallets/${wallet.id}`)).body as {
        positions: { positionKey: string; valueUsd: number }[];
      };
      const micros = (usd: number) => BigInt(Math.round(usd * 1_000_000));
      const balance = atService.positions.reduce((total, p) => total + micros(p.valueUsd), 0n);
      expect(balance).toBeGreaterThan(0n);
      const now = new Map(atService.positions.map((p) => [p.positionKey, micros(p.valueUsd)]));
      const gains = ["tbills", "syrupUsdc"].map((key) => balance / 2n - (now.get(key) ?? 0n));
      const expected = gains.filter((gain) => gain > 0n).reduce((total, gain) => total + gain, 0n);
      const shown = BigInt((await moved.getAttribute("data-moved-micros"))!);
      expect(shown - expected).toBeGreaterThanOrEqual(-1n);
      expect(shown - expected).toBeLessThanOrEqual(1n);
      expect(await moved.textContent()).toMatch(
        /^Moves \$[\d,]+\.\d\d of \$[\d,]+\.\d\d \([\d.]+% of the wallet\).*Yearly yield .* at today's rates/,
      );
      await screenshot(page, "approvals");
      await item.getByRole("button", { name: /^Approve/ }).click();
      await page.getByText("approved: it proceeds by itself").waitFor();
      const votes = await page.locator(".request-log").filter({ hasText: "approve_activity" }).textContent();
      expect(votes).toContain("POST /public/v1/query/get_activity");
      expect(votes).toContain("POST /public/v1/submit/approve_activity");
      expect(votes).toContain("X-Stamp:");
      // The rebalance runs on the sandbox's clock, which stands still here: a second of it.
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 1 }, true)).status).toBe(200);

      await page.getByRole("link", { name: "Reweight with approval" }).first().click();
      await eventually(() =>
        page
          .locator(".allocation-table tr[data-position-key]")
          .evaluateAll((rows) =>
            rows.map((row) => [row.getAttribute("data-position-key"), row.getAttribute("data-target-bps")]),
          ),
      ).toEqual([
        ["tbills", "5000"],
        ["syrupUsdc", "5000"],
      ]);
      const { body } = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(
        body.strategyConfig.positions.map((p: { targetWeightBps: number }) => p.targetWeightBps),
      ).toEqual([5000, 5000]);
      expect((await apiA("PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0 }, true)).status).toBe(200);
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "an approval shows a table with the actual weight now, withdrawal legs with their sources and when they pay, and who voted",
    async () => {
      // A drifted wallet: $300 paid from syrupUsdc leaves $100 there and $600 in tbills (85.71 % against 60 %).
      const wallet = await walletOf(TOKEN_A, "Drifted approval", 1000);
      const paid = await withdrawFromA(wallet.id, 300);
      expect(paid.status).toBe(201);
      const policy = { strategyUpdateApprovals: 2, withdrawalApprovals: 1 };
      expect((await apiA("PUT", "/_sandbox/policy", policy, true)).status).toBe(200);
      try {
        const update = await apiA("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
          requestId: randomUUID(),
          positions: [
            { positionKey: "tbills", targetWeightBps: 5500 },
            { positionKey: "syrupUsdc", targetWeightBps: 4500 },
          ],
        });
        expect(update.body.status).toBe("pending_approval");
        const withdrawal = await withdrawFromA(wallet.id, 500);
        expect(withdrawal.body.status).toBe("pending_approval");
        const atService = (await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`)).body as {
          positions: { positionKey: string; weightBps: number }[];
        };
        const page = await signedInPage();
        await forgetApproverKeys(page);
        await open(page, "/approvals");
        const publicKey = await newApproverKey(page);

        // The strategy update: per source, the actual weight now (the service's weightBps), both targets and the dollars moved.
        const card = page.locator("article.approval", { hasText: "Drifted approval" }).filter({
          has: page.getByRole("heading", { name: "Strategy update" }),
        });
        const impact = card.locator("table");
        await impact.waitFor();
        expect(await impact.locator("thead th").allTextContents()).toEqual([
          "Yield source",
          "Actual now",
          "Target now",
          "Target after approval",
          "USD moved",
        ]);
        for (const position of atService.positions)
          expect(
            await impact
              .locator(`tr[data-position-key="${position.positionKey}"] [data-actual-bps]`)
              .getAttribute("data-actual-bps"),
          ).toBe(String(position.weightBps));
        const cells = (key: string) =>
          impact.locator(`tr[data-position-key="${key}"]`).locator("th, td").allTextContents();
        expect(await cells("tbills")).toEqual(["tbills", "85.71% · $600.00", "60.00%", "55.00%", "−$215.00"]);
        expect(await cells("syrupUsdc")).toEqual([
          "syrupUsdc",
          "14.29% · $100.00",
          "40.00%",
          "45.00%",
          "+$215.00",
        ]);
        expect(await card.locator("[data-moved-micros]").getAttribute("data-moved-micros")).toBe("215000000");
        expect(await card.locator("[data-moved-micros]").textContent()).toMatch(
          /^Moves \$215\.00 of \$700\.00 \(30\.71% of the wallet\)/,
        );

        // The withdrawal: each leg with the sources it draws from and when it pays.
        const payout = page.locator("article.approval", { hasText: "Withdrawal of $500.00" });
        const legRow = (key: string) =>
          payout.locator(`tr[data-leg-key="${key}"]`).locator("th, td").allTextContents();
        await payout.locator('tr[data-leg-key="instant"]').waitFor();
        expect(await legRow("instant")).toEqual(["instant", "$100.00", "syrupUsdc $100.00", "paid at once"]);
        expect(await legRow("redeem")).toEqual([
          "redeem",
          "$400.00",
          "tbills $400.00",
          "paid after 24 hours",
        ]);

        // A vote: counted, then Approve is off for this key, and the card says who voted and when.
        expect(await card.locator("[data-voter-key]").count()).toBe(0);
        await card.getByRole("button", { name: /^Approve/ }).click();
        await page.getByText("Your approval is counted").waitFor();
        await eventually(() => card.getByRole("button", { name: /^Approve/ }).isDisabled()).toBe(true);
        expect(await card.getByRole("button", { name: /^Reject/ }).isDisabled()).toBe(true);
        expect(await card.locator(".approval-count").textContent()).toBe("1 of 2 approvals");
        const votes = card.locator("[data-voter-key]");
        expect(await votes.count()).toBe(1);
        expect(await votes.first().getAttribute("data-voter-key")).toBe(publicKey);
        // The key whole (with its Copy button), so it can be matched against the approver's.
        expect(await votes.first().locator(".whole-id-text").textContent()).toBe(publicKey);
        expect(await votes.first().textContent()).toMatch(
          new RegExp(`^You approved \\(key ${publicKey}Copy\\) at .+ \\(sandbox time\\)$`),
        );

        const findings: string[] = [];
        for (const width of [1280, 420]) {
          await page.setViewportSize({ width, height: 900 });
          findings.push(...(await seriousViolations(page)).map((finding) => `${width}px: ${finding}`));
          if (width === 420) findings.push(...(await offscreenActions(page)));
        }
        expect(findings).toEqual([]);
      } finally {
        const off = { strategyUpdateApprovals: 0, withdrawalApprovals: 0 };
        expect((await apiA("PUT", "/_sandbox/policy", off, true)).status).toBe(200);
      }
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a deposit made on the wallet's page and time moved from the header show on that page, without leaving it",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Deposit in place", 0);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}`);
      const balance = page.locator('[data-stat="totalBalanceUsd"]');
      await eventually(() => balance.getAttribute("data-value")).toBe("0");
      await page.getByText("Simulate a deposit").click();
      const form = page.locator("#overview-deposit-form");
      expect(await form.getByLabel("Deposit address").inputValue()).toBe(
        wallet.depositAddresses.ethereum!.address,
      );
      await form.getByLabel("Amount (USD)").fill("2500");
      // A hash not in the chain's form is refused at its field, and nothing is sent.
      const depositCalls: string[] = [];
      page.on("request", (sent) => {
        if (sent.method() === "POST" && sent.url().endsWith("/_sandbox/deposits"))
          depositCalls.push(sent.url());
      });
      const txHash = form.getByLabel("Transaction hash");
      const madeHash = await txHash.inputValue();
      expect(madeHash).toMatch(/^0x[0-9a-f]{64}$/);
      await txHash.fill("hello world");
      await form.getByRole("button", { name: "Simulate deposit" }).click();
      await form.getByRole("alert").waitFor();
      expect(await txHash.getAttribute("aria-invalid")).toBe("true");
      expect(await form.locator(".field-error").textContent()).toContain("0x followed by 64 hex digits");
      expect(depositCalls).toEqual([]);
      await txHash.fill(madeHash);
      await form.getByRole("button", { name: "Simulate deposit" }).click();
      await form.getByText("Deposit detected: $2,500.00").waitFor();
      // The line stays on the page while the deposit moves on: it states no status it would outlive.
      expect(await form.locator(".request-log .notice").textContent()).not.toMatch(
        /Deposit detected: \$2,500\.00, (pending|processing|completed)/,
      );
      await eventually(() => balance.getAttribute("data-value")).toBe("2500");
      expect(page.url()).toBe(`${sandbox.consoleUrl}wallets/${wallet.id}`);

      // The legs wait for the deposit processing delay: one second of sandbox time, moved from the header.
      await page.getByRole("link", { name: "Deposits" }).click();
      const row = page.locator("tr[data-deposit-id]").first();
      await row.waitFor();
      const before = await page.locator("[data-sandbox-now]").getAttribute("data-sandbox-now");
      await page.getByText("Advance time").click();
      await page
        .getByRole("group", { name: "Advance the sandbox clock by" })
        .getByRole("button", { name: "+ 1 second" })
        .click();
      // The menu closes once time moved, and says what moved beside it.
      await page.locator(".clock-moved").getByText("✓ + 1 second").waitFor();
      expect(await page.locator(".clock-menu").getAttribute("open")).toBeNull();
      await eventually(() => row.locator(".pill").first().getAttribute("data-status")).toBe("completed");
      await eventually(() => page.locator("[data-sandbox-now]").getAttribute("data-sandbox-now")).not.toBe(
        before,
      );
      expect(page.url()).toBe(`${sandbox.consoleUrl}wallets/${wallet.id}/deposits`);
      await screenshot(page, "wallet-deposit-in-place");

      // Without the admin token, no clock control in the header (the calls would be refused).
      const reader = await signedInPage(false);
      await open(reader, `/wallets/${wallet.id}`);
      await reader.locator('[data-stat="totalBalanceUsd"]').waitFor();
      expect(await reader.getByText("Advance time").isVisible()).toBe(false);
    },
    SCENARIO_TIMEOUT_MS,
  );

  test(
    "a statement picked on the wallet's page: a bad period refused at its field unsent, then CSV and JSON equal to the API's statement and the balance",
    async () => {
      const wallet = await walletOf(TOKEN_A, 'Statement, "ops"', 1234.56);
      const paid = await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        requestId: randomUUID(),
        withdrawalAmount: 200.5,
        ...ETHEREUM_PAYOUT,
      });
      expect(paid.status).toBe(201);
      expect((await apiA("POST", "/_sandbox/clock/advance", { seconds: 3600 }, true)).status).toBe(200);
      const page = await signedInPage(false);
      await open(page, `/wallets/${wallet.id}/statement`);
      const form = page.locator("#statement-form");
      const from = form.getByLabel(/^From, excluded/);
      const to = form.getByLabel(/^To, included/);
      await eventually(() => to.inputValue()).not.toBe("");
      const chosenTo = await to.inputValue();

      // To before From: refused at To in the page's words, and no statement asked for.
      await to.fill(await from.inputValue());
      await form.getByRole("button", { name: "Show statement" }).click();
      await form
        .locator('[data-error-for="to"]')
        .getByText(/^choose a moment after From/)
        .waitFor();
      expect(await to.getAttribute("aria-invalid")).toBe("true");
      expect(requestedUrls.filter((url) => url.includes("/statement?"))).toEqual([]);

      await to.fill(chosenTo);
      expect(await to.getAttribute("aria-invalid")).toBeNull();
      await form.getByRole("button", { name: "Show statement" }).click();
      const closing = page.locator('[data-figure="Closing balance"] [data-micros]');
      await closing.waitFor();
      const [csvDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download CSV" }).click(),
      ]);
      const [jsonDownload] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download JSON" }).click(),
      ]);
      const downloaded = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8")) as Statement;
      const answer = await apiA(
        "GET",
        `/_console/api/wallets/${wallet.id}/statement?from=${encodeURIComponent(downloaded.period.from)}&to=${encodeURIComponent(downloaded.period.to)}`,
      );
      expect(downloaded).toEqual(answer.body);
      expect(readFileSync((await csvDownload.path())!, "utf8")).toBe(statementCsv(answer.body));
      expect(csvDownload.suggestedFilename()).toMatch(new RegExp(`^statement-${wallet.id}-.*\\.csv$`));
      // The wallet's life to the sandbox's now, its clock standing still: it opens at nothing and
      // closes at the balance the wallet holds, to the micro.
      const held = await apiA("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(downloaded).toMatchObject({
        openingBalanceMicros: "0",
        depositsMicros: "1234560000",
        payoutsMicros: "200500000",
      });
      expect(downloaded.closingBalanceMicros).toBe(String(usdToMicros(held.body.totalBalanceUsd)));
      expect(await closing.getAttribute("data-micros")).toBe(downloaded.closingBalanceMicros);
      expect(
        await page
          .locator("tr[data-movement-kind]")
          .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-movement-kind"))),
      ).toEqual(["deposit", "withdrawal", "payout", "yield"]);

      const findings: string[] = [];
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        findings.push(...(await seriousViolations(page)).map((finding) => `${width}px: ${finding}`));
        if (width === 420)
          findings.push(...(await offscreenActions(page)).map((problem) => `${width}px: ${problem}`));
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) findings.push(`${width}px: the page is ${overflow}px wider than the window`);
        await screenshot(page, width === 420 ? "wallet-statement-narrow" : "wallet-statement");
      }
      expect(findings).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );
});

describe("sandbox console in Chromium: every page", () => {
  test(
    "the main pages have no serious accessibility violations, at 1280 px and on a narrow window",
    async () => {
      // The check itself finds what it should: an image without a text alternative is critical.
      const control = await newPage();
      await control.setContent(
        '<!doctype html><html lang="en"><title>t</title><main><img src="data:,"></main></html>',
      );
      expect((await seriousViolations(control)).join()).toContain("image-alt");
      await control.close();

      // A registration with a delivery, so the open delivery detail is checked too.
      const receiver = await startReceiver(() => 204);
      const registered = await apiA("POST", "/webhooks/registrations", {
        url: receiver.url,
        eventTypes: ["portfolio_wallet.deposit.status_changed"],
        description: "accessibility receiver",
      });
      expect(registered.status).toBe(201);
      // The longest label and disable reason the contract takes (200 and 500 characters), with no
      // space to wrap at: every page below must still fit its window, every action its card.
      const wallet = await walletOf(TOKEN_A, `Accessibility-${"x".repeat(186)}`, 1000);
      await eventually(() => receiver.requests.length).toBeGreaterThanOrEqual(1);
      const disabled = await apiA("PATCH", `/webhooks/registrations/${registered.body.id}/status`, {
        status: "disabled",
        disabledReason: "r".repeat(500),
      });
      expect(disabled.status).toBe(200);
      // Something waiting on Approvals, and a webhook registration, so their actions are checked too.
      expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 1 }, true)).status).toBe(200);
      const waiting = await apiA("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        requestId: randomUUID(),
        withdrawalAmount: 10,
        destinationToken: "usdc",
        destinationChain: "ethereum",
        destinationAddress: PAYOUT_ADDRESS,
      });
      expect(waiting.body.status).toBe("pending_approval");
      expect((await apiA("PUT", "/_sandbox/policy", { withdrawalApprovals: 0 }, true)).status).toBe(200);
      const page = await signedInPage();
      const paths = [
        "/wallets",
        "/wallets/new",
        `/wallets/${wallet.id}`,
        `/wallets/${wallet.id}/deposits`,
        `/wallets/${wallet.id}/withdrawals`,
        `/wallets/${wallet.id}/strategy`,
        "/approvals",
        "/webhooks",
        "/events",
        "/controls",
        `/wallets/${randomUUID()}`,
      ];
      const findings: string[] = [];
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of paths) {
          await open(page, path);
          await page.locator("main h1").waitFor();
          await page.locator(".loading").first().waitFor({ state: "detached", timeout: 15_000 });
          findings.push(
            ...(await seriousViolations(page)).map((finding) => `${width}px ${path}: ${finding}`),
          );
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - window.innerWidth,
          );
          if (overflow > 0)
            findings.push(`${width}px ${path}: the page is ${overflow}px wider than the window`);
          if (path === "/webhooks")
            findings.push(
              ...(
                await page.evaluate(() =>
                  Array.from(document.querySelectorAll<HTMLElement>("main .row-actions button"))
                    .filter((button) => {
                      const own = button.getBoundingClientRect();
                      const card = button.closest(".card")!.getBoundingClientRect();
                      return own.left < card.left || own.right > card.right;
                    })
                    .map((button) => `${button.textContent} is outside its card`),
                )
              ).map((problem) => `${width}px ${path}: ${problem}`),
            );
          if (width === 420)
            findings.push(
              ...(await offscreenActions(page)).map((problem) => `${width}px ${path}: ${problem}`),
            );
        }
        // What opens on a page is checked open: a delivery's detail, and the header's clock menu.
        await open(page, "/webhooks");
        await page
          .getByRole("button", { name: /^Inspect/ })
          .first()
          .click();
        await page.getByText("Headers of each attempt").waitFor();
        findings.push(
          ...(await seriousViolations(page)).map((finding) => `${width}px delivery detail: ${finding}`),
        );
        await page.getByText("Advance time").click();
        await page.getByRole("button", { name: "+ 7 days" }).waitFor();
        findings.push(
          ...(await seriousViolations(page)).map((finding) => `${width}px clock menu: ${finding}`),
        );
        if (width === 420)
          findings.push(
            ...(await offscreenActions(page)).map((problem) => `${width}px clock menu: ${problem}`),
          );
        await page.getByText("Advance time").click();
      }
      expect((await apiA("DELETE", `/webhooks/registrations/${registered.body.id}`)).status).toBe(204);
      await receiver.close();
      await open(page, `/wallets/${wallet.id}`);
      await page.locator(".allocation-table").waitFor();
      await screenshot(page, "wallet-overview-narrow");

      const signInPage = await newPage();
      await open(signInPage, "/sign-in");
      // The page's form: the header's clock form is in the document too, hidden until signed in.
      await signInPage.locator("main form").waitFor();
      findings.push(...(await seriousViolations(signInPage)).map((finding) => `sign-in: ${finding}`));
      await screenshot(signInPage, "sign-in");
      expect(findings).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS * 2,
  );

  test(
    "the console is usable from the keyboard: skip link, then to a wallet and its sections",
    async () => {
      const wallet = await walletOf(TOKEN_A, "Keyboard wallet", 0);
      const page = await signedInPage();
      await page.setViewportSize({ width: 1280, height: 900 });
      await open(page, "/wallets");
      await page.locator(`tr[data-wallet-id="${wallet.id}"]`).waitFor();
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
      await page.keyboard.press("Enter");
      // From the main content, Tab reaches the wallet's link, and Enter opens it.
      for (let presses = 0; presses < 40; presses += 1) {
        await page.keyboard.press("Tab");
        if ((await page.evaluate(() => document.activeElement?.textContent)) === "Keyboard wallet") break;
      }
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Keyboard wallet");
      await page.keyboard.press("Enter");
      await eventually(() => page.url()).toBe(`${sandbox.consoleUrl}wallets/${wallet.id}`);
      // The page moved focus to its main content, for screen readers and keyboards alike.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    },
    SCENARIO_TIMEOUT_MS,
  );

  test("no API or admin token in any URL, page, storage other than this tab's session, or the sandbox's output", async () => {
    expect(requestedUrls.length).toBeGreaterThan(50);
    for (const url of requestedUrls) for (const secret of SECRETS) expect(url).not.toContain(secret);
    for (const page of openPages) {
      if (page.isClosed()) continue;
      const html = await page.content();
      const local = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
      for (const secret of SECRETS) {
        expect(html).not.toContain(secret);
        expect(local).not.toContain(secret);
        expect(page.url()).not.toContain(secret);
      }
    }
    expect(await context.cookies()).toEqual([]);
    const output = sandbox.output();
    expect(output).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m);
    for (const secret of SECRETS) expect(output).not.toContain(secret);
    expect(pageErrors).toEqual([]);
  });
});
