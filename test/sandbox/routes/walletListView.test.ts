import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { OTHER_TOKEN } from "../helpers.ts";
import * as money from "../moneyHelpers.ts";

/**
 * A page of the wallet list reads its wallets' rows in a few statements for the whole page
 * (sandbox/domain/walletView.ts walletViews), a wallet read alone in its own: each listed wallet
 * must be exactly what reading it alone answers, whatever it holds.
 */

const sandbox = money.useMoneySandbox();

test("every wallet on a page of the list is the wallet its own read answers, to the micro", async () => {
  const m = sandbox();
  const empty = await m.client.wallets.create({
    requestId: randomUUID(),
    label: "empty",
    positions: [
      { positionKey: "tbills", targetWeightBps: 5000 },
      { positionKey: "syrupUsdc", targetWeightBps: 5000 },
    ],
  });
  const funded = await money.fundedWallet(m, 1_000);
  // Money left in a position the new allocation no longer targets, until the rebalance completes.
  const reweighted = await money.fundedWallet(m, 2_500);
  await m.client.wallets.updateStrategy(reweighted, {
    requestId: randomUUID(),
    positions: [
      { positionKey: "resolvRlp", targetWeightBps: 3000 },
      { positionKey: "syrupUsdc", targetWeightBps: 7000 },
    ],
  });
  // A wallet that will have deposits pending allocation, and a withdrawal drawing from another.
  const pending = await money.fundedWallet(m, 700);
  await m.client.withdrawals.create(funded, money.withdrawBody(100));
  // Another organization's wallet, never on this one's list.
  const other = await m.t.api("POST", "/v2/portfolio-wallets", {
    token: OTHER_TOKEN,
    body: { requestId: randomUUID(), positions: [{ positionKey: "tbills", targetWeightBps: 10000 }] },
  });
  expect(other.status).toBe(201);
  // Yield accrued since the last movement, computed at the read.
  await m.advance(3 * money.DAY_MS + 17_000);
  // Then deposits, not yet allocated, on two chains.
  await money.deposit(m, pending, 40, { chain: "base" });
  await money.deposit(m, pending, 25);

  for (const pageSize of [100, 2]) {
    const listed: { id: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?pageSize=${pageSize}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
      const page = await m.t.api("GET", `/v2/portfolio-wallets${query}`);
      expect(page.status).toBe(200);
      listed.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(listed.map((wallet) => wallet.id).sort()).toEqual([empty.id, funded, reweighted, pending].sort());
    for (const wallet of listed) {
      const alone = await m.t.api("GET", `/v2/portfolio-wallets/${wallet.id}`);
      expect(alone.status).toBe(200);
      expect(wallet).toEqual(alone.body);
    }
  }
  // The figures compared are not all zeros: the page shows money, pending money and yield.
  const page = await m.t.api("GET", "/v2/portfolio-wallets?pageSize=100");
  const byId = new Map(page.body.data.map((wallet: { id: string }) => [wallet.id, wallet]));
  const pendingWallet = byId.get(pending) as {
    pendingAllocationsUsd: number;
    depositAddresses: Record<string, { pendingAllocationsUsd: number }>;
  };
  expect(pendingWallet.pendingAllocationsUsd).toBeGreaterThan(0);
  expect(pendingWallet.depositAddresses["base"]?.pendingAllocationsUsd).toBe(40);
  const fundedRead = byId.get(funded) as { totalBalanceUsd: number };
  expect(fundedRead.totalBalanceUsd).not.toBe(900);
});
