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
} from "../../../sdk/contract/index.ts";
import {
  insertDelivery,
  insertWebhookEvent,
  listActiveRegistrations,
} from "../../store/webhookDeliveryStore.ts";

/** The `data` of each event type, as the contract (sdk/contract/events.ts) defines it. */
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
}

export function createEventSink(db: DatabaseSync, onEnqueued: () => void): EventSink {
  return {
    emit(organizationId, type, data, at) {
      const id = randomUUID();
      const payload = JSON.stringify({ id, type, createdAt: at, organizationId, data });
      insertWebhookEvent(db, { id, organizationId, type, payload, createdAt: at });
      const nowMs = Date.now();
      const createdAt = new Date(nowMs).toISOString();
      for (const registration of listActiveRegistrations(db, organizationId)) {
        if (!registration.eventTypes.includes(type)) continue;
        insertDelivery(db, {
          id: randomUUID(),
          organizationId,
          eventId: id,
          eventType: type,
          registrationId: registration.id,
          url: registration.url,
          status: "pending",
          attempts: 0,
          nextAttemptAt: nowMs,
          lastAttemptAt: null,
          lastResponseStatus: null,
          lastError: null,
          deliveredAt: null,
          createdAt,
          updatedAt: createdAt,
        });
      }
      onEnqueued();
    },
  };
}
