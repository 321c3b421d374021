import { randomBytes, randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { eventually, offscreenActions, seriousViolations } from "./pageChecks.ts";
import { ensureChromium, launchBrowser, signIn, startCliSandbox, type CliSandbox } from "./harness.ts";

/**
 * Issue 40, what was left of Deliver 2: every wallet, deposit, withdrawal, strategy update,
 * signing activity and webhook delivery has a console address of its own that shows it, reached
 * from Find any id and linked from the Events page; another organization's id shows nothing of it.
 * Issue 58: each object's own page at /ids/{id} (its whole id with Copy, timeline, related objects,
 * JSON), every id shown whole and copyable, and every form of an id the console shows taken by
 * Find and the Events filters or refused at the field.
 * In Chromium at 1280 and 420 px, against `portfolio-wallet sandbox` run as a user runs it.
 */

const TOKEN_A = `ids-a-${randomBytes(12).toString("hex")}`;
const TOKEN_B = `ids-b-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `ids-admin-${randomBytes(12).toString("hex")}`;
const SCENARIO_TIMEOUT_MS = 180_000;
const PAYOUT_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const DEPOSIT_EVENT = "portfolio_wallet.deposit.status_changed";

let sandbox: CliSandbox;
let context: BrowserContext;
let closeBrowser: () => Promise<void>;
const pageErrors: string[] = [];

/** One organization's items, made through the API and the admin API as a user's program would. */
type Items = {
  walletId: string;
  depositId: string;
  withdrawalId: string;
  activityId: string;
  deliveryId: string;
};

async function itemsOf(token: string, label: string): Promise<Items> {
  const api = (method: string, route: string, body?: unknown, admin = false) =>
    sandbox.api(token, method, route, body, admin);
  const wallet = await api("POST", "/v2/portfolio-wallets", {
    requestId: randomUUID(),
    label,
    positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
  });
  expect(wallet.status).toBe(201);
  const walletId = wallet.body.id as string;
  // Several deposits, so the one picked out is not simply the only row.
  for (const amount of [1000, 2000, 3000]) {
    const funded = await api(
      "POST",
      "/_sandbox/deposits",
      {
        chain: "ethereum",
        address: wallet.body.depositAddresses.ethereum.address,
        amount,
        txHash: `0x${randomBytes(32).toString("hex")}`,
      },
      true,
    );
    expect(funded.status).toBe(201);
  }
  expect((await api("POST", "/_sandbox/clock/advance", { seconds: 2 }, true)).status).toBe(200);
  const deposits = await api("GET", `/v2/portfolio-wallets/${walletId}/deposits?pageSize=10`);
  const depositId = (deposits.body.data as { id: string; amountUsd: number }[]).find(
    (deposit) => deposit.amountUsd === 2000,
  )!.id;
  expect((await api("PUT", "/_sandbox/policy", { withdrawalApprovals: 1 }, true)).status).toBe(200);
  const withdrawal = await api("POST", `/v2/portfolio-wallets/${walletId}/withdraw`, {
    requestId: randomUUID(),
    withdrawalAmount: 100,
    destinationToken: "usdc",
    destinationChain: "ethereum",
    destinationAddress: PAYOUT_ADDRESS,
  });
  expect(withdrawal.status).toBe(201);
  expect(withdrawal.body.status).toBe("pending_approval");
  expect((await api("PUT", "/_sandbox/policy", { withdrawalApprovals: 0 }, true)).status).toBe(200);
  // The newest delivery is of this wallet's last deposit event (queued as the clock moved).
  const { body: listed } = await api("GET", "/_console/api/webhook-deliveries?limit=1");
  const deliveryId = (listed.data as { id: string }[])[0]!.id;
  return {
    walletId,
    depositId,
    withdrawalId: withdrawal.body.id,
    activityId: withdrawal.body.signingActivityId,
    deliveryId,
  };
}

/** An object's page as the console API answers it. */
const objectOf = async (id: string) =>
  (await sandbox.api(TOKEN_A, "GET", `/_console/api/objects/${id}`)).body;

/** Whether the page is wider than the window (something pushed it sideways). */
const pageOverflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);

/** Ids cut short ("86e31107-6970…6fd5", "0x4afc…36a0"), which nothing can be pasted from. */
const SHORTENED_ID = /[0-9a-fA-F]{4,}(?:-[0-9a-fA-F]*)?…[0-9a-fA-F]{3,}/;

/** Each organization's one webhook registration, by token. */
const hooks = new Map<string, string>();
let mine: Items;
let theirs: Items;
/** A second wallet of organization A, with webhook events of its own. */
let second: string;
/** A strategy update of organization A's first wallet. */
let updateId: string;

/** Each item's own address, and the element of the page that is the item. */
const addresses = (items: Items) => [
  { kind: "wallet", id: items.walletId, path: `/wallets/${items.walletId}`, item: null },
  {
    kind: "deposit",
    id: items.depositId,
    path: `/wallets/${items.walletId}/deposits/${items.depositId}`,
    item: `[data-deposit-id="${items.depositId}"]`,
  },
  {
    kind: "withdrawal",
    id: items.withdrawalId,
    path: `/wallets/${items.walletId}/withdrawals/${items.withdrawalId}`,
    item: `[data-withdrawal-id="${items.withdrawalId}"]`,
  },
  {
    kind: "signing activity",
    id: items.activityId,
    path: `/approvals/${items.activityId}`,
    item: `[data-activity-id="${items.activityId}"]`,
  },
  {
    kind: "webhook delivery",
    id: items.deliveryId,
    path: `/webhooks/deliveries/${items.deliveryId}`,
    item: `.delivery-detail [data-delivery-id="${items.deliveryId}"]`,
  },
];

async function signedInPage(width: number): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      pageErrors.push(`console: ${message.text()}`);
  });
  await page.setViewportSize({ width, height: 800 });
  await signIn(page, sandbox.consoleUrl, TOKEN_A, ADMIN_TOKEN);
  return page;
}

/** Whether the element is inside the window now (scrolled into view, not merely on the page). */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
  });

beforeAll(async () => {
  const executable = await ensureChromium();
  sandbox = await startCliSandbox({
    tokens: { [TOKEN_A]: "org-a", [TOKEN_B]: "org-b" },
    adminToken: ADMIN_TOKEN,
  });
  ({ context, close: closeBrowser } = await launchBrowser(executable));
  for (const token of [TOKEN_A, TOKEN_B]) {
    const hook = await sandbox.api(token, "POST", "/webhooks/registrations", {
      url: "http://127.0.0.1:9/hook",
      eventTypes: [DEPOSIT_EVENT],
    });
    expect(hook.status).toBe(201);
    hooks.set(token, hook.body.id);
  }
  mine = await itemsOf(TOKEN_A, "mine");
  theirs = await itemsOf(TOKEN_B, "theirs");
  second = (await itemsOf(TOKEN_A, "second")).walletId;
  const update = await sandbox.api(TOKEN_A, "PATCH", `/v2/portfolio-wallets/${mine.walletId}/strategy`, {
    requestId: randomUUID(),
    positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
  });
  expect(update.status).toBe(200);
  updateId = update.body.id;
}, 20 * 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await sandbox?.close();
});

describe("every item has an address of its own", () => {
  for (const width of [1280, 420]) {
    test(
      `at ${width} px: each item's address shows it, picked out and in view; Find any id and the Events page lead there`,
      async () => {
        const page = await signedInPage(width);
        for (const { kind, path, item } of addresses(mine)) {
          await page.goto(`${sandbox.consoleUrl}${path.slice(1)}`);
          if (item === null) {
            await page.locator(`[data-stat="totalBalanceUsd"]`).waitFor();
            expect(await page.locator("h1").textContent()).toBe("mine");
          } else {
            await page.locator(item).waitFor();
            await eventually(async () => [kind, await inView(page, item)]).toEqual([kind, true]);
            if (kind !== "webhook delivery") {
              // Picked out from its neighbours, for the eye and for a screen reader: the page marks
              // it once its list has drawn, which a busy machine shows after the item itself.
              await eventually(async () => [
                kind,
                await page.locator(item).getAttribute("aria-current"),
              ]).toEqual([kind, "true"]);
              expect(await page.locator(".focused-item").count()).toBe(1);
            }
          }
          expect(await seriousViolations(page), `${kind} at ${width}`).toEqual([]);
          if (width === 420) expect(await offscreenActions(page), `${kind} at ${width}`).toEqual([]);
        }
        for (const { kind, id } of addresses(mine)) {
          // The same item from the search box, and at its bare-id address: its own page (a wallet's is its wallet page).
          const own = kind === "wallet" ? `/_console/wallets/${id}` : `/_console/ids/${id}`;
          await page.goto(`${sandbox.consoleUrl}events`);
          await page.getByLabel("Find any id").fill(id);
          await page.getByRole("button", { name: "Find", exact: true }).click();
          await eventually(() => new URL(page.url()).pathname).toBe(own);
          await page.goto(`${sandbox.consoleUrl}ids/${id}`);
          await eventually(() => new URL(page.url()).pathname).toBe(own);
        }

        // The Events page's webhook events link each delivery's address.
        await page.goto(`${sandbox.consoleUrl}events`);
        const delivery = page.locator(`tr[data-delivery-id="${mine.deliveryId}"]`);
        await delivery.locator("a[data-delivery-link]").click();
        await eventually(() => new URL(page.url()).pathname).toBe(
          `/_console/webhooks/deliveries/${mine.deliveryId}`,
        );
        await page.locator(`.delivery-detail [data-delivery-id="${mine.deliveryId}"]`).waitFor();

        // Another organization's ids, at any of these addresses: nothing of them, and nothing of theirs shown.
        for (const { kind, id, path } of addresses(theirs)) {
          await page.goto(`${sandbox.consoleUrl}${path.slice(1)}`);
          // A wallet's address keeps its own page for that ("Wallet not found", console.waiting.engine.test.ts).
          await page
            .getByText(
              kind === "wallet" ? `There is no wallet ${id}` : `Nothing of id ${id} in this organization.`,
            )
            .first()
            .waitFor();
          const text = (await page.locator("main").textContent()) ?? "";
          expect(text, kind).not.toContain("theirs");
          expect(await page.locator(".focused-item").count(), kind).toBe(0);
          expect(await seriousViolations(page), `their ${kind} at ${width}`).toEqual([]);
          await page.goto(`${sandbox.consoleUrl}ids/${id}`);
          await page.getByText(`Nothing of id ${id} in this organization.`).first().waitFor();
        }
        // Their deposit's id under my wallet's address is no deposit of mine either.
        await page.goto(`${sandbox.consoleUrl}wallets/${mine.walletId}/deposits/${theirs.depositId}`);
        await page.getByText(`Nothing of id ${theirs.depositId} in this organization.`).waitFor();
        expect(await page.locator(".focused-item").count()).toBe(0);
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: the Events page's webhook events filtered by wallet, the filter kept in the address`,
      async () => {
        const page = await signedInPage(width);
        const rows = page.locator("tr[data-delivery-id]");
        // Unfiltered, both wallets' events are listed.
        await page.goto(`${sandbox.consoleUrl}events`);
        await rows.first().waitFor();
        const walletsListed = () =>
          rows.evaluateAll((all) =>
            [
              ...new Set(all.map((row) => row.getAttribute("data-wallet-id")).filter((id) => id !== null)),
            ].sort(),
          );
        await eventually(walletsListed).toEqual([mine.walletId, second].sort());
        // Filtered from the form: the address keeps it, and only that wallet's events remain.
        await page.getByLabel("Wallet", { exact: true }).fill(second);
        await page.getByLabel("Wallet", { exact: true }).press("Enter");
        await page.getByLabel("Wallet", { exact: true }).blur();
        await eventually(() => new URL(page.url()).searchParams.get("walletId")).toBe(second);
        await eventually(walletsListed).toEqual([second]);
        const { body: expected } = await sandbox.api(
          TOKEN_A,
          "GET",
          `/_console/api/webhook-deliveries?limit=50&walletId=${second}`,
        );
        expect(expected.data.length).toBeGreaterThan(0);
        expect(await rows.count()).toBe(expected.data.length);
        // Kept across a reload, with the event type filter beside it.
        await page.getByLabel("Event type", { exact: true }).selectOption(DEPOSIT_EVENT);
        await eventually(() => new URL(page.url()).searchParams.get("eventType")).toBe(DEPOSIT_EVENT);
        await page.reload();
        await rows.first().waitFor();
        expect(await page.getByLabel("Wallet", { exact: true }).inputValue()).toBe(second);
        await eventually(walletsListed).toEqual([second]);
        expect(await seriousViolations(page)).toEqual([]);
        if (width === 420) expect(await offscreenActions(page)).toEqual([]);
        // Another organization's wallet: no event of it.
        await page.goto(`${sandbox.consoleUrl}events?walletId=${theirs.walletId}`);
        await page.getByText("No webhook events match these filters yet.").waitFor();

        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: a test event is marked as one in the Events page's and the Webhooks page's lists of deliveries`,
      async () => {
        const page = await signedInPage(width);
        // A test event sent to the registration: marked as one in both lists, and the others not.
        const sent = await sandbox.api(
          TOKEN_A,
          "POST",
          `/_console/api/webhook-registrations/${hooks.get(TOKEN_A)}/test-events`,
          { eventType: DEPOSIT_EVENT },
        );
        expect(sent.status).toBe(201);
        for (const path of ["events", "webhooks"]) {
          await page.goto(`${sandbox.consoleUrl}${path}`);
          const testRow = page.locator(`tr[data-delivery-id="${sent.body.id}"]`);
          await testRow.waitFor();
          expect(await testRow.locator("[data-test-event]").textContent(), path).toBe("test event");
          expect(await testRow.textContent(), path).toContain("test event");
          const realRow = page.locator(`tr[data-delivery-id="${mine.deliveryId}"]`);
          await realRow.waitFor();
          expect(await realRow.locator("[data-test-event]").count(), path).toBe(0);
          expect(await seriousViolations(page), `${path} at ${width}`).toEqual([]);
          if (width === 420) expect(await offscreenActions(page), `${path} at ${width}`).toEqual([]);
        }
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: each object's own page shows its whole id with Copy, its timeline, what it relates to and its JSON`,
      async () => {
        const page = await signedInPage(width);
        const pages = [
          { kind: "deposit", id: mine.depositId, title: "Deposit" },
          { kind: "withdrawal", id: mine.withdrawalId, title: "Withdrawal" },
          { kind: "strategy_update", id: updateId, title: "Strategy update" },
          { kind: "signing_activity", id: mine.activityId, title: "Signing activity" },
          { kind: "webhook_registration", id: hooks.get(TOKEN_A)!, title: "Webhook registration" },
          { kind: "webhook_delivery", id: mine.deliveryId, title: "Webhook delivery" },
        ];
        for (const { kind, id, title } of pages) {
          // The delivery to a closed port is retried while the test runs: an attempt may land
          // between the page's read and the test's, so the page must show the answer of either.
          const before = await objectOf(id);
          await page.goto(`${sandbox.consoleUrl}ids/${id}`);
          const root = page.locator(`[data-object-kind="${kind}"][data-object-id="${id}"]`);
          await root.waitFor();
          expect(await page.locator("h1").textContent(), kind).toBe(title);
          // The id whole, with its Copy button, under the heading.
          const shownId = page.locator(".page-header .whole-id");
          expect(await shownId.locator(".whole-id-text").textContent(), kind).toBe(id);
          expect(await shownId.getByRole("button", { name: /^Copy the / }).count(), kind).toBe(1);
          // The JSON, as the API answers it.
          const api = await objectOf(id);
          const json =
            (await page
              .locator("#object-json-heading + * pre, section[aria-labelledby=object-json-heading] pre")
              .first()
              .textContent()) ?? "";
          expect([before.object, api.object], kind).toContainEqual(JSON.parse(json));
          // One timeline, as the console API gives it; the request that made it named, leading to the Events page.
          await eventually(async () => [kind, await root.locator(".object-step").count()]).toEqual([
            kind,
            api.timeline.length,
          ]);
          expect(api.timeline.length, kind).toBeGreaterThan(0);
          if (api.madeBy !== null) {
            const madeBy = root.locator(`[data-step="request"] a[data-made-by="${api.madeBy.requestId}"]`);
            expect(await madeBy.count(), kind).toBe(1);
          }
          // Its related objects, each linked: a wallet to its page, the others to theirs.
          for (const related of api.related.filter((item: { exists: boolean }) => item.exists)) {
            const href = await root
              .locator(`[data-related-id="${related.id}"] a`)
              .first()
              .getAttribute("href");
            expect(href, `${kind} → ${related.kind}`).toBe(
              related.kind === "wallet" ? `/_console/wallets/${related.id}` : `/_console/ids/${related.id}`,
            );
          }
          expect(await seriousViolations(page), `${kind} at ${width}`).toEqual([]);
          if (width === 420) {
            expect(await offscreenActions(page), `${kind} at ${width}`).toEqual([]);
            expect(await pageOverflows(page), `${kind} at ${width}`).toBe(false);
          }
        }
        // The deposit's page: made by the admin call that simulated it; its events with their deliveries, each linked to its page.
        const deposit = await objectOf(mine.depositId);
        expect(deposit.madeBy).toMatchObject({ method: "POST", path: "/_sandbox/deposits" });
        expect(deposit.related).toEqual([
          { kind: "wallet", id: mine.walletId, walletId: mine.walletId, relation: "wallet", exists: true },
        ]);
        await page.goto(`${sandbox.consoleUrl}ids/${mine.depositId}`);
        const event = page.locator('[data-step="event"]').first();
        await event.waitFor();
        await event.locator("[data-delivery-id] a").first().click();
        await eventually(() => new URL(page.url()).pathname).toMatch(/^\/_console\/ids\/[0-9a-f-]{36}$/);
        await page.locator('[data-object-kind="webhook_delivery"]').waitFor();
        // The withdrawal's page leads to its approval, and the approval's back to it.
        await page.goto(`${sandbox.consoleUrl}ids/${mine.withdrawalId}`);
        await page.locator(`[data-related-id="${mine.activityId}"] a`).first().click();
        await page
          .locator(`[data-object-kind="signing_activity"][data-object-id="${mine.activityId}"]`)
          .waitFor();
        await page.locator(`[data-related-id="${mine.withdrawalId}"] a`).first().click();
        await page
          .locator(`[data-object-kind="withdrawal"][data-object-id="${mine.withdrawalId}"]`)
          .waitFor();
        // Copy puts the whole id on the clipboard.
        if (width === 1280) {
          await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sandbox.url });
          await page.locator(".page-header .whole-id").getByRole("button").click();
          await eventually(() => page.locator(".page-header .whole-id .copy-feedback").textContent()).toBe(
            "✓ Copied",
          );
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(mine.withdrawalId);
        }
        // Another organization's object: nothing of it.
        await page.goto(`${sandbox.consoleUrl}ids/${theirs.withdrawalId}`);
        await page.getByText(`Nothing of id ${theirs.withdrawalId} in this organization.`).waitFor();
        expect((await page.locator("main").textContent()) ?? "").not.toContain("theirs");
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: every id shown whole and copyable, the rows of deposits, withdrawals, strategy updates and registrations with theirs`,
      async () => {
        const page = await signedInPage(width);
        const shows = [
          {
            path: `wallets/${mine.walletId}/deposits`,
            row: `[data-deposit-id="${mine.depositId}"]`,
            id: mine.depositId,
          },
          {
            path: `wallets/${mine.walletId}/withdrawals`,
            row: `[data-withdrawal-id="${mine.withdrawalId}"]`,
            id: mine.withdrawalId,
          },
          { path: `wallets/${mine.walletId}/strategy`, row: `[data-update-id="${updateId}"]`, id: updateId },
          {
            path: "webhooks",
            row: `[data-registration-id="${hooks.get(TOKEN_A)}"]`,
            id: hooks.get(TOKEN_A)!,
          },
          { path: "approvals", row: `[data-activity-id="${mine.activityId}"]`, id: mine.activityId },
          { path: "events", row: `tr[data-delivery-id="${mine.deliveryId}"]`, id: mine.deliveryId },
          { path: "wallets", row: "main", id: mine.walletId },
          { path: `wallets/${mine.walletId}`, row: ".page-header", id: mine.walletId },
        ];
        for (const { path, row, id } of shows) {
          await page.goto(`${sandbox.consoleUrl}${path}`);
          const item = page.locator(row).first();
          await item.waitFor();
          const whole = item.locator(`.whole-id[data-whole-id="${id}"]`).first();
          await whole.waitFor();
          expect(await whole.locator(".whole-id-text").textContent(), path).toBe(id);
          expect(await whole.getByRole("button", { name: /^Copy the / }).count(), path).toBe(1);
          // Its link, where it has one, is the object's own page.
          if ((await whole.locator("a").count()) > 0 && !path.startsWith("wallets"))
            expect(await whole.locator("a").first().getAttribute("href"), path).toBe(`/_console/ids/${id}`);
          // No id anywhere on the page is cut short.
          expect(((await page.locator("main").textContent()) ?? "").match(SHORTENED_ID), path).toBeNull();
          if (width === 420) {
            expect(await pageOverflows(page), `${path} at ${width}`).toBe(false);
            expect(await offscreenActions(page), `${path} at ${width}`).toEqual([]);
          }
          // axe runs on each of these pages at both widths in console.waiting.engine.test.ts.
        }
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  for (const width of [1280, 420]) {
    test(
      `at ${width} px: Find and the Events filters take every form of an id the console shows, and refuse the others at their field`,
      async () => {
        const page = await signedInPage(width);
        const banner = page.locator("#live-banner");
        const cutShort = `${second.slice(0, 13)}…${second.slice(-4)}`;
        // The wallet filter given an id cut short: refused at the field, no outage banner, no rows shown as filtered.
        await page.goto(`${sandbox.consoleUrl}events`);
        await page.locator("tr[data-delivery-id]").first().waitFor();
        const walletFilter = page.getByLabel("Wallet", { exact: true });
        await walletFilter.fill(cutShort);
        await walletFilter.press("Enter");
        await walletFilter.blur();
        await eventually(() => walletFilter.getAttribute("aria-invalid")).toBe("true");
        const said = page.locator("#events-walletId-error");
        expect(await said.textContent()).toContain("cut short");
        expect(await walletFilter.getAttribute("aria-describedby")).toContain("events-walletId-error");
        await eventually(() => page.locator("[data-filter-refused]").count()).toBe(2);
        expect(await page.locator("tr[data-delivery-id], tr[data-request-id]").count()).toBe(0);
        expect(await banner.isHidden()).toBe(true);
        expect(await seriousViolations(page), `refused filter at ${width}`).toEqual([]);
        // The whole id in capitals, with the spaces a paste brings: taken, and only that wallet's events listed.
        await walletFilter.fill(`  ${second.toUpperCase()} `);
        await walletFilter.blur();
        await eventually(() => walletFilter.getAttribute("aria-invalid")).toBeNull();
        await eventually(() =>
          page
            .locator("tr[data-delivery-id]")
            .evaluateAll((rows) => [...new Set(rows.map((row) => row.getAttribute("data-wallet-id")))]),
        ).toEqual([second]);
        expect(await banner.isHidden()).toBe(true);

        // Find given an id cut short: refused at the field, nothing sent, the page stays.
        await page.goto(`${sandbox.consoleUrl}events`);
        const find = page.getByLabel("Find any id");
        await find.fill(`${mine.depositId.slice(0, 13)}…${mine.depositId.slice(-4)}`);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => find.getAttribute("aria-invalid")).toBe("true");
        expect(await page.locator("#find-id-outcome").textContent()).toContain("cut short");
        expect(new URL(page.url()).pathname).toBe("/_console/events");
        // Typing again clears the refusal.
        await find.fill(mine.depositId.toUpperCase());
        expect(await find.getAttribute("aria-invalid")).toBeNull();
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => new URL(page.url()).pathname).toBe(`/_console/ids/${mine.depositId}`);

        // Find given a request id: what that request made (the withdrawal its POST made) ...
        const made = (await objectOf(mine.withdrawalId)).madeBy.requestId as string;
        await page.goto(`${sandbox.consoleUrl}events`);
        await find.fill(made);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => new URL(page.url()).pathname).toBe(`/_console/ids/${mine.withdrawalId}`);
        await page
          .locator(`[data-object-kind="withdrawal"][data-object-id="${mine.withdrawalId}"]`)
          .waitFor();
        // ... and a request that made nothing: the Events page showing that request alone.
        const { body: puts } = await sandbox.api(TOKEN_A, "GET", "/_console/api/requests?method=PUT&limit=1");
        const policyRequest = puts.data[0].requestId as string;
        await page.goto(`${sandbox.consoleUrl}events`);
        await find.fill(policyRequest);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => new URL(page.url()).searchParams.get("requestId")).toBe(policyRequest);
        await eventually(() =>
          page
            .locator("tr[data-request-id]")
            .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-request-id"))),
        ).toEqual([policyRequest]);
        expect(await page.getByLabel("Request id", { exact: true }).inputValue()).toBe(policyRequest);
        expect(await page.getByText("Webhook events are not made by a request").count()).toBe(1);
        // A withdrawal's requestId (the client's idempotency key, in its JSON) finds the withdrawal too.
        const clientRequestId = (await objectOf(mine.withdrawalId)).object.requestId as string;
        await find.fill(clientRequestId);
        await page.getByRole("button", { name: "Find", exact: true }).click();
        await eventually(() => new URL(page.url()).pathname).toBe(`/_console/ids/${mine.withdrawalId}`);
        expect(await seriousViolations(page), `found at ${width}`).toEqual([]);
        await page.close();
      },
      SCENARIO_TIMEOUT_MS,
    );
  }

  test("no page error", () => {
    expect(pageErrors).toEqual([]);
  });
});
