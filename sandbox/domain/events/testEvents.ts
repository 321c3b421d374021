import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { EventType } from "../../../sdk/nodejs/contract/index.ts";
import { findDelivery } from "../../store/webhookDeliveryStore.ts";
import { inTransaction } from "../../store/connection.ts";
import { findWebhook } from "../../store/webhookStore.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { deliveryView, type DeliveryView } from "./deliveryHistory.ts";
import type { EventDataByType, EventSink } from "./eventSink.ts";

/**
 * Test events (the console's "Send a test event", docs/webhooks.md "Test events"): an event of a
 * type the registration subscribes to, with made-up ids (no wallet, deposit or withdrawal of the
 * organization is named, so a receiver cannot mistake it for money that moved) and `"test": true`
 * in its body. It is queued to that registration alone and sent by the dispatcher like any event:
 * signed with the registration's secret, retried, and listed among the deliveries.
 */

/** Data of each event type, shaped as the contract says (sdk/nodejs/contract/events.ts). */
function sampleData<T extends EventType>(type: T): EventDataByType[T] {
  const portfolioWalletId = randomUUID();
  const samples: { [K in EventType]: EventDataByType[K] } = {
    "portfolio_wallet.balance.updated": {
      portfolioWalletId,
      totalBalanceUsd: 100,
      instantWithdrawableUsd: 40,
      pendingAllocationsUsd: 0,
    },
    "portfolio_wallet.deposit.status_changed": {
      portfolioWalletId,
      deposit: { id: randomUUID(), status: "completed", amountUsd: 100, chain: "ethereum" },
      previousStatus: "processing",
    },
    "portfolio_wallet.withdrawal.status_changed": {
      portfolioWalletId,
      withdrawal: { id: randomUUID(), requestId: randomUUID(), status: "completed", failureReason: null },
      previousStatus: "processing",
    },
    "portfolio_wallet.withdrawal.payout.status_changed": {
      portfolioWalletId,
      withdrawalId: randomUUID(),
      payout: { legKey: "instant", amount: 40, status: "paid" },
      previousStatus: "processing",
    },
    "portfolio_wallet.strategy.status_changed": {
      portfolioWalletId,
      strategy: { id: randomUUID(), requestId: randomUUID(), status: "completed", failureReason: null },
      previousStatus: "processing",
    },
    "portfolio_wallet.position.updated": {
      portfolioWalletId,
      positions: [{ positionKey: "syrupUsdc", valueUsd: 100, weightBps: 10000 }],
    },
  };
  return samples[type];
}

/**
 * Queues a test event of `eventType` to the organization's registration `registrationId`; answers
 * its delivery, pending. Another organization's registration is not found; a disabled one is a
 * conflict (nothing is sent to it); a type it does not subscribe to is refused at `eventType`.
 */
export function sendTestEvent(
  deps: { db: DatabaseSync; events: EventSink; at: string },
  organizationId: string,
  registrationId: string,
  eventType: EventType,
): DeliveryView {
  const registration = findWebhook(deps.db, organizationId, registrationId);
  if (registration === null) throw new NotFoundError(`webhook registration ${registrationId}`);
  if (registration.status !== "active")
    throw new ConflictError(`the registration is ${registration.status}: enable it first`);
  if (!registration.eventTypes.includes(eventType))
    throw new ValidationError([
      {
        field: "eventType",
        reason: `this registration does not subscribe to ${eventType}; choose one of ${registration.eventTypes.join(", ")}, or add it to the registration first`,
      },
    ]);
  const { deliveryId } = inTransaction(deps.db, () =>
    deps.events.emitTest(
      organizationId,
      { id: registration.id, url: registration.url },
      eventType,
      sampleData(eventType),
      deps.at,
    ),
  );
  const delivery = findDelivery(deps.db, organizationId, deliveryId);
  if (delivery === null) throw new Error(`the test event's delivery ${deliveryId} was not stored`);
  return deliveryView(delivery);
}
