import { expect, test } from "vitest";
import { CREATE_WALLET_ENDPOINT } from "../../../sandbox/domain/wallets.ts";
import { CREATE_WEBHOOK_ENDPOINT } from "../../../sandbox/domain/webhooks.ts";
import { STRATEGY_UPDATE_ENDPOINT } from "../../../sandbox/domain/strategyUpdates.ts";
import { WITHDRAW_ENDPOINT } from "../../../sandbox/domain/money/withdrawals.ts";

/**
 * The idempotency scopes are derived from the service's table (`idempotencyScopeOf`) and stored
 * with every requestId: databases and snapshots made before hold these very strings, so a replay
 * after an upgrade finds its key only if the derivation still gives them.
 */
test("each scope is the operation's method and route pattern, as stored before", () => {
  expect([
    CREATE_WALLET_ENDPOINT,
    STRATEGY_UPDATE_ENDPOINT,
    WITHDRAW_ENDPOINT,
    CREATE_WEBHOOK_ENDPOINT,
  ]).toEqual([
    "POST /v2/portfolio-wallets",
    "PATCH /v2/portfolio-wallets/:id/strategy",
    "POST /v2/portfolio-wallets/:id/withdraw",
    "POST /webhooks/registrations",
  ]);
});
