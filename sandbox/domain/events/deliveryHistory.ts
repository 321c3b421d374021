import type { DatabaseSync } from "node:sqlite";
import { listDeliveries, type DeliveryRecord } from "../../store/webhookDeliveryStore.ts";

/** A webhook delivery as the sandbox shows it: its record, the next attempt as an ISO time. */
export type DeliveryView = Omit<DeliveryRecord, "nextAttemptAt"> & {
  /** When the next attempt is due (real time, ISO 8601); null once the delivery is finished. */
  nextAttemptAt: string | null;
};

/** Which deliveries to list: all filters optional, at most `limit`. */
export interface DeliveryFilter {
  status?: string;
  registrationId?: string;
  eventId?: string;
  eventType?: string;
  limit: number;
}

/** The organization's webhook deliveries, newest first, with their attempts and next retry. */
export function listDeliveryHistory(
  db: DatabaseSync,
  organizationId: string,
  filter: DeliveryFilter,
): DeliveryView[] {
  return listDeliveries(db, organizationId, filter).map((delivery) => ({
    ...delivery,
    nextAttemptAt: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt).toISOString(),
  }));
}
