import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startTestSandbox, uuid, walletBody } from "../helpers.ts";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-persist-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("SQLite persistence", () => {
  test("wallets, strategy updates, webhooks, rates, policies and idempotency keys survive a restart", async () => {
    const first = await startTestSandbox({ dataDir, rebalanceDelayMs: 0 });
    const body = walletBody({ label: "persisted" });
    const created = (await first.api("POST", "/v2/portfolio-wallets", { body })).body;
    await first.api("PATCH", `/v2/portfolio-wallets/${created.id}/strategy`, {
      body: { requestId: uuid(), positions: [{ positionKey: "resolvRlp", targetWeightBps: 10000 }] },
    });
    const hook = (
      await first.api("POST", "/webhooks/registrations", {
        body: { url: "https://example.com/h", eventTypes: ["portfolio_wallet.strategy.status_changed"] },
      })
    ).body;
    await first.api("PUT", "/_sandbox/catalog/tbills/rate", { body: { currentRateBps: 399 } });
    await first.api("PUT", "/_sandbox/policy", { body: { strategyUpdateApprovals: 2 } });
    const before = (await first.api("GET", `/v2/portfolio-wallets/${created.id}`)).body;
    await first.close();

    const second = await startTestSandbox({ dataDir });
    try {
      const after = await second.api("GET", `/v2/portfolio-wallets/${created.id}`);
      expect(after.status).toBe(200);
      expect(after.body).toEqual(before);
      expect(after.body.strategyConfig.positions).toEqual([
        { positionKey: "resolvRlp", targetWeightBps: 10000, maxProcessingTime: "PT168H", asset: "rlp" },
      ]);
      expect((await second.api("GET", `/webhooks/registrations/${hook.id}`)).status).toBe(200);
      const tbills = (await second.api("GET", "/v2/portfolio-wallets/strategies")).body.strategies[0];
      expect(tbills.currentRateBps).toBe(399);
      expect((await second.api("GET", "/_sandbox/policy")).body.strategyUpdateApprovals).toBe(2);
      const replay = await second.api("POST", "/v2/portfolio-wallets", { body });
      expect(replay.status).toBe(200);
      expect(replay.body.id).toBe(created.id);
    } finally {
      await second.close();
    }
  });

  test("a rebalance still processing at shutdown completes after the restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-restart-"));
    try {
      const first = await startTestSandbox({ dataDir: dir, rebalanceDelayMs: 200 });
      const wallet = (await first.api("POST", "/v2/portfolio-wallets", { body: walletBody() })).body;
      const update = await first.api("PATCH", `/v2/portfolio-wallets/${wallet.id}/strategy`, {
        body: { requestId: uuid(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
      });
      expect(update.body.status).toBe("processing");
      await first.close();
      await new Promise((resolve) => setTimeout(resolve, 250));
      const second = await startTestSandbox({ dataDir: dir });
      try {
        const status = await second.api("GET", `/_sandbox/strategy-updates/${update.body.id}`);
        expect(status.body.status).toBe("completed");
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
