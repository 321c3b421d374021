import { randomBytes, randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { verifyWebhookSignature } from "../../../sdk/nodejs/webhooks/index.ts";
import { startReceiver } from "../domain/events/harness/receiver.ts";
import { eventually, offscreenActions, seriousViolations } from "./pageChecks.ts";
import { ensureChromium, launchBrowser, signIn, startCliSandbox, type CliSandbox } from "./harness.ts";

/**
 * Webhooks from end to end in the console (issue 40): registering once, the secret revealed once,
 * a test event, editing and deleting a registration; in Chromium at 1280 and 420 px, against
 * `portfolio-wallet sandbox` run as a user runs it.
 */

const TOKEN_A = `hooks-a-${randomBytes(12).toString("hex")}`;
const TOKEN_B = `hooks-b-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `hooks-admin-${randomBytes(12).toString("hex")}`;
const SCENARIO_TIMEOUT_MS = 120_000;
const DEPOSIT_EVENT = "portfolio_wallet.deposit.status_changed";
const BALANCE_EVENT = "portfolio_wallet.balance.updated";

let sandbox: CliSandbox;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
const pageErrors: string[] = [];

type Registration = { id: string; url: string; status: string; eventTypes: string[] };

const apiA = (method: string, route: string, body?: unknown) => sandbox.api(TOKEN_A, method, route, body);

async function registrationsOf(token: string, url: string): Promise<Registration[]> {
  const { body } = await sandbox.api(token, "GET", "/webhooks/registrations?pageSize=100");
  return (body.data as Registration[]).filter((registration) => registration.url === url);
}

async function signedInPage(width: number): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      pageErrors.push(`console: ${message.text()}`);
  });
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, sandbox.consoleUrl, TOKEN_A, ADMIN_TOKEN);
  return page;
}

async function openWebhooks(page: Page): Promise<void> {
  await page.goto(`${sandbox.consoleUrl}webhooks`);
  await page.locator("#webhook-form input[name=eventTypes]").first().waitFor();
}

beforeAll(async () => {
  const executable = await ensureChromium();
  sandbox = await startCliSandbox({
    tokens: { [TOKEN_A]: "org-a", [TOKEN_B]: "org-b" },
    adminToken: ADMIN_TOKEN,
  });
  ({ context, close: closeBrowser } = await launchBrowser(executable));
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(sandbox.consoleUrl).origin,
  });
}, 20 * 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await sandbox?.close();
});

describe("webhooks in the console", () => {
  for (const width of [1280, 420]) {
    test(
      `at ${width} px: one registration per filled form, the form cleared after it, and a second identical one asked about first`,
      async () => {
        const url = `http://127.0.0.1:9/hooks-${width}-${randomBytes(4).toString("hex")}`;
        const page = await signedInPage(width);
        await openWebhooks(page);
        const form = page.locator("#webhook-form");
        await form.getByLabel("URL").fill(url);
        await form.getByRole("checkbox", { name: DEPOSIT_EVENT }).check();
        await form.getByLabel(/^Description/).fill("twice clicked");
        // A double click sends one registration.
        await form.getByRole("button", { name: "Register webhook" }).dblclick();
        await page.locator("[data-secret-box]").waitFor();
        expect(await registrationsOf(TOKEN_A, url)).toHaveLength(1);
        // The form is back to its start: clicking again registers nothing more.
        expect(await form.getByLabel("URL").inputValue()).toBe("");
        expect(await form.getByLabel(/^Description/).inputValue()).toBe("");
        expect(await form.getByRole("checkbox", { name: DEPOSIT_EVENT }).isChecked()).toBe(false);
        await form.getByRole("button", { name: "Register webhook" }).click();
        expect(
          await form.getByLabel("URL").evaluate((input: HTMLInputElement) => input.validity.valueMissing),
        ).toBe(true);
        expect(await registrationsOf(TOKEN_A, url)).toHaveLength(1);

        // The same URL and event types again: the console asks, and Cancel registers nothing.
        await form.getByLabel("URL").fill(url);
        await form.getByRole("checkbox", { name: DEPOSIT_EVENT }).check();
        await form.getByRole("button", { name: "Register webhook" }).click();
        const dialog = page.getByRole("dialog", { name: "Register this URL a second time?" });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain("deliver every event twice");
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await dialog.waitFor({ state: "detached" });
        expect(await registrationsOf(TOKEN_A, url)).toHaveLength(1);
        // Confirmed, it is made: a second registration is allowed, on purpose.
        await form.getByRole("button", { name: "Register webhook" }).click();
        await dialog.getByRole("button", { name: "Register a second one" }).click();
        await eventually(async () => (await registrationsOf(TOKEN_A, url)).length).toBe(2);
        // Other event types to the same URL are no duplicate: nothing to ask.
        await form.getByLabel("URL").fill(url);
        await form.getByRole("checkbox", { name: DEPOSIT_EVENT }).check();
        await form.getByRole("checkbox", { name: BALANCE_EVENT }).uncheck();
        await form.getByRole("button", { name: "Register webhook" }).click();
        await eventually(async () => (await registrationsOf(TOKEN_A, url)).length).toBe(3);
        expect(await dialog.count()).toBe(0);
        for (const registration of await registrationsOf(TOKEN_A, url))
          expect((await apiA("DELETE", `/webhooks/registrations/${registration.id}`)).status).toBe(204);
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );

    test(
      `at ${width} px: the signing secret in a box of its own, in view, copied with visible feedback, and it verifies deliveries`,
      async () => {
        const receiver = await startReceiver(() => 204);
        try {
          const page = await signedInPage(width);
          await openWebhooks(page);
          const form = page.locator("#webhook-form");
          await form.getByLabel("URL").fill(receiver.url);
          await form.getByRole("button", { name: "Register webhook" }).click();
          const box = page.locator("[data-secret-box]");
          await box.waitFor();
          expect(await box.getByRole("heading").textContent()).toContain("shown once");
          expect(await box.textContent()).toContain("never shows it again");
          const shown = (await box.locator("#webhook-secret").textContent()) ?? "";
          expect(shown).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
          // In view without scrolling, and the request log's answer points at the box instead.
          expect(await box.evaluate((element) => element.contains(document.activeElement))).toBe(true);
          const rect = await box.boundingBox();
          expect(rect).not.toBeNull();
          expect(rect!.x).toBeGreaterThanOrEqual(0);
          expect(rect!.x + rect!.width).toBeLessThanOrEqual(width);
          const inView = await box.evaluate((element) => {
            const { top, bottom } = element.getBoundingClientRect();
            return top >= 0 && bottom <= window.innerHeight;
          });
          expect(inView).toBe(true);
          expect(await form.locator(".request-log").textContent()).not.toContain(shown);

          const copy = box.getByRole("button", { name: "Copy the signing secret" });
          await copy.click();
          await eventually(() => box.locator(".copy-feedback").textContent()).toBe("✓ Copied");
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
          if (width === 420) expect(await offscreenActions(page)).toEqual([]);
          expect(await seriousViolations(page)).toEqual([]);

          // The secret shown is the registration's: it verifies what the receiver gets.
          const [registration] = await registrationsOf(TOKEN_A, receiver.url);
          const wallet = await apiA("POST", "/v2/portfolio-wallets", {
            requestId: randomUUID(),
            label: "Secret check",
            positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
          });
          expect(wallet.status).toBe(201);
          expect(
            (
              await sandbox.api(
                TOKEN_A,
                "POST",
                "/_sandbox/deposits",
                {
                  chain: "ethereum",
                  address: wallet.body.depositAddresses.ethereum.address,
                  amount: 5,
                  txHash: `0x${randomBytes(32).toString("hex")}`,
                },
                true,
              )
            ).status,
          ).toBe(201);
          await eventually(() => receiver.requests.length).toBeGreaterThan(0);
          const delivered = receiver.requests[0]!;
          expect(
            verifyWebhookSignature({ payload: delivered.body, headers: delivered.headers, secret: shown }),
          ).toBe(true);

          await box.getByRole("button", { name: "I have kept it: hide the secret" }).click();
          expect(await page.locator("[data-secret-box]").count()).toBe(0);
          expect(await page.content()).not.toContain(shown);
          expect((await apiA("DELETE", `/webhooks/registrations/${registration!.id}`)).status).toBe(204);
          await page.close();
        } finally {
          await receiver.close();
        }
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: a registration sent a test event (signed as every event, marked test, listed), edited, and deleted`,
      async () => {
        const receiver = await startReceiver(() => 204);
        const moved = await startReceiver(() => 204);
        try {
          const made = await apiA("POST", "/webhooks/registrations", {
            url: receiver.url,
            eventTypes: [BALANCE_EVENT, DEPOSIT_EVENT],
          });
          expect(made.status).toBe(201);
          const { id, secret } = made.body as { id: string; secret: string };
          const page = await signedInPage(width);
          await openWebhooks(page);
          const row = page.locator(`tr[data-registration-id="${id}"]`);
          await row.waitFor();

          // A test event of a chosen type.
          await row.getByRole("button", { name: `Send test event to ${receiver.url}` }).click();
          const testDialog = page.getByRole("dialog", { name: "Send a test event" });
          await testDialog.waitFor();
          if (width === 420) expect(await offscreenActions(page)).toEqual([]);
          expect(await seriousViolations(page)).toEqual([]);
          await testDialog.getByLabel("Event type").selectOption(DEPOSIT_EVENT);
          await testDialog.getByRole("button", { name: "Send test event" }).click();
          await page.getByText("event queued for").waitFor();
          // Real events of the organization's earlier deposits may arrive too: the test one is marked.
          const testEvents = (at: typeof receiver) =>
            at.requests.filter((request) => JSON.parse(request.body).test === true);
          await eventually(() => testEvents(receiver).length).toBe(1);
          const got = testEvents(receiver)[0]!;
          const event = JSON.parse(got.body);
          expect(event).toMatchObject({ type: DEPOSIT_EVENT, test: true });
          expect(verifyWebhookSignature({ payload: got.body, headers: got.headers, secret })).toBe(true);
          const listed = page.locator(`tr[data-delivery-id][data-event-type="${DEPOSIT_EVENT}"]`);
          await eventually(() => listed.count()).toBeGreaterThan(0);

          // Edited: another URL and one event type; the secret stays.
          await row.getByRole("button", { name: `Edit ${receiver.url}` }).click();
          const editDialog = page.getByRole("dialog", { name: "Edit this webhook" });
          await editDialog.waitFor();
          if (width === 420) expect(await offscreenActions(page)).toEqual([]);
          expect(await seriousViolations(page)).toEqual([]);
          // A refused URL shows at its field, and the dialog stays open.
          await editDialog.getByLabel("URL").fill("ftp://example.com/hooks");
          await editDialog.getByRole("button", { name: "Save changes" }).click();
          await editDialog.getByRole("alert").waitFor();
          expect(await editDialog.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
          await editDialog.getByLabel("URL").fill(moved.url);
          await editDialog.getByRole("checkbox", { name: DEPOSIT_EVENT }).uncheck();
          await editDialog.getByRole("button", { name: "Save changes" }).click();
          await editDialog.waitFor({ state: "detached" });
          await eventually(
            async () => (await apiA("GET", `/webhooks/registrations/${id}`)).body,
          ).toMatchObject({
            url: moved.url,
            eventTypes: [BALANCE_EVENT],
          });
          await page.getByRole("button", { name: `Send test event to ${moved.url}` }).click();
          await page
            .getByRole("dialog", { name: "Send a test event" })
            .getByRole("button", { name: "Send test event" })
            .click();
          await eventually(() => testEvents(moved).length).toBe(1);
          const movedEvent = testEvents(moved)[0]!;
          expect(
            verifyWebhookSignature({ payload: movedEvent.body, headers: movedEvent.headers, secret }),
          ).toBe(true);

          // Deleted, after asking; Cancel keeps it.
          await row.getByRole("button", { name: `Delete ${moved.url}` }).click();
          const deleteDialog = page.getByRole("dialog", { name: "Delete this webhook?" });
          await deleteDialog.getByRole("button", { name: "Cancel" }).click();
          expect((await apiA("GET", `/webhooks/registrations/${id}`)).status).toBe(200);
          await row.getByRole("button", { name: `Delete ${moved.url}` }).click();
          await deleteDialog.getByRole("button", { name: "Delete" }).click();
          await row.waitFor({ state: "detached" });
          expect((await apiA("GET", `/webhooks/registrations/${id}`)).status).toBe(404);
          await page.close();
        } finally {
          await receiver.close();
          await moved.close();
        }
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: an inbox made on the Webhooks page, registered, and its page: deliveries with their signature checked, retries under a configured answer, one delivery's headers and body`,
      async () => {
        const name = `console-${width}`;
        const page = await signedInPage(width);
        await openWebhooks(page);
        const inboxForm = page.locator("#inbox-form");
        await inboxForm.getByLabel("Inbox name").fill(name);
        await inboxForm.getByRole("button", { name: "Make inbox" }).click();
        const listed = page.locator(`tr[data-inbox="${name}"]`);
        await listed.waitFor();
        const url = `${sandbox.url}/_sandbox/inboxes/${name}`;
        expect(await listed.textContent()).toContain(url);
        await listed.getByRole("button", { name: `Copy the URL of inbox ${name}` }).click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);

        const made = await apiA("POST", "/webhooks/registrations", { url, eventTypes: [BALANCE_EVENT] });
        expect(made.status).toBe(201);
        await listed.getByRole("link", { name: `Open inbox ${name}` }).click();
        await page.getByRole("heading", { name: `Inbox ${name}`, level: 1 }).waitFor();
        const retried = width === 1280;
        if (retried) {
          // One read of the inbox gets no answer: the page says so where the inbox's facts were,
          // and the next read draws them again, though they have not changed.
          const facts = page.getByText("URL to register");
          await facts.waitFor();
          await page.route(new RegExp(`/_sandbox/inboxes/${name}$`), (route) => route.abort(), { times: 1 });
          await page.locator("p.notice-bad", { hasText: "The sandbox did not answer" }).waitFor();
          await facts.waitFor();
        }
        // At one width (retries wait on the real clock): answer 503, and the delivery's attempts
        // arrive one by one, each recorded with that answer; then 200, and the next retry gets through.
        const answerForm = page.locator("#inbox-answer-form");
        if (retried) {
          await answerForm.getByLabel("Status code").fill("503");
          await answerForm.getByRole("button", { name: "Save answer" }).click();
          await page.getByText(`Inbox ${name} now answers 503 at once.`).waitFor();
        }
        const sent = await apiA("POST", `/_console/api/webhook-registrations/${made.body.id}/test-events`, {
          eventType: BALANCE_EVENT,
        });
        expect(sent.status).toBe(201);
        const rows = page.locator("tr[data-inbox-delivery-id]");
        if (retried) {
          await eventually(() => rows.count()).toBeGreaterThanOrEqual(2);
          expect(await rows.nth(1).textContent()).toContain("503 at once");
          await answerForm.getByLabel("Status code").fill("200");
          await answerForm.getByRole("button", { name: "Save answer" }).click();
        }
        await eventually(async () => {
          const { body } = await sandbox.api(
            TOKEN_A,
            "GET",
            `/_sandbox/webhook-deliveries?registrationId=${made.body.id}`,
            undefined,
            true,
          );
          return body.data[0]?.status;
        }).toBe("succeeded");
        await eventually(() => rows.first().textContent()).toContain("200 at once");
        expect(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-signature")))).toEqual(
          Array.from({ length: await rows.count() }, () => "valid"),
        );
        await rows
          .first()
          .getByRole("button", { name: /^Inspect the / })
          .click();
        const detail = page
          .locator("[data-inbox-delivery-id]")
          .filter({ has: page.locator("dl.header-list") });
        await detail.waitFor();
        const eventId = await rows.first().getAttribute("data-event-id");
        expect(await detail.locator("dl.header-list").textContent()).toContain(
          `x-portfolio-event-id${eventId}`,
        );
        expect(await detail.locator("pre").textContent()).toContain(`"id": "${eventId}"`);
        expect(await detail.textContent()).toContain("verified");
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);

        // Another organization's address for the same name shows nothing of it.
        expect((await sandbox.api(TOKEN_B, "GET", `/_sandbox/inboxes/${name}`)).status).toBe(404);
        expect((await apiA("DELETE", `/webhooks/registrations/${made.body.id}`)).status).toBe(204);
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  test("organization B can neither test, edit nor delete A's registration", async () => {
    const made = await apiA("POST", "/webhooks/registrations", {
      url: "http://127.0.0.1:9/a-only",
      eventTypes: [BALANCE_EVENT],
    });
    const id = made.body.id as string;
    const asB = (method: string, route: string, body?: unknown) => sandbox.api(TOKEN_B, method, route, body);
    expect(
      (
        await asB("POST", `/_console/api/webhook-registrations/${id}/test-events`, {
          eventType: BALANCE_EVENT,
        })
      ).status,
    ).toBe(404);
    expect(
      (await asB("PATCH", `/_console/api/webhook-registrations/${id}`, { url: "http://127.0.0.1:9/b" }))
        .status,
    ).toBe(404);
    expect((await asB("DELETE", `/webhooks/registrations/${id}`)).status).toBe(404);
    expect((await apiA("GET", `/webhooks/registrations/${id}`)).body.url).toBe("http://127.0.0.1:9/a-only");
    expect((await apiA("DELETE", `/webhooks/registrations/${id}`)).status).toBe(204);
  });

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: the Events page lists the organization's requests newest first, filtered in its address, with redacted bodies on demand, and its webhook events`,
      async () => {
        const made = await apiA("POST", "/v2/portfolio-wallets", {
          requestId: randomUUID(),
          label: `Events ${width}`,
          positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
        });
        expect(made.status).toBe(201);
        const walletId = made.body.id as string;
        const hook = await apiA("POST", "/webhooks/registrations", {
          url: "http://127.0.0.1:9/events-page",
          eventTypes: [BALANCE_EVENT],
        });
        const missing = await apiA("GET", `/v2/portfolio-wallets/${randomUUID()}`);
        expect(missing.status).toBe(404);
        const page = await signedInPage(width);
        await page.goto(`${sandbox.consoleUrl}events?walletId=${walletId}`);
        const rows = page.locator("tr[data-request-id]");
        await rows.first().waitFor();
        // Filtered by the wallet from the address: only the creation of this wallet.
        expect(await rows.count()).toBe(1);
        expect(await rows.first().textContent()).toContain("POST /v2/portfolio-wallets");
        expect(await page.getByLabel("Wallet", { exact: true }).inputValue()).toBe(walletId);
        const walletLink = rows.first().getByRole("link", { name: `Wallet id ${walletId}` });
        expect(await walletLink.getAttribute("href")).toBe(`/_console/wallets/${walletId}`);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);

        // Any id found from the search box opens its page; another organization's is not found.
        await page.getByLabel("Find any id").fill(walletId);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => new URL(page.url()).pathname).toBe(`/_console/wallets/${walletId}`);
        await page.goto(`${sandbox.consoleUrl}events?walletId=${walletId}`);
        const theirs = await sandbox.api(TOKEN_B, "POST", "/v2/portfolio-wallets", {
          requestId: randomUUID(),
          label: "B's",
          positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
        });
        await page.getByLabel("Find any id").fill(theirs.body.id);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await page.getByText(`Nothing of id ${theirs.body.id} in this organization.`).waitFor();
        await rows.first().waitFor();

        // Other filters go to the address too, and what matches follows.
        await page.getByLabel("Wallet", { exact: true }).fill("");
        await page.getByLabel("Status", { exact: true }).selectOption("4xx");
        await eventually(() => new URL(page.url()).search).toBe("?status=4xx");
        await eventually(async () =>
          (await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-status")))).every(
            (status) => String(status).startsWith("4"),
          ),
        ).toBe(true);
        await page.locator(`tr[data-request-id="${missing.body.error.requestId}"]`).waitFor();
        await page.reload();
        await page.locator(`tr[data-request-id="${missing.body.error.requestId}"]`).waitFor();
        expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("4xx");

        // The webhook registration's bodies: the secret is redacted in the log.
        await page.goto(`${sandbox.consoleUrl}events?method=POST`);
        const creation = page
          .locator("tr[data-request-id]")
          .filter({ hasText: "/webhooks/registrations" })
          .first();
        await creation.getByRole("button", { name: /^Bodies of POST \/webhooks\/registrations/ }).click();
        const shown = page.locator("#request-bodies");
        await shown.getByText("Answer body (201)").waitFor();
        expect(await shown.textContent()).toContain("[redacted]");
        expect(await shown.textContent()).not.toContain(hook.body.secret);
        expect(await seriousViolations(page)).toEqual([]);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        expect((await apiA("DELETE", `/webhooks/registrations/${hook.body.id}`)).status).toBe(204);
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  test("no page error, and no secret of a registration in the sandbox's output", () => {
    expect(pageErrors).toEqual([]);
    expect(sandbox.output()).not.toMatch(/whsec_/);
    for (const token of [TOKEN_A, TOKEN_B, ADMIN_TOKEN]) expect(sandbox.output()).not.toContain(token);
  });
});
