import type { DatabaseSync } from "node:sqlite";
import { Agent, request } from "undici";
import {
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from "../../../sdk/nodejs/contract/index.ts";
import {
  cancelPendingDeliveries,
  findWebhookEventPayload,
  leaseDelivery,
  listDueDeliveriesOf,
  hasPendingBacklog,
  listRegistrationsForDispatch,
  nextDeliveryDueAt,
  pruneDeliveryHistory,
  recordDeliveryAttempt,
  type DeliveryRecord,
} from "../../store/webhookDeliveryStore.ts";
import { findRegistrationForDelivery } from "../../store/webhookStore.ts";
import { guardedLookup, webhookUrlProblem, type WebhookUrlPolicy } from "../webhookUrlPolicy.ts";
import type { WebhookInboxes } from "./inboxes.ts";
import { signDelivery } from "./signature.ts";

/** How deliveries are attempted. All times are real milliseconds. */
export interface WebhookDeliveryOptions {
  /** Wait before the first retry; doubles for each further retry. Default 1000. */
  retryBaseDelayMs: number;
  /** Attempts in all (the first one included) before a delivery is recorded `failed`. Default 8. */
  maxAttempts: number;
  /** Time allowed for one attempt (connect, answer and body). Default 5000. */
  timeoutMs: number;
  /** Attempts in flight at once, all organizations together. Default 16. */
  concurrency: number;
  /** Attempts in flight at once for one organization. Default 4. */
  concurrencyPerOrganization: number;
  /** Attempts in flight at once for one registration. Default 2. */
  concurrencyPerRegistration: number;
  /** Pending deliveries one registration may collect before further events to it are cancelled. Default 1000. */
  maxPendingPerRegistration: number;
  /** How long finished deliveries stay listed, in ms. Default 86400000 (24 hours). */
  historyRetentionMs: number;
  /** How many finished deliveries each organization keeps at most (newest first). Default 10000. */
  historyMaxPerOrganization: number;
}

export const DEFAULT_WEBHOOK_DELIVERY: WebhookDeliveryOptions = {
  retryBaseDelayMs: 1000,
  maxAttempts: 8,
  timeoutMs: 5000,
  concurrency: 16,
  concurrencyPerOrganization: 4,
  concurrencyPerRegistration: 2,
  maxPendingPerRegistration: 1000,
  historyRetentionMs: 24 * 60 * 60 * 1000,
  historyMaxPerOrganization: 10_000,
};

/** The headers of one attempt: its event id, and a timestamp and signature made for it. */
function signedHeaders(secret: string, eventId: string, body: string): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "portfolio-wallet-sandbox-webhooks/1",
    [WEBHOOK_EVENT_ID_HEADER]: eventId,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signDelivery(secret, timestamp, body),
  };
}

/** How long past its timeout an attempt keeps its claim on a delivery. */
const LEASE_MARGIN_MS = 1000;
/** setTimeout's ceiling (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How often delivery history is pruned. */
const PRUNE_INTERVAL_MS = 60_000;
/** When deliveries are due but none could start (their slots are taken), look again this soon at the latest. */
const BLOCKED_RECHECK_MS = 1000;

