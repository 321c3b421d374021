import type { DatabaseSync } from "node:sqlite";
import { Agent, request } from "undici";
import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "../../../sdk/contract/index.ts";
import {
  findRegistrationForDelivery,
  findWebhookEventPayload,
  leaseDelivery,
  listDueDeliveries,
  nextDeliveryDueAt,
  recordDeliveryAttempt,
  type DeliveryRecord,
} from "../../store/webhookDeliveryStore.ts";
import { signDelivery } from "./signature.ts";

/** How deliveries are attempted. All times are real milliseconds. */
export interface WebhookDeliveryOptions {
  /** Wait before the first retry; doubles for each further retry. Default 1000. */
  retryBaseDelayMs: number;
  /** Attempts in all (the first one included) before a delivery is recorded `failed`. Default 8. */
  maxAttempts: number;
  /** Time allowed for one attempt (connect, answer and body). Default 5000. */
  timeoutMs: number;
}

export const DEFAULT_WEBHOOK_DELIVERY: WebhookDeliveryOptions = {
  retryBaseDelayMs: 1000,
  maxAttempts: 8,
  timeoutMs: 5000,
};

/** How many deliveries are attempted at once. */
const CONCURRENCY = 16;
/** How long past its timeout an attempt keeps its claim on a delivery. */
const LEASE_MARGIN_MS = 1000;
/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WebhookDispatcher {
  /** Looks for due deliveries soon (after the current synchronous work, so after its commit). */
  kick(): void;
  /** Stops timers, aborts attempts in flight (they stay pending and resume after a restart). */
  close(): Promise<void>;
}

/**
 * Background delivery of webhook events, at least once: every pending delivery is POSTed to its
 * registration's URL, signed (signature.ts); a 2xx answer ends it `succeeded`. A non-2xx answer, a
 * timeout or a connection error schedules a retry after retryBaseDelayMs × 2^(attempts − 1);
 * after maxAttempts attempts it ends `failed`, inspectable through GET /_sandbox/webhook-deliveries.
 * The event id and body are the same on every attempt. A registration disabled or deleted before
 * an attempt gets nothing: the delivery ends `cancelled`. Deliveries run concurrently, so
 * receivers must not rely on order (each event carries its createdAt).
 */
export function createWebhookDispatcher(
  db: DatabaseSync,
  options: WebhookDeliveryOptions,
): WebhookDispatcher {
  const agent = new Agent({ keepAliveTimeout: 1000, connections: CONCURRENCY });
  const abort = new AbortController();
  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let closed = false;

  function kick(): void {
    if (closed || immediate !== null) return;
    immediate = setImmediate(() => {
      immediate = null;
      run();
    });
  }

  function run(): void {
    if (closed) return;
    const free = CONCURRENCY - inFlight.size;
    if (free > 0) {
      for (const delivery of listDueDeliveries(db, Date.now(), free)) {
        leaseDelivery(db, delivery.id, Date.now() + options.timeoutMs + LEASE_MARGIN_MS);
        const attempt = deliver(delivery)
          .catch((error: unknown) => console.error("[sandbox] webhook delivery failed unexpectedly", error))
          .finally(() => {
            inFlight.delete(delivery.id);
            kick();
          });
        inFlight.set(delivery.id, attempt);
      }
    }
    arm();
  }

  /** A timer for the earliest pending delivery (those being attempted are leased into the future). */
  function arm(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const due = nextDeliveryDueAt(db);
    if (due === null) return;
    timer = setTimeout(run, Math.min(MAX_TIMER_MS, Math.max(0, due - Date.now())));
    timer.unref();
  }

  async function deliver(delivery: DeliveryRecord): Promise<void> {
    const registration = findRegistrationForDelivery(db, delivery.registrationId);
    const payload = findWebhookEventPayload(db, delivery.eventId);
    const attemptedAt = new Date().toISOString();
    if (registration === null || registration.status !== "active" || payload === null) {
      recordDeliveryAttempt(db, delivery.id, {
        status: "cancelled",
        attempts: delivery.attempts,
        nextAttemptAt: null,
        lastAttemptAt: attemptedAt,
        lastResponseStatus: null,
        lastError: registration === null ? "registration deleted" : `registration ${registration.status}`,
        deliveredAt: null,
      });
      return;
    }
    const attempts = delivery.attempts + 1;
    const outcome = await post(registration.url, registration.secret, delivery.eventId, payload);
    if (closed) return; // the database may be closing; the delivery stays pending for a restart
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const givingUp = !succeeded && attempts >= options.maxAttempts;
    recordDeliveryAttempt(db, delivery.id, {
      status: succeeded ? "succeeded" : givingUp ? "failed" : "pending",
      attempts,
      nextAttemptAt:
        succeeded || givingUp ? null : Date.now() + options.retryBaseDelayMs * 2 ** (attempts - 1),
      lastAttemptAt: attemptedAt,
      lastResponseStatus: outcome.status,
      lastError: succeeded ? null : (outcome.error ?? `receiver answered ${outcome.status}`),
      deliveredAt: succeeded ? new Date().toISOString() : null,
    });
  }

  async function post(
    url: string,
    secret: string,
    eventId: string,
    body: string,
  ): Promise<{ status: number | null; error: string | null }> {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher: agent,
        headers: {
          "content-type": "application/json",
          "user-agent": "portfolio-wallet-sandbox-webhooks/1",
          [WEBHOOK_EVENT_ID_HEADER]: eventId,
          [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
          [WEBHOOK_SIGNATURE_HEADER]: signDelivery(secret, timestamp, body),
        },
        body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(options.timeoutMs)]),
      });
      await response.body.dump();
      return { status: response.statusCode, error: null };
    } catch (error) {
      return {
        status: null,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    }
  }

  // Deliveries left pending by a previous process resume at startup.
  kick();

  return {
    kick,
    async close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      if (immediate !== null) clearImmediate(immediate);
      abort.abort();
      await Promise.allSettled(inFlight.values());
      await agent.destroy();
    },
  };
}
