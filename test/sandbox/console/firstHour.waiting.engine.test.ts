import { randomBytes, randomUUID } from "node:crypto";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ensureChromium, launchBrowser, signIn, startCliSandbox, type CliSandbox } from "./harness.ts";
import { eventually, offscreenActions, seriousViolations } from "./pageChecks.ts";
import { startReceiver } from "../domain/events/harness/receiver.ts";

/**
 * A new user's first hour with the console (issue 40): each rough edge it met, in Chromium at the
 * width and in the time zone where it showed. Asia/Kolkata, half an hour off UTC, as the issue's
 * user: no time there reads as UTC's.
 */

const TIME_ZONE = "Asia/Kolkata";
const TOKEN = `first-hour-${randomBytes(12).toString("hex")}`;
// An organization with no wallet at all.
const EMPTY_TOKEN = `first-hour-empty-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `first-hour-admin-${randomBytes(12).toString("hex")}`;
const PAYOUT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const EQUAL_WEIGHTS = [
  { positionKey: "tbills", targetWeightBps: 5000 },
  { positionKey: "syrupUsdc", targetWeightBps: 5000 },
];
const DAY_SECONDS = 86_400;
const TIMEOUT_MS = 120_000;

let sandbox: CliSandbox;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
const pageErrors: string[] = [];

const api = (method: string, route: string, body?: unknown, admin = false) =>
  sandbox.api(TOKEN, method, route, body, admin);

type Wallet = { id: string; createdAt: string; depositAddresses: Record<string, { address: string }> };

/** A wallet of the organization with `amount` invested in its positions. */
async function fundedWallet(label: string, amount: number, positions = EQUAL_WEIGHTS): Promise<Wallet> {
  const created = await api("POST", "/v2/portfolio-wallets", { requestId: randomUUID(), label, positions });
  expect(created.status).toBe(201);
  const deposit = await api(
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
  expect(deposit.status).toBe(201);
  await advance(2);
  return created.body as Wallet;
}

async function advance(seconds: number): Promise<void> {
  expect((await api("POST", "/_sandbox/clock/advance", { seconds }, true)).status).toBe(200);
}

/** How far the organization's sandbox clock is ahead of the wall clock: it changes only when advanced. */
async function organizationLeadMs(): Promise<number> {
  return (await api("GET", "/_sandbox/clock", undefined, true)).body.organizationLeadMs as number;
}

/** The organization's sandbox clock now, as the sandbox answers it. */
async function sandboxNow(): Promise<string> {
  const { body } = await api("GET", "/_sandbox/clock", undefined, true);
  return body.now as string;
}

async function signedInPage(token = TOKEN): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      pageErrors.push(`console: ${message.text()}`);
  });
  await signIn(page, sandbox.consoleUrl, token, ADMIN_TOKEN);
  return page;
}

const open = (page: Page, path: string) => page.goto(`${sandbox.consoleUrl}${path.replace(/^\//, "")}`);

/** A funded wallet's page, its figures shown, and the page's live banner: where an outage is met. */
async function walletPageShown(label: string): Promise<{ page: Page; banner: Locator }> {
  const wallet = await fundedWallet(label, 1000);
  const page = await signedInPage();
  await open(page, `/wallets/${wallet.id}`);
  await page.locator('[data-stat="totalBalanceUsd"]').waitFor();
  return { page, banner: page.locator(".live-banner") };
}

/** Every request of the page whose method and path match, as "METHOD path". */
function watchRequests(page: Page, method: string, path: RegExp): string[] {
  const seen: string[] = [];
  page.on("request", (sent) => {
    const url = new URL(sent.url());
    if (sent.method() === method && path.test(url.pathname)) seen.push(`${method} ${url.pathname}`);
  });
  return seen;
}

/** A moment as a `datetime-local` field of the browser's zone takes it: "2026-12-30T10:00". */
function localInput(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: TIME_ZONE,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  return `${parts["year"]}-${parts["month"]}-${parts["day"]}T${parts["hour"]}:${parts["minute"]}`;
}

/** The parts of the page's stats not visible at their centre: something lies over them. */
async function coveredStats(page: Page): Promise<string[]> {
  return page.locator(".stats > div").evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return top !== null && cell.contains(top) ? [] : [cell.querySelector("dt")?.textContent ?? "?"];
    }),
  );
}