export interface WebhookDispatcher {
  /**
   * Looks for due deliveries soon (after the current synchronous work, so after its commit): of
   * the registration given (deliveries were just added for it), or, without one, of every
   * registration (deliveries may have been added anywhere: a restart, a restored snapshot).
   */
  kick(registration?: { id: string; organizationId: string }): void;
  /** Prunes delivery history now (it also happens every minute); returns the deliveries deleted. */
  prune(): number;
  /**
   * Starts no new attempt and waits for those in flight to record their outcome: a snapshot is
   * restored between pause and resume, so no attempt writes into the restored state.
   */
  pause(): Promise<void>;
  /** Starts attempts again after pause (looking for due deliveries at once). */
  resume(): void;
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
 *
 * Fairness: attempts in flight are capped per registration, per organization and in all, and each
 * pass visits organizations in turn (a different one first each pass), so one organization's
 * hanging receivers hold at most its own slots: another organization's due delivery starts at
 * once while fewer than concurrency / concurrencyPerOrganization other organizations are saturated,
 * and within one attempt timeout otherwise.
 *
 * A pass visits the registrations it knows to have pending deliveries (told by `kick` when they
 * are added, found once by a scan of the due index at startup and after a restore), each by one
 * probe of its own index range, and forgets one when none is left pending: its cost follows the
 * number of registrations with work, not the backlog, so one organization's fan-out of thousands
 * of deliveries is not read again on every pass.
 */
export function createWebhookDispatcher(
  db: DatabaseSync,
  options: WebhookDeliveryOptions,
  urlPolicy: WebhookUrlPolicy,
  inboxes: WebhookInboxes,
): WebhookDispatcher {
  const agent = new Agent({
    keepAliveTimeout: 1000,
    connections: options.concurrency,
    connect: { lookup: guardedLookup(urlPolicy) },
  });
  const abort = new AbortController();
  const inFlight = new Map<
    string,
    { organizationId: string; registrationId: string; attempt: Promise<void> }
  >();
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let closed = false;
  let paused = false;
  let firstOrganization = 0;
  /** Registrations with pending deliveries (due or retrying later), with their organization. */
  const withPending = new Map<string, string>();
  /** Whether the next pass first finds every registration with pending deliveries. */
  let lookEverywhere = true;

  function kick(registration?: { id: string; organizationId: string }): void {
    if (registration === undefined) lookEverywhere = true;
    else withPending.set(registration.id, registration.organizationId);
    if (closed || paused || immediate !== null) return;
    immediate = setImmediate(() => {
      immediate = null;
      run();
    });
  }

  const inFlightOf = (key: "organizationId" | "registrationId", id: string) => {
    let count = 0;
    for (const attempt of inFlight.values()) if (attempt[key] === id) count += 1;
    return count;
  };

  /** Starts due deliveries while slots are free: per registration, per organization, in all. */
  function run(): void {
    if (closed || paused) return;
    const nowMs = Date.now();
    if (lookEverywhere) {
      lookEverywhere = false;
      for (const { id, organizationId } of listRegistrationsForDispatch(db, Number.MAX_SAFE_INTEGER))
        withPending.set(id, organizationId);
    }
    const byOrganization = new Map<string, string[]>();
    for (const [registrationId, organizationId] of withPending) {
      const own = byOrganization.get(organizationId);
      if (own === undefined) byOrganization.set(organizationId, [registrationId]);
      else own.push(registrationId);
    }
    const organizations = [...byOrganization.keys()];
    // A different organization goes first on each pass, so none is always served last.
    const offset = organizations.length === 0 ? 0 : firstOrganization++ % organizations.length;
    for (let i = 0; i < organizations.length && inFlight.size < options.concurrency; i++) {
      const organizationId = organizations[(offset + i) % organizations.length] ?? "";
      for (const registrationId of byOrganization.get(organizationId) ?? []) {
        const free = Math.min(
          options.concurrency - inFlight.size,
          options.concurrencyPerOrganization - inFlightOf("organizationId", organizationId),
          options.concurrencyPerRegistration - inFlightOf("registrationId", registrationId),
        );
        if (free <= 0) continue;
        const due = listDueDeliveriesOf(db, registrationId, nowMs, free);
        for (const delivery of due) start(delivery);
        // Nothing due and nothing leased or retrying later: forgotten until kicked again.
        if (
          due.length === 0 &&
          inFlightOf("registrationId", registrationId) === 0 &&
          !hasPendingBacklog(db, registrationId, 1)
        )
          withPending.delete(registrationId);
      }
    }
    arm();
  }

  function start(delivery: DeliveryRecord): void {
    leaseDelivery(db, delivery.id, Date.now() + options.timeoutMs + LEASE_MARGIN_MS);
    const attempt = deliver(delivery)
      .catch((error: unknown) => console.error("[sandbox] webhook delivery failed unexpectedly", error))
      .finally(() => {
        inFlight.delete(delivery.id);
        kick();
      });
    inFlight.set(delivery.id, {
      organizationId: delivery.organizationId,
      registrationId: delivery.registrationId,
      attempt,
    });
  }

  /**
   * A timer for the earliest pending delivery (those being attempted are leased into the future).
   * When that one is already due, its slots are taken: a finishing attempt kicks the next pass, and
   * the timer only looks again after BLOCKED_RECHECK_MS.
   */
  function arm(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const due = nextDeliveryDueAt(db);
    if (due === null) return;
    const wait = due - Date.now();
    timer = setTimeout(run, Math.min(MAX_TIMER_MS, wait > 0 ? wait : BLOCKED_RECHECK_MS));
    timer.unref();
  }

  function prune(): number {
    return pruneDeliveryHistory(db, {
      olderThanIso: new Date(Date.now() - options.historyRetentionMs).toISOString(),
      keepPerOrganization: options.historyMaxPerOrganization,
    });
  }
  const pruneTimer = setInterval(() => {
    try {
      prune();
    } catch (error) {
      console.error("[sandbox] pruning webhook delivery history failed", error);
    }
  }, PRUNE_INTERVAL_MS);
  pruneTimer.unref();

  async function deliver(delivery: DeliveryRecord): Promise<void> {
    const registration = findRegistrationForDelivery(db, delivery.registrationId);
    const payload = findWebhookEventPayload(db, delivery.eventId);
    const attemptedAt = new Date().toISOString();
    if (registration === null || registration.status !== "active" || payload === null) {
      // Nothing was sent: the last attempt's time and answer stay what they were, for whoever
      // looks into why the receiver never got the event.
      recordDeliveryAttempt(db, delivery.id, {
        status: "cancelled",
        attempts: delivery.attempts,
        nextAttemptAt: null,
        lastAttemptAt: delivery.lastAttemptAt,
        updatedAt: attemptedAt,
        lastResponseStatus: delivery.lastResponseStatus,
        lastError: registration === null ? "registration deleted" : `registration ${registration.status}`,
        deliveredAt: null,
      });
      return;
    }
    const attempts = delivery.attempts + 1;
    const headers = signedHeaders(registration.secret, delivery.eventId, payload);
    const inbox = inboxes.inboxUrl(registration.url);
    const refused = inbox === null ? webhookUrlProblem(registration.url, urlPolicy) : null;
    // An inbox of this sandbox is reached in process: the same headers, body, timeout, answer and
    // retries as over HTTP, without the URL policy's loopback rule or a socket to this very process.
    const outcome =
      inbox?.kind === "inbox"
        ? await attempt((signal) =>
            inboxes.receive(
              {
                organizationId: delivery.organizationId,
                inboxName: inbox.name,
                registrationId: delivery.registrationId,
                secret: registration.secret,
                deliveryId: delivery.id,
                attempt: attempts,
                eventId: delivery.eventId,
                eventType: delivery.eventType,
                headers,
                body: payload,
              },
              signal,
            ),
          )
        : inbox?.kind === "bad_name"
          ? { status: null, error: `not sent: the URL ${inbox.reason}` }
          : refused === null
            ? await attempt((signal) => post(registration.url, headers, payload, signal))
            : { status: null, error: `not sent: the URL ${refused}` };
    if (closed) return; // the database may be closing; the delivery stays pending for a restart
    const succeeded = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const givingUp = !succeeded && attempts >= options.maxAttempts;
    recordDeliveryAttempt(db, delivery.id, {
      status: succeeded ? "succeeded" : givingUp ? "failed" : "pending",
      attempts,
      nextAttemptAt:
        succeeded || givingUp ? null : Date.now() + options.retryBaseDelayMs * 2 ** (attempts - 1),
      lastAttemptAt: attemptedAt,
      updatedAt: attemptedAt,
      lastResponseStatus: outcome.status,
      lastError: succeeded ? null : (outcome.error ?? `receiver answered ${outcome.status}`),
      deliveredAt: succeeded ? new Date().toISOString() : null,
    });
  }

  /** One attempt's outcome: the status its receiver answered, or why there was none. */
  async function attempt(
    send: (signal: AbortSignal) => Promise<number>,
  ): Promise<{ status: number | null; error: string | null }> {
    try {
      const status = await send(AbortSignal.any([abort.signal, AbortSignal.timeout(options.timeoutMs)]));
      return { status, error: null };
    } catch (error) {
      return {
        status: null,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      };
    }
  }

  async function post(
    url: string,
    headers: Record<string, string>,
    body: string,
    signal: AbortSignal,
  ): Promise<number> {
    const response = await request(url, {
      method: "POST",
      dispatcher: agent,
      headers,
      body,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal,
    });
    await response.body.dump();
    return response.statusCode;
  }

  // Deliveries left pending by a previous process resume at startup; those of registrations
  // deleted meanwhile end now, and old history goes.
  cancelPendingDeliveries(db, null, "registration deleted", new Date().toISOString());
  prune();
  kick();

  return {
    kick,
    prune,
    async pause() {
      paused = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (immediate !== null) clearImmediate(immediate);
      immediate = null;
      await Promise.allSettled([...inFlight.values()].map((f) => f.attempt));
    },
    resume() {
      paused = false;
      kick();
    },
    async close() {
      closed = true;
      clearInterval(pruneTimer);
      if (timer !== null) clearTimeout(timer);
      if (immediate !== null) clearImmediate(immediate);
      abort.abort();
      await Promise.allSettled([...inFlight.values()].map((f) => f.attempt));
      await agent.destroy();
    },
  };
}
