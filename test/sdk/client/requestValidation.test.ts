import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { InvalidRequestError, type PortfolioWalletClient } from "../../../sdk/nodejs/client/index.ts";
import { useMockService, walletJson } from "./helpers/fixtures.ts";

const { setup } = useMockService();

/**
 * The client is strict in what it writes: every method that sends a body checks it against the
 * contract's request schema first, reports every problem with its path, and sends nothing.
 */
describe("request bodies are checked against the contract before sending", () => {
  const walletId = randomUUID();
  const cases: [string, (client: PortfolioWalletClient) => Promise<unknown>, string[]][] = [
    [
      "wallets.create: weights summing to 9999",
      (client) =>
        client.wallets.create({
          requestId: randomUUID(),
          positions: [{ positionKey: "tbills", targetWeightBps: 9999 }],
        }),
      ["positions"],
    ],
    [
      "wallets.create: an empty positionKey and a requestId that is not a uuid",
      (client) =>
        client.wallets.create({
          requestId: "not-a-uuid",
          positions: [{ positionKey: "", targetWeightBps: 10_000 }],
        }),
      ["requestId", "positions[0].positionKey"],
    ],
    [
      "wallets.updateStrategy: a duplicate key and a fractional weight",
      (client) =>
        client.wallets.updateStrategy(walletId, {
          requestId: randomUUID(),
          positions: [
            { positionKey: "tbills", targetWeightBps: 5000.5 },
            { positionKey: "tbills", targetWeightBps: 4999.5 },
          ],
        }),
      ["positions[0].targetWeightBps", "positions[1].targetWeightBps"],
    ],
    [
      "withdrawals.create: a negative amount",
      (client) =>
        client.withdrawals.create(walletId, {
          requestId: randomUUID(),
          withdrawalAmount: -5,
          destinationToken: "usdc",
          destinationChain: "ethereum",
          destinationAddress: "0x0000000000000000000000000000000000000001",
        }),
      ["withdrawalAmount"],
    ],
    [
      "quotes.create: a liquidity constraint above 10000 bps",
      (client) =>
        client.quotes.create({ liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 20_000 }] }),
      ["liquidityConstraints[0].minWeightBps"],
    ],
    [
      "webhookRegistrations.create: a url that is not http(s)",
      (client) =>
        client.webhookRegistrations.create({
          url: "ftp://hooks.example.com",
          eventTypes: ["portfolio_wallet.balance.updated"],
        }),
      ["url"],
    ],
    [
      "webhookRegistrations.updateStatus: an unknown status",
      (client) => client.webhookRegistrations.updateStatus(randomUUID(), { status: "paused" as never }),
      ["status"],
    ],
    [
      "yieldMetrics.retrieve: wallet ids that are not uuids",
      (client) => client.yieldMetrics.retrieve({ portfolioWalletIds: ["wallet-1"] }),
      ["portfolioWalletIds[0]"],
    ],
  ];

  test.each(cases)("%s: InvalidRequestError naming each field, nothing sent", async (_name, call, fields) => {
    const { server, client } = await setup(() => ({ status: 200, body: walletJson() }));
    const error = await call(client).catch((e: unknown) => e);
    expect(InvalidRequestError.isInstance(error)).toBe(true);
    const invalid = error as InvalidRequestError;
    for (const field of fields) {
      expect(invalid.details.map((detail) => detail.field)).toContain(field);
      expect(invalid.message).toContain(field);
    }
    expect(server.requests).toHaveLength(0);
  });

  test("a valid body is sent as given, unchanged", async () => {
    const { server, client } = await setup(() => ({ status: 200, body: walletJson() }));
    const body = {
      requestId: randomUUID(),
      label: "treasury",
      positions: [{ positionKey: "tbills", targetWeightBps: 10_000, currentApy: 5.1 }],
    };
    await client.wallets.create(body);
    expect(server.requests).toHaveLength(1);
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual(body);
  });
});