beforeAll(async () => {
  const executable = await ensureChromium();
  sandbox = await startCliSandbox({
    tokens: { [TOKEN]: "first-hour", [EMPTY_TOKEN]: "first-hour-empty" },
    adminToken: ADMIN_TOKEN,
  });
  ({ context, close: closeBrowser } = await launchBrowser(executable, { timezoneId: TIME_ZONE }));
}, 20 * 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await sandbox?.close();
});

describe("the console's first hour (issue 40)", () => {
  test(
    "3: after an outage the banner goes within seconds, Retry now reads at once, and an action clicked meanwhile says it is not sent, and is not",
    async () => {
      const { page, banner } = await walletPageShown("Outage");
      const leadBefore = await organizationLeadMs();
      const outage = /\/(?:_console|_sandbox|v2)\//;
      await page.route(outage, (route) => route.abort());
      await banner.waitFor({ state: "visible", timeout: 15_000 });
      // Long enough for the reads to back off several times.
      await page.waitForTimeout(14_000);
      await page.getByText("Advance time").click();
      await page.getByRole("button", { name: "+ 1 hour" }).click();
      const refusal = page.locator(".clock-menu [role=alert]");
      await refusal.waitFor();
      const said = (await refusal.textContent()) ?? "";
      expect(said).toContain("will not send it again");
      expect(said).not.toMatch(/keep trying/i);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await page.unroute(outage);
      // Back: the banner goes at the next read, a few seconds at most.
      await banner.waitFor({ state: "hidden", timeout: 7_000 });

      await page.route(outage, (route) => route.abort());
      await banner.waitFor({ state: "visible", timeout: 15_000 });
      await page.waitForTimeout(6_000);
      await page.unroute(outage);
      await banner.getByRole("button", { name: "Retry now" }).click();
      await banner.waitFor({ state: "hidden", timeout: 2_500 });
      // The "+ 1 hour" of the outage was never sent later.
      await page.waitForTimeout(3_000);
      expect(await organizationLeadMs()).toBe(leadBefore);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "4: the Advance time menu closes on Escape and a click outside, and once time moved covers none of the wallet's figures",
    async () => {
      const wallet = await fundedWallet("Clock menu", 1000);
      const page = await signedInPage();
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, `/wallets/${wallet.id}`);
        await page.locator('[data-stat="totalBalanceUsd"]').waitFor();
        const menu = page.locator(".clock-menu");
        const summary = page.getByText("Advance time");
        await summary.click();
        expect(await menu.getAttribute("open")).not.toBeNull();
        await page.keyboard.press("Escape");
        expect(await menu.getAttribute("open")).toBeNull();
        await summary.click();
        // A click on the page below the header, where the open panel does not reach.
        await page.mouse.click(10, 880);
        expect(await menu.getAttribute("open")).toBeNull();

        await summary.click();
        await page.getByRole("button", { name: "+ 1 hour" }).click();
        await page.locator(".clock-moved").getByText("✓ + 1 hour").waitFor();
        // The menu closes with the confirmation, and the page then redraws its figures for the new
        // time: polled, since under load the redraw can land after the confirmation (a run with
        // the cores busy found every figure covered at that instant). A menu left open fails it.
        await expect.poll(() => coveredStats(page), { message: `${width}px`, timeout: 10_000 }).toEqual([]);
        expect(await offscreenActions(page), `${width}px`).toEqual([]);
      }
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "Deliver 4: Advance to a date refuses no date, a date in the past and one past the clock's limit at the field without sending, and moves the clock to a date ahead",
    async () => {
      await fundedWallet("Advance to a date", 100);
      const page = await signedInPage();
      const advances = watchRequests(page, "POST", /\/_sandbox\/clock\/advance$/);
      for (const width of [420, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, "/wallets");
        await page.getByText("Advance time").click();
        const form = page.locator("#header-clock-to-date");
        const field = form.getByLabel(/^Advance to/);
        // No date.
        await form.getByRole("button", { name: "Advance to date" }).click();
        const message = page.locator(".clock-menu [role=alert]");
        await message.waitFor();
        expect(await message.textContent()).toContain("Advance to");
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        expect(await form.locator(".field-error").textContent()).toContain("choose a date and a time");
        // A day before the sandbox's now: the clock only moves forward.
        await field.fill(localInput(Date.parse(await sandboxNow()) - DAY_SECONDS * 1000));
        expect(await field.getAttribute("aria-invalid")).toBeNull();
        await form.getByRole("button", { name: "Advance to date" }).click();
        await eventually(() => message.textContent()).toContain("is not after the sandbox time now");
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        expect(await seriousViolations(page), `${width}px`).toEqual([]);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect(advances).toEqual([]);
        await page.keyboard.press("Escape");
      }
      // Past the clock's limit (100 years at once): refused at the same field, in dates, not
      // milliseconds (issue 58), and nothing sent.
      await page.getByText("Advance time").click();
      const form = page.locator("#header-clock-to-date");
      const field = form.getByLabel(/^Advance to/);
      await field.fill("9999-12-31T23:59");
      await form.getByRole("button", { name: "Advance to date" }).click();
      const refusal = page.locator(".clock-menu [role=alert]");
      await eventually(() => refusal.textContent()).toContain(
        "further ahead than the sandbox clock moves at once",
      );
      expect(await refusal.textContent()).not.toMatch(/\bms\b|\d{10}/);
      expect(await form.locator(".field-error").textContent()).toMatch(/^choose a moment up to \d/);
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      expect(advances).toEqual([]);
      // Three days ahead, to the minute.
      const target = Date.parse(await sandboxNow()) + 3 * DAY_SECONDS * 1000;
      const wanted = localInput(target);
      await field.fill(wanted);
      await form.getByRole("button", { name: "Advance to date" }).click();
      await page.locator(".clock-moved").getByText("moved to the date").waitFor();
      const now = await sandboxNow();
      expect(localInput(Date.parse(now))).toBe(wanted);
      expect(advances).toHaveLength(1);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "5: Strategy updates' current target changes once an update completes, without leaving the page",
    async () => {
      const wallet = await fundedWallet("Reweighted", 1000, [
        { positionKey: "tbills", targetWeightBps: 6000 },
        { positionKey: "syrupUsdc", targetWeightBps: 4000 },
      ]);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/strategy`);
      const current = page.locator("p.hint", { hasText: "Current target" });
      await eventually(() => current.textContent()).toContain("tbills 60.00%, syrupUsdc 40.00%");
      await page.getByLabel("tbills", { exact: true }).fill("5000");
      await page.getByLabel("syrupUsdc", { exact: true }).fill("5000");
      await page.getByRole("button", { name: "Request strategy update" }).click();
      await page.getByText("Strategy update requested").waitFor();
      await advance(DAY_SECONDS);
      await eventually(async () =>
        (await api("GET", `/v2/portfolio-wallets/${wallet.id}`)).body.strategyConfig.positions.map(
          (position: { targetWeightBps: number }) => position.targetWeightBps,
        ),
      ).toEqual([5000, 5000]);
      await eventually(() => current.textContent()).toContain("tbills 50.00%, syrupUsdc 50.00%");
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "6 and 12: 30 days of yield plotted from the service's own figures, equal weights both visible, axes naming the zone",
    async () => {
      const wallet = await fundedWallet("Thirty days", 10_000);
      await advance(30 * DAY_SECONDS);
      const page = await signedInPage();
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, `/wallets/${wallet.id}`);
        const yieldLine = page.locator(".time-chart", { hasText: "Yield generated" }).locator("path.series");
        await yieldLine.waitFor();
        // Half way through the 30 days, the line is half way up, not at $0 (the plot is 600 × 160).
        const d = (await yieldLine.getAttribute("d")) ?? "";
        const vertices = [...d.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
        const middle = vertices.reduce((best, v) =>
          Math.abs(v[0]! - 300) < Math.abs(best[0]! - 300) ? v : best,
        );
        expect(middle[1], `${width}px: ${d}`).toBeGreaterThan(40);
        expect(middle[1], `${width}px: ${d}`).toBeLessThan(120);
        // Each figure drawn is the service's: the yield metrics with that moment as the period's end.
        const drawn = ((await yieldLine.getAttribute("data-points")) ?? "").split(" ").map((pair) => {
          const [at, value] = pair.split("=");
          return { at: at!, value: Number(value) };
        });
        expect(drawn.length).toBeGreaterThanOrEqual(20);
        for (const point of [drawn[5]!, drawn[12]!]) {
          const { body } = await api("POST", "/v2/portfolio-wallets/yield", {
            portfolioWalletIds: [wallet.id],
            periodEndIso: point.at,
          });
          // The sandbox clock runs on between the page's read and this one: within a tenth of a cent.
          expect(Math.abs(point.value - body.portfolioWallets[wallet.id].generated)).toBeLessThan(0.001);
          expect(point.value).toBeGreaterThan(0);
        }
        // Two sources at equal weights: two lines that coincide, told apart by their dashes and
        // by the legend's figures.
        const weights = page.locator(".time-chart", { hasText: "Weight per yield source" });
        const dashes = await weights
          .locator("path.series")
          .evaluateAll((paths) => paths.map((path) => getComputedStyle(path).strokeDasharray));
        expect(dashes).toHaveLength(2);
        expect(new Set(dashes).size).toBe(2);
        const legend = await weights.locator("[data-legend]").allTextContents();
        expect(legend).toEqual([
          expect.stringMatching(/^tbills \(target 50\.00%\): \d+\.\d\d%$/),
          expect.stringMatching(/^syrupUsdc \(target 50\.00%\): \d+\.\d\d%$/),
        ]);
        // The axes say which zone their times are in.
        for (const axis of await page.locator(".time-chart-axis").allTextContents())
          expect(axis).toMatch(/IST|GMT\+5:30/);
      }
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "7 and 8: no table wider than its card at 1280 and 420 px, and a delivery's event type and URL wrap only at their separators",
    async () => {
      const receiver = await startReceiver(() => 204);
      const registered = await api("POST", "/webhooks/registrations", {
        url: `${receiver.url}/portfolio-wallet/deliveries`,
        eventTypes: [
          "portfolio_wallet.deposit.status_changed",
          "portfolio_wallet.withdrawal.payout.status_changed",
        ],
        description: "first hour receiver",
      });
      expect(registered.status).toBe(201);
      const wallet = await fundedWallet("Tables", 1000, [
        { positionKey: "tbills", targetWeightBps: 4000 },
        { positionKey: "syrupUsdc", targetWeightBps: 3000 },
        { positionKey: "resolvRlp", targetWeightBps: 3000 },
      ]);
      const paid = await api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        requestId: randomUUID(),
        withdrawalAmount: 10,
        destinationToken: "usdc",
        destinationChain: "ethereum",
        destinationAddress: PAYOUT_ADDRESS,
      });
      expect(paid.status).toBe(201);
      await eventually(() => receiver.requests.length).toBeGreaterThanOrEqual(2);
      const page = await signedInPage();
      const wide: string[] = [];
      const brokenWords: string[] = [];
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of [`/wallets/${wallet.id}`, "/webhooks"]) {
          await open(page, path);
          await page.locator("main table").first().waitFor();
          await page.locator(".loading").first().waitFor({ state: "detached", timeout: 15_000 });
          wide.push(
            ...(
              await page
                .locator("main .table-scroll")
                .evaluateAll((regions) =>
                  regions
                    .filter((region) => region.scrollWidth > region.clientWidth + 1)
                    .map(
                      (region) =>
                        `${region.getAttribute("aria-label")} (${region.scrollWidth - region.clientWidth}px)`,
                    ),
                )
            ).map((problem) => `${width}px ${path}: ${problem}`),
          );
        }
        await page
          .getByRole("button", { name: /^Inspect/ })
          .first()
          .click();
        await page.getByText("Headers of each attempt").waitFor();
        // Where each line of the event type and the URL starts: only after a separator.
        brokenWords.push(
          ...(
            await page.locator(".delivery-detail dd code").evaluateAll((codes) =>
              codes.flatMap((code) => {
                const text = code.textContent ?? "";
                const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
                const tops: { char: string; top: number }[] = [];
                for (let node = walker.nextNode(); node !== null; node = walker.nextNode())
                  for (let index = 0; index < (node.textContent ?? "").length; index += 1) {
                    const range = document.createRange();
                    range.setStart(node, index);
                    range.setEnd(node, index + 1);
                    tops.push({ char: node.textContent![index]!, top: range.getBoundingClientRect().top });
                  }
                return tops.flatMap((entry, index) => {
                  const before = tops[index - 1];
                  return before !== undefined && entry.top > before.top + 2 && !/[./_?&=:-]/.test(before.char)
                    ? [`"${text}" breaks before "${text.slice(index, index + 6)}"`]
                    : [];
                });
              }),
            )
          ).map((problem) => `${width}px: ${problem}`),
        );
      }
      expect({ wide, brokenWords }).toEqual({ wide: [], brokenWords: [] });
      expect((await api("DELETE", `/webhooks/registrations/${registered.body.id}`)).status).toBe(204);
      await receiver.close();
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "9: Copy says it copied, beside the button",
    async () => {
      const wallet = await fundedWallet("Copy", 10);
      const page = await signedInPage();
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sandbox.url });
      await open(page, `/wallets/${wallet.id}`);
      const copy = page.getByRole("button", { name: "Copy the ethereum deposit address" });
      const said = page.locator(".copy-control", { has: copy }).locator(".copy-feedback");
      await copy.click();
      await eventually(() => said.textContent()).toBe("✓ Copied");
      expect(await said.isVisible()).toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        wallet.depositAddresses.ethereum!.address,
      );
      // The button keeps its word (part of its accessible name), and the words go after a moment.
      expect(await copy.textContent()).toBe("Copy");
      expect(await seriousViolations(page)).toEqual([]);
      await eventually(() => said.textContent()).toBe("");
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "11: arming a fault with no wallet to name marks the wallet field and sends nothing",
    async () => {
      const page = await signedInPage(EMPTY_TOKEN);
      const sent = watchRequests(page, "POST", /\/_sandbox\/faults/);
      await open(page, "/controls");
      const form = page.locator("form", { has: page.getByRole("button", { name: "Arm fault" }) });
      await form.getByRole("button", { name: "Arm fault" }).click();
      const alert = form.getByRole("alert");
      await alert.waitFor();
      expect(await alert.textContent()).toContain("Not sent");
      const wallet = form.getByLabel("Wallet", { exact: true });
      expect(await wallet.getAttribute("aria-invalid")).toBe("true");
      expect(await form.locator(".field-error").textContent()).toContain("this organization has none yet");
      expect(sent).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "12: the withdrawal timeline shows UTC on hover, and an approver key's Created date is the sandbox's",
    async () => {
      const wallet = await fundedWallet("Timeline times", 1000);
      await advance(7 * DAY_SECONDS);
      const requested = await api("POST", `/v2/portfolio-wallets/${wallet.id}/withdraw`, {
        requestId: randomUUID(),
        withdrawalAmount: 700,
        destinationToken: "usdc",
        destinationChain: "ethereum",
        destinationAddress: PAYOUT_ADDRESS,
      });
      expect(requested.status).toBe(201);
      const page = await signedInPage();
      await open(page, `/wallets/${wallet.id}/withdrawals`);
      const withdrawal = page.locator(`article[data-withdrawal-id="${requested.body.id}"]`);
      await withdrawal.waitFor();
      const times = await withdrawal
        .locator(".step-detail time")
        .evaluateAll((all) =>
          all.map((time) => ({ at: time.getAttribute("datetime"), title: time.getAttribute("title") ?? "" })),
        );
      // Requested, the instant leg paid, the redeem leg due.
      expect(times.length).toBeGreaterThanOrEqual(3);
      for (const time of times) expect(time.title.replaceAll("\u00a0", " ")).toMatch(/ UTC$/);
      expect(times[0]!.at).toBe(requested.body.createdAt);

      await open(page, "/approvals");
      await page.getByRole("button", { name: "Create and register an approver key" }).click();
      await page.getByText("Registered console approver").waitFor();
      const publicKey = (await page
        .locator("[data-current-approver]")
        .getAttribute("data-current-approver"))!;
      const created = await page.locator(`tr[data-kept-key="${publicKey}"] time`).getAttribute("datetime");
      const now = Date.parse(await sandboxNow());
      // The organization's clock is days ahead of the wall clock; the key was made a moment ago on it.
      expect(now - Date.now()).toBeGreaterThan(6 * DAY_SECONDS * 1000);
      expect(Math.abs(now - Date.parse(created!))).toBeLessThan(60_000);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "58.1: a hung sandbox (its process paused) is reported within seconds, and + 1 hour clicked meanwhile is said maybe applied, then, on resume, found refused as late and not applied; the header's clock marked stale meanwhile",
    async () => {
      const { page, banner } = await walletPageShown("Hung");
      const leadBefore = await organizationLeadMs();
      await page.getByText("Advance time").click();
      sandbox.pause();
      try {
        await page.getByRole("button", { name: "+ 1 hour" }).click();
        // The request timeout is 5 s (api.js): the refusal and the banner come within it and a round.
        const refusal = page.locator(".clock-menu [role=alert]");
        await refusal.waitFor({ timeout: 15_000 });
        // Only what is known: it may have been applied, if the sandbox began it before its deadline.
        expect(await refusal.textContent()).toMatch(
          /^No answer: .* within 5 seconds.* the sandbox refuses it and nothing is applied; if the sandbox began it before then, it may have been applied\./,
        );
        await banner.waitFor({ state: "visible", timeout: 15_000 });
        expect(await banner.textContent()).toContain("did not answer within 5 seconds");
        // The header's clock is the last one read, and says so.
        await eventually(() => page.locator("[data-sandbox-now][data-stale]").textContent()).toMatch(
          /^Sandbox time as of .+, not answering$/,
        );
        expect(await seriousViolations(page)).toEqual([]);
        // The longer words still fit the narrow header.
        await page.setViewportSize({ width: 420, height: 900 });
        expect(await seriousViolations(page)).toEqual([]);
        expect(await offscreenActions(page)).toEqual([]);
      } finally {
        sandbox.resume();
      }
      // On resume the sandbox reads the + 1 hour still in its socket, past its deadline: refused.
      await banner.waitFor({ state: "hidden", timeout: 15_000 });
      expect(await organizationLeadMs()).toBe(leadBefore);
      // And the console, having looked that very request up, says so where it was clicked.
      const followUp = page.locator(".clock-menu [data-follow-up]");
      await followUp.waitFor({ state: "attached", timeout: 15_000 });
      expect(await followUp.getAttribute("data-follow-up")).toBe("refused-late");
      expect(await followUp.textContent()).toContain("Then: not applied (refused as late)");
      expect(await page.locator("[data-sandbox-now][data-stale]").count()).toBe(0);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "58.2: with Sandbox controls open, the console's reads stay out of the request log, and its actions are in it",
    async () => {
      const page = await signedInPage();
      const since = new Date().toISOString();
      const polled = watchRequests(page, "GET", /^\/_sandbox\/faults$/);
      await open(page, "/controls");
      // Three rounds of its reads (the armed faults are read every round, the policy once).
      await eventually(() => polled.length).toBeGreaterThanOrEqual(3);
      await page
        .getByRole("group", { name: "Advance the clock by" })
        .getByRole("button", { name: "+ 1 second" })
        .click();
      await page.getByText("The sandbox clock is now").waitFor();
      const { body } = await api("GET", "/_console/api/requests?limit=200");
      const logged = (body.data as { method: string; path: string; at: string }[])
        .filter((row) => row.at >= since)
        .map((row) => `${row.method} ${row.path}`);
      expect(logged).toEqual(["POST /_sandbox/clock/advance"]);
      await page.close();
    },
    TIMEOUT_MS,
  );

  test(
    "58.3: the rate, Advance by, a fault's path and the weights are refused at their field in the user's words, the rate's hint following what is typed",
    async () => {
      const page = await signedInPage();
      const advances = watchRequests(page, "POST", /\/_sandbox\/clock\/advance$/);
      const creates = watchRequests(page, "POST", /^\/v2\/portfolio-wallets$/);
      for (const width of [1280, 420]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, "/controls");
        const rateForm = page.locator("form", { has: page.getByRole("button", { name: "Set rate" }) });
        const rate = rateForm.getByLabel("Rate (bps)");
        await rate.fill("200000");
        expect(await rateForm.locator(".hint").textContent()).toBe("200000 bps = 2000.00% a year");
        await rateForm.getByRole("button", { name: "Set rate" }).click();
        await eventually(() => rateForm.getByRole("alert").textContent()).toContain(
          "Rate (bps): must be at most 100000 bps (1000.00% a year)",
        );
        expect(await rateForm.getByRole("alert").textContent()).not.toContain("currentRateBps");
        expect(await rate.getAttribute("aria-invalid")).toBe("true");

        const advanceBy = page.locator("#clock-advance-by");
        await advanceBy.getByLabel("Advance by").fill("40000");
        await advanceBy.getByLabel("Unit").selectOption({ label: "days" });
        await advanceBy.getByRole("button", { name: "Advance", exact: true }).click();
        const clockAlert = page.locator(".card", { has: advanceBy }).getByRole("alert");
        await eventually(() => clockAlert.textContent()).toContain("Not sent: 40000 days");
        expect(await advanceBy.locator(".field-error").textContent()).toBe(
          "at most 36500 days (100 years) at once",
        );
        expect(await advanceBy.getByLabel("Advance by").getAttribute("aria-invalid")).toBe("true");

        const faultForm = page.locator("form", { has: page.getByRole("button", { name: "Arm fault" }) });
        await faultForm.getByLabel("Fault", { exact: true }).selectOption("http");
        const path = faultForm.getByLabel("Path pattern");
        await path.fill("v2/portfolio-wallets");
        await faultForm.getByRole("button", { name: "Arm fault" }).click();
        await eventually(() => path.getAttribute("aria-invalid")).toBe("true");
        expect(await faultForm.locator(".field-error").textContent()).toContain("must start with /");
        expect(await faultForm.getByRole("alert").textContent()).toContain("Path pattern: must start with /");
        expect(await seriousViolations(page), `${width}px`).toEqual([]);
        expect(await offscreenActions(page), `${width}px`).toEqual([]);

        await open(page, "/wallets/new");
        const form = page.locator("#new-wallet-form");
        const weights = form.locator("input.weight-input");
        await weights.first().waitFor();
        for (let index = 0; index < (await weights.count()); index += 1)
          await weights.nth(index).fill(index === 0 ? "11000" : index === 1 ? "-1000" : "0");
        const total = form.locator(".weight-total");
        expect(await total.getAttribute("class")).not.toContain("total-ok");
        expect(await total.textContent()).toContain("−1000 is not a weight");
        // The inputs' own limits refuse it at the field, unsent.
        await form.getByRole("button", { name: "Create wallet" }).click();
        expect(await weights.nth(0).evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(
          true,
        );
        expect(await seriousViolations(page), `${width}px`).toEqual([]);
      }
      expect({ advances, creates }).toEqual({ advances: [], creates: [] });
      await page.close();
    },
    TIMEOUT_MS,
  );

  test("no page printed an error", () => {
    expect(pageErrors).toEqual([]);
  });
});
