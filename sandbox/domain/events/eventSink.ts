import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import type { z } from "zod";
import type {
  BalanceUpdatedDataSchema,
  DepositStatusChangedDataSchema,
  EventType,
  PayoutStatusChangedDataSchema,
  PositionUpdatedDataSchema,
  StrategyStatusChangedDataSchema,
  WithdrawalStatusChangedDataSchema,
} from "../../../sdk/nodejs/contract/index.ts";
import {
  hasPendingBacklog,
  insertDelivery,
  newDelivery,
  insertWebhookEvent,
} from "../../store/webhookDeliveryStore.ts";
import { listActiveRegistrations } from "../../store/webhookStore.ts";

/** The `data` of each event type, as the contract (sdk/nodejs/contract/events.ts) defines it. */
export interface EventDataByType {
  "portfolio_wallet.balance.updated": z.input<typeof BalanceUpdatedDataSchema>;
  "portfolio_wallet.deposit.status_changed": z.input<typeof DepositStatusChangedDataSchema>;
  "portfolio_wallet.withdrawal.status_changed": z.input<typeof WithdrawalStatusChangedDataSchema>;
  "portfolio_wallet.withdrawal.payout.status_changed": z.input<typeof PayoutStatusChangedDataSchema>;
  "portfolio_wallet.strategy.status_changed": z.input<typeof StrategyStatusChangedDataSchema>;
  "portfolio_wallet.position.updated": z.input<typeof PositionUpdatedDataSchema>;
}

/**
 * Where domain code reports events. `emit` is synchronous and only writes rows (the event and one
 * pending delivery per active registration subscribed to its type), so it belongs inside the
 * transaction that made the change: a change that rolls back emits nothing, and one that commits
 * cannot lose its event (transactional outbox). Sending happens later, in the background
 * (delivery.ts), so an API request never waits for, or fails because of, a receiver.
 */
export interface EventSink {
  emit<T extends EventType>(organizationId: string, type: T, data: EventDataByType[T], at: string): void;
  /**
   * A test event (the console's "Send a test event"): queued to this one registration only, its
   * body marked `"test": true`, then sent and signed by the same dispatcher as every event.
   * Answers the event's id and its delivery's.
   */
  emitTest<T extends EventType>(
    organizationId: string,
    registration: { id: string; url: string },
    type: T,
    data: EventDataByType[T],
    at: string,
  ): { eventId: string; deliveryId: string };
}

/**
 * `maxPendingPerRegistration`: a registration whose receiver is down or slow collects at most this
 * many pending deliveries; further events for it are recorded `cancelled` ("backlog full"), so one
 * dead receiver cannot grow the outbox without bound.
 */
export function createEventSink(
  db: DatabaseSync,
  /** Told of each registration that got a pending delivery (the dispatcher looks for it). */
  onEnqueued: (registration: { id: string; organizationId: string }) => void,
  options: { maxPendingPerRegistration: number },
): EventSink {
  /** Stores the event and one delivery per registration (cancelled when its backlog is full). */
  function enqueue(
    organizationId: string,
    type: EventType,
    envelope: { test?: true; data: unknown },
    at: string,
    registrations: { id: string; url: string }[],
  ): { eventId: string; deliveryIds: string[] } {
    const id = randomUUID();
    const payload = JSON.stringify({ id, type, createdAt: at, organizationId, ...envelope });
    insertWebhookEvent(db, { id, organizationId, type, payload, createdAt: at });
    // Every event type's data names its wallet (sdk/nodejs/contract/events.ts): kept on each
    // delivery for the console's by-wallet list. A test event's wallet id is made up (testEvents.ts).
    const named = (envelope.data as { portfolioWalletId?: unknown }).portfolioWalletId;
    const walletId = envelope.test || typeof named !== "string" ? null : named;
    const nowMs = Date.now();
    const createdAt = new Date(nowMs).toISOString();
    const deliveryIds: string[] = [];
    const pending: { id: string; organizationId: string }[] = [];
    for (const registration of registrations) {
      const backlogFull = hasPendingBacklog(db, registration.id, options.maxPendingPerRegistration);
      const deliveryId = randomUUID();
      deliveryIds.push(deliveryId);
      insertDelivery(
        db,
        newDelivery({
          id: deliveryId,
          organizationId,
          eventId: id,
          eventType: type,
          registrationId: registration.id,
          url: registration.url,
          createdAt,
          walletId,
          ...(backlogFull
            ? {
                status: "cancelled",
                nextAttemptAt: null,
                lastError: `backlog full: ${options.maxPendingPerRegistration} deliveries of this registration were already pending`,
              }
            : { nextAttemptAt: nowMs }),
        }),
      );
      if (!backlogFull) pending.push({ id: registration.id, organizationId });
    }
    for (const registration of pending) onEnqueued(registration);
    return { eventId: id, deliveryIds };
  }

  return {
    emit(organizationId, type, data, at) {
      const subscribed = listActiveRegistrations(db, organizationId).filter((r) =>
        r.eventTypes.includes(type),
      );
      // An event nobody subscribes to is not stored: the outbox only holds what it will send.
      if (subscribed.length === 0) return;
      enqueue(organizationId, type, { data }, at, subscribed);
    },
    emitTest(organizationId, registration, type, data, at) {
      const { eventId, deliveryIds } = enqueue(organizationId, type, { test: true, data }, at, [
        registration,
      ]);
      return { eventId, deliveryId: deliveryIds[0]! };
    },
  };
}
