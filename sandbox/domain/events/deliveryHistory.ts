import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "../../../sdk/nodejs/contract/index.ts";
import {
  findDelivery,
  findWebhookEventPayload,
  insertDelivery,
  newDelivery,
  listDeliveries,
  type DeliveryFilter,
  type DeliveryRecord,
  type ListedDelivery,
} from "../../store/webhookDeliveryStore.ts";
import { findRegistrationForDelivery } from "../../store/webhookStore.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { SIGNATURE_VERSION } from "./signature.ts";

/** A webhook delivery as the sandbox shows it: its record, the next attempt as an ISO time. */
export type DeliveryView = Omit<DeliveryRecord, "nextAttemptAt"> & {
  /** When the next attempt is due (real time, ISO 8601); null once the delivery is finished. */
  nextAttemptAt: string | null;
  /** In lists: whether its event is a test event (`"test": true` in its body). */
  test?: boolean;
};

/** The organization's webhook deliveries, newest first, with their attempts and next retry. */
export function listDeliveryHistory(
  db: DatabaseSync,
  organizationId: string,
  filter: DeliveryFilter,
): DeliveryView[] {
  return listDeliveries(db, organizationId, filter).map(deliveryView);
}

export const deliveryView = (delivery: DeliveryRecord & Partial<ListedDelivery>): DeliveryView => ({
  ...delivery,
  nextAttemptAt: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt).toISOString(),
});

/**
 * A delivery with what its attempts send: the body (the same bytes on every attempt, shown
 * parsed), and the headers. The timestamp and the signature differ per attempt and are not kept
 * (the signature needs the registration's secret), so they are described: how each is made.
 */
export type DeliveryDetail = DeliveryView & {
  payload: unknown;
  headers: { name: string; value: string }[];
};

export function deliveryDetail(db: DatabaseSync, organizationId: string, id: string): DeliveryDetail {
  const delivery = findDelivery(db, organizationId, id);
  if (delivery === null) throw new NotFoundError(`webhook delivery ${id}`);
  const body = findWebhookEventPayload(db, delivery.eventId);
  return {
    ...deliveryView(delivery),
    payload: body === null ? null : (JSON.parse(body) as unknown),
    headers: [
      { name: "content-type", value: "application/json" },
      { name: WEBHOOK_EVENT_ID_HEADER, value: delivery.eventId },
      { name: WEBHOOK_TIMESTAMP_HEADER, value: "the attempt's time, in unix seconds" },
      {
        name: WEBHOOK_SIGNATURE_HEADER,
        value: `${SIGNATURE_VERSION}=<hex of HMAC-SHA256 keyed with the registration's secret over "<timestamp>.<body>">`,
      },
    ],
  };
}

/**
 * Sends a delivery's event to its registration again, as a new delivery with attempts of its own
 * (the original keeps its history): the same event id and body, so a receiver that deduplicates
 * by event id sees a replay. The registration must still exist and be active.
 */
export function redeliver(db: DatabaseSync, organizationId: string, id: string, now: Date): DeliveryView {
  const original = findDelivery(db, organizationId, id);
  if (original === null) throw new NotFoundError(`webhook delivery ${id}`);
  const registration = findRegistrationForDelivery(db, original.registrationId);
  if (registration === null)
    throw new ConflictError("its registration was deleted: register the URL again to receive new events");
  if (registration.status !== "active")
    throw new ConflictError(`its registration is ${registration.status}: enable it first`);
  if (findWebhookEventPayload(db, original.eventId) === null)
    throw new ConflictError("the event's body is no longer kept (delivery history was pruned)");
  const at = now.toISOString();
  const delivery = newDelivery({
    id: randomUUID(),
    organizationId: original.organizationId,
    eventId: original.eventId,
    eventType: original.eventType,
    registrationId: original.registrationId,
    url: registration.url,
    createdAt: at,
    walletId: original.walletId,
  });
  insertDelivery(db, delivery);
  return deliveryView(delivery);
}
