import { randomUUID } from "node:crypto";
import { ApiKeyStamper } from "@turnkey/sdk-server";
import { startSandbox, type Sandbox } from "../../../../sandbox/index.ts";
import { EVENT_TYPES } from "../../../../sdk/nodejs/contract/index.ts";
import { generateTurnkeyApiKeyPair } from "../../../sdk/approval/turnkeyKeys.ts";
import {
  ETHEREUM_PAYOUT as PAYOUT,
  sendToSandbox,
  TWO_SOURCES as POSITIONS,
  type SandboxAnswer,
} from "../../../support/sandboxAccess.ts";
import { startReceiver } from "../../domain/events/harness/receiver.ts";

/**
 * A workload that touches every route of the sandbox and every kind of due work: wallets and
 * their pages, deposits through their legs, strategy updates approved at the signing provider and
 * by the admin API, withdrawals paid in legs (one failing, one rejected), yield metrics over
 * lifetimes and periods, webhooks delivered and managed, the admin API and the console's read
 * API. Used to check what the sandbox asks SQLite (queryPlans.test.ts), for one organization or two.
 */

export const WORKLOAD_ORGANIZATIONS = { "plans-token-a": "plans-org-a", "plans-token-b": "plans-org-b" };

type Answer = SandboxAnswer;

export function client(sandbox: Sandbox, token: string) {
  return async (method: string, route: string, body?: unknown): Promise<Answer> => {
    const answer = await sendToSandbox({ url: sandbox.url, token }, method, route, body);
    // An injected fault is a 503 on purpose; any other 5xx is a sandbox failure.
    if (answer.status >= 500 && answer.body?.error?.code !== "unavailable")
      throw new Error(`${method} ${route} answered ${answer.status}: ${answer.text}`);
    return answer;
  };
}

/** Starts a sandbox on `dataDir` for the workload's two organizations. */
export function startWorkloadSandbox(dataDir: string): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    dataDir,
    tokens: WORKLOAD_ORGANIZATIONS,
    depositProcessingDelayMs: 1000,
    rebalanceDelayMs: 10,
    allowPrivateWebhookUrls: true,
    webhookDelivery: { retryBaseDelayMs: 5, timeoutMs: 2000 },
  });
}

