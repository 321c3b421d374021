import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { CursorPage, PortfolioWalletError } from "../../../sdk/nodejs/client/index.ts";
import { walletJson, useMockService } from "./helpers/fixtures.ts";
import { type Handler } from "./helpers/mockServer.ts";

const { setup } = useMockService();

/** Serves `items` like the service: pages of `pageSize`, cursor = index of the next item. */
function pagedList(items: Record<string, unknown>[]): Handler {
  return (request) => {
    const query = new URL(request.url, "http://x").searchParams;
    const pageSize = Number(query.get("pageSize") ?? 25);
    const start = query.has("cursor") ? Number(query.get("cursor")) : 0;
    const end = start + pageSize;
    return {
      status: 200,
      body: { data: items.slice(start, end), pageSize, nextCursor: end < items.length ? String(end) : null },
    };
  };
}

describe("cursor pagination", () => {
  const wallets = Array.from({ length: 5 }, (_, i) => walletJson({ label: `w${i}` }));

  test("for await yields every item across pages, in order, following nextCursor", async () => {
    const { server, client } = await setup(pagedList(wallets));
    const labels: unknown[] = [];
    for await (const wallet of client.wallets.list({ pageSize: 2 })) labels.push(wallet.label);
    expect(labels).toEqual(["w0", "w1", "w2", "w3", "w4"]);
    expect(server.requests.map((r) => r.url)).toEqual([
      "/v2/portfolio-wallets?pageSize=2",
      "/v2/portfolio-wallets?pageSize=2&cursor=2",
      "/v2/portfolio-wallets?pageSize=2&cursor=4",
    ]);
  });

  test("await returns one page; getNextPage walks on and returns null after the last", async () => {
    const { server, client } = await setup(pagedList(wallets));
    const first = await client.wallets.list({ pageSize: 3 });
    expect(first).toBeInstanceOf(CursorPage);
    expect(first.data.map((w) => w.label)).toEqual(["w0", "w1", "w2"]);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second?.data.map((w) => w.label)).toEqual(["w3", "w4"]);
    expect(second?.hasNextPage()).toBe(false);
    expect(await second?.getNextPage()).toBeNull();
    expect(server.requests).toHaveLength(2);
  });

  test("a list is lazy: nothing is fetched until awaited or iterated", async () => {
    const { server, client } = await setup(pagedList(wallets));
    const pending = client.wallets.list();
    expect(server.requests).toHaveLength(0);
    await pending;
    await pending;
    expect(server.requests).toHaveLength(1);
  });

  test("iterPages yields whole pages", async () => {
    const { client } = await setup(pagedList(wallets));
    const sizes: number[] = [];
    for await (const page of (await client.wallets.list({ pageSize: 2 })).iterPages())
      sizes.push(page.data.length);
    expect(sizes).toEqual([2, 2, 1]);
  });

  test("a starting cursor is sent on the first request", async () => {
    const { server, client } = await setup(pagedList(wallets));
    const page = await client.wallets.list({ pageSize: 2, cursor: "4" });
    expect(page.data.map((w) => w.label)).toEqual(["w4"]);
    expect(server.requests[0]?.url).toBe("/v2/portfolio-wallets?pageSize=2&cursor=4");
  });

  test("withdrawals, deposits and webhook registrations paginate on their own paths", async () => {
    const { server, client } = await setup(() => ({
      status: 200,
      body: { data: [], pageSize: 25, nextCursor: null },
    }));
    const walletId = randomUUID();
    for await (const _ of client.withdrawals.list(walletId)) throw new Error("expected no items");
    for await (const _ of client.deposits.list(walletId, { pageSize: 10 }))
      throw new Error("expected no items");
    for await (const _ of client.webhookRegistrations.list()) throw new Error("expected no items");
    expect(server.requests.map((r) => r.url)).toEqual([
      `/v2/portfolio-wallets/${walletId}/withdrawals`,
      `/v2/portfolio-wallets/${walletId}/deposits?pageSize=10`,
      "/webhooks/registrations",
    ]);
  });

  test("stops with an error instead of looping when the service repeats a cursor", async () => {
    const { client } = await setup(() => ({
      status: 200,
      body: { data: [walletJson()], pageSize: 1, nextCursor: "same" },
    }));
    let count = 0;
    const iterate = async () => {
      for await (const _ of client.wallets.list({ pageSize: 1 })) count++;
    };
    await expect(iterate()).rejects.toThrow(PortfolioWalletError);
    expect(count).toBe(1);
  });
});