/** Runs the whole workload as one organization. */
export async function runWorkload(sandbox: Sandbox, token: string): Promise<void> {
  const api = client(sandbox, token);
  const receiver = await startReceiver((request) => (request.index % 3 === 2 ? 500 : 200));
  try {
    const advance = (seconds: number) => api("POST", "/_sandbox/clock/advance", { seconds });
    await api("GET", "/v2/portfolio-wallets/strategies");
    await api("GET", "/v2/portfolio-wallets/yield-sources");
    await api("POST", "/v2/portfolio-wallets/quote", { minApyTargetBps: 500 });
    await api("POST", "/v2/portfolio-wallets/quote", {
      liquidityConstraints: [{ maxProcessingTime: "PT0H", minWeightBps: 9000 }],
      minApyTargetBps: 900,
    });
    const hook = await api("POST", "/webhooks/registrations", {
      url: receiver.url,
      eventTypes: [...EVENT_TYPES],
    });
    await api("GET", "/webhooks/registrations?pageSize=1");
    await api("GET", `/webhooks/registrations/${hook.body.id}`);

    const wallets: { id: string; depositAddresses: { ethereum: { address: string } } }[] = [];
    for (let index = 0; index < 3; index++) {
      const requestId = randomUUID();
      const created = await api("POST", "/v2/portfolio-wallets", { requestId, positions: POSITIONS });
      await api("POST", "/v2/portfolio-wallets", { requestId, positions: POSITIONS }); // a replay
      wallets.push(created.body);
    }
    const firstPage = await api("GET", "/v2/portfolio-wallets?pageSize=2");
    await api(
      "GET",
      `/v2/portfolio-wallets?pageSize=2&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`,
    );
    for (const wallet of wallets) {
      await api("POST", "/_sandbox/deposits", {
        chain: "ethereum",
        address: wallet.depositAddresses.ethereum.address,
        amount: 10_000,
        txHash: `0x${randomUUID().replaceAll("-", "")}`,
      });
    }
    await advance(60);
    const [a, b, c] = wallets as [(typeof wallets)[0], (typeof wallets)[0], (typeof wallets)[0]];
    const deposits = await api("GET", `/v2/portfolio-wallets/${a.id}/deposits?pageSize=1`);
    await api("GET", `/v2/portfolio-wallets/${a.id}/deposits/${deposits.body.data[0].id}`);
    await api("GET", `/v2/portfolio-wallets/${a.id}`);
    await advance(86_400);

    // Strategy updates: one approved at the signing provider, one by the admin API, one failing.
    await api("PUT", "/_sandbox/policy", { strategyUpdateApprovals: 1, withdrawalApprovals: 0 });
    const keys = generateTurnkeyApiKeyPair();
    await api("POST", "/_sandbox/signing/api-keys", { publicKey: keys.apiPublicKey, userName: "plans" });
    await api("GET", "/_sandbox/signing/api-keys");
    const update = await api("PATCH", `/v2/portfolio-wallets/${a.id}/strategy`, {
      requestId: randomUUID(),
      positions: [{ positionKey: "resolvRlp", targetWeightBps: 10000 }],
    });
    const activity = await api("GET", `/_sandbox/signing-activities/${update.body.signingActivityId}`);
    const stamper = new ApiKeyStamper({ apiPublicKey: keys.apiPublicKey, apiPrivateKey: keys.apiPrivateKey });
    const organizationId = activity.body.organizationId as string;
    for (const [route, body] of [
      ["/public/v1/query/get_activity", { organizationId, activityId: activity.body.id }],
      [
        "/public/v1/submit/approve_activity",
        {
          type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
          timestampMs: String(Date.now()),
          organizationId,
          parameters: { fingerprint: activity.body.fingerprint },
        },
      ],
    ] as const) {
      const text = JSON.stringify(body);
      await fetch(`${sandbox.url}${route}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "X-Stamp": (await stamper.stamp(text)).stampHeaderValue,
        },
        body: text,
      });
    }
    const second = await api("PATCH", `/v2/portfolio-wallets/${b.id}/strategy`, {
      requestId: randomUUID(),
      positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
    });
    await api("POST", `/_sandbox/signing-activities/${second.body.signingActivityId}/approve`);
    await api("GET", `/_sandbox/strategy-updates/${second.body.id}`);
    await api("PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0, withdrawalApprovals: 1 });
    await api("POST", "/_sandbox/faults/strategy-update", { walletId: c.id, reason: "planned" });
    await api("PATCH", `/v2/portfolio-wallets/${c.id}/strategy`, {
      requestId: randomUUID(),
      positions: [{ positionKey: "syrupUsdc", targetWeightBps: 10000 }],
    });
    await advance(60);

    // Withdrawals: approved and paid in legs, rejected, and one whose redeem leg fails.
    const paid = await api("POST", `/v2/portfolio-wallets/${c.id}/withdraw`, {
      requestId: randomUUID(),
      withdrawalAmount: 5000,
      ...PAYOUT,
    });
    await api("POST", `/_sandbox/signing-activities/${paid.body.signingActivityId}/approve`);
    const rejected = await api("POST", `/v2/portfolio-wallets/${c.id}/withdraw`, {
      requestId: randomUUID(),
      withdrawalAmount: 10,
      ...PAYOUT,
    });
    await api("POST", `/_sandbox/signing-activities/${rejected.body.signingActivityId}/reject`, {
      reason: "no",
    });
    await api("PUT", "/_sandbox/policy", { strategyUpdateApprovals: 0, withdrawalApprovals: 0 });
    await api("POST", "/_sandbox/faults/withdrawal-leg", {
      walletId: b.id,
      legKey: "redeem",
      reason: "planned",
    });
    await api("POST", `/v2/portfolio-wallets/${b.id}/withdraw`, {
      requestId: randomUUID(),
      withdrawalAmount: 9000,
      ...PAYOUT,
    });
    await advance(3 * 86_400);
    const withdrawals = await api("GET", `/v2/portfolio-wallets/${c.id}/withdrawals?pageSize=1`);
    await api(
      "GET",
      `/v2/portfolio-wallets/${c.id}/withdrawals?pageSize=1&cursor=${encodeURIComponent(withdrawals.body.nextCursor)}`,
    );
    await api("GET", `/v2/portfolio-wallets/${c.id}/withdrawals/${paid.body.id}`);

    await api("PUT", "/_sandbox/catalog/tbills/rate", { currentRateBps: 445 });
    await advance(86_400);
    await api("POST", "/v2/portfolio-wallets/yield", {});
    await api("POST", "/v2/portfolio-wallets/yield", { portfolioWalletIds: [a.id, b.id, c.id] });
    await api("POST", "/v2/portfolio-wallets/yield", {
      periodStartIso: new Date(Date.now() - 86_400_000).toISOString(),
      periodEndIso: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      portfolioWalletIds: [a.id],
    });
    await api("POST", "/v2/portfolio-wallets/yield", {
      periodStartIso: new Date(Date.now() - 86_400_000).toISOString(),
    });

    // Webhook deliveries, then the registration's lifecycle.
    for (let waited = 0; waited < 50 && receiver.requests.length < 6; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await api("GET", "/_sandbox/webhook-deliveries?limit=5");
    // The console's read API (sandbox/console/consoleApi.ts): each read must succeed, or its
    // statements would go unchecked.
    const consoleRead = async (route: string): Promise<Answer> => {
      const answer = await api("GET", `/_console/api${route}`);
      if (answer.status !== 200) throw new Error(`GET /_console/api${route} answered ${answer.status}`);
      return answer;
    };
    await consoleRead("/session");
    await consoleRead("/signing-activities");
    await consoleRead("/signing-activities?status=all&limit=10");
    await consoleRead(`/wallets/${a.id}/strategy-updates?limit=5`);
    await consoleRead(`/wallets/${a.id}/history`);
    await consoleRead(`/wallets/${c.id}/history`);
    // Each completed deposit's legs read from its own instant of the ledger.
    const depositPage = await consoleRead(`/wallets/${a.id}/deposits?pageSize=1`);
    if (depositPage.body.data[0]?.legs?.[0]?.amount == null)
      throw new Error("the console's deposits read no leg amount: its ledger query went unexercised");
    const timelines = await consoleRead(`/wallets/${c.id}/withdrawals?pageSize=1`);
    await consoleRead(
      `/wallets/${c.id}/withdrawals?pageSize=1&cursor=${encodeURIComponent(timelines.body.nextCursor)}`,
    );
    await consoleRead("/webhook-deliveries?limit=5");
    await consoleRead(`/webhook-deliveries?status=failed&registrationId=${hook.body.id}&limit=5`);
    await consoleRead("/webhook-deliveries?eventType=portfolio_wallet.balance.updated");
    // One wallet's webhook events: its events by (organization_id, wallet_id), their deliveries by event.
    await consoleRead(`/webhook-deliveries?walletId=${a.id}&limit=5`);
    const [delivered] = (await consoleRead(`/webhook-deliveries?registrationId=${hook.body.id}&limit=1`)).body
      .data;
    await consoleRead(`/webhook-deliveries/${delivered.id}`);
    // Object pages (sandbox/console/objectPages.ts): each kind's reads, a logged request's, and an
    // id of nothing, which looks in every table, the request log and every idempotency scope.
    await consoleRead(`/objects/${depositPage.body.data[0].id}`);
    await consoleRead(`/objects/${timelines.body.data[0].id}`);
    await consoleRead(`/objects/${delivered.id}`);
    await consoleRead(`/objects/${hook.body.id}`);
    if ((await api("GET", `/_console/api/objects/${randomUUID()}`)).status !== 404)
      throw new Error("an object page of an id of nothing was found");
    const again = await api("POST", `/_console/api/webhook-deliveries/${delivered.id}/redeliver`);
    if (again.status !== 201) throw new Error(`redeliver answered ${again.status}`);
    await api("PATCH", `/webhooks/registrations/${hook.body.id}/status`, {
      status: "disabled",
      disabledReason: "plans",
    });
    await api("PATCH", `/webhooks/registrations/${hook.body.id}/status`, { status: "active" });
    await api("DELETE", `/webhooks/registrations/${hook.body.id}`);

    // The rest of the admin API.
    await api("GET", "/_sandbox/ledger");
    await api("GET", `/_sandbox/ledger/entries?walletId=${a.id}&limit=5`);
    await api("GET", "/_sandbox/ledger/entries?limit=5");
    await api("POST", "/_sandbox/faults", {
      method: "GET",
      path: "/v2/portfolio-wallets/:id",
      times: 1,
      kind: "status",
      status: 503,
    });
    await api("GET", "/_sandbox/faults");
    await api("GET", `/v2/portfolio-wallets/${a.id}`);
    await api("DELETE", "/_sandbox/faults");
    await api("GET", "/_sandbox/request-counts");
    await api("DELETE", "/_sandbox/request-counts");
    await api("GET", "/_sandbox/policy");
    await api("GET", "/_sandbox/clock");
    await api("DELETE", `/_sandbox/signing/api-keys/${keys.apiPublicKey}`);
  } finally {
    await receiver.close();
  }
}
