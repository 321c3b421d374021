import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { DatabaseSync } from "node:sqlite";
import {
  INBOX_NAME_RULE,
  INBOX_PATH_PREFIX,
  InboxNameSchema,
  type ConfigureInboxRequest,
  type InboxAnswer,
  type InboxDelivery,
  type WebhookInbox,
} from "../../../sdk/nodejs/contract/index.ts";
import { checkWebhookSignature } from "../../../sdk/nodejs/contract/webhookSignature.ts";
import { inTransaction } from "../../store/connection.ts";
import {
  clearInboxDeliveries,
  countInboxes,
  deleteInbox,
  findInbox,
  findInboxDelivery,
  insertInboxDelivery,
  listInboxDeliveries,
  listInboxes,
  upsertInbox,
  type InboxRecord,
} from "../../store/webhookInboxStore.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { hostnameOf, isLoopbackHost } from "../hostNames.ts";

/** Deliveries one inbox keeps: a ring, the oldest dropped as each new one arrives. */
export const INBOX_CAPACITY = 200;
/** Inboxes one organization may have. */
export const MAX_INBOXES_PER_ORGANIZATION = 20;
/** What a new inbox answers until told otherwise. */
export const DEFAULT_INBOX_ANSWER: InboxAnswer = { status: 200, delayMs: 0 };

/** Host names a URL may give for the sandbox itself, besides its allowed hosts. */

/** What a registration URL is to the inboxes: not theirs, one of them, or theirs with a bad name. */
export type InboxUrl = { kind: "inbox"; name: string } | { kind: "bad_name"; reason: string } | null;

/** One attempt handed to an inbox by the dispatcher: what it would have POSTed, and to whom. */
export interface InboxAttempt {
  organizationId: string;
  inboxName: string;
  registrationId: string;
  /** The registration's secret: the signature is checked with it here and it is kept nowhere. */
  secret: string;
  deliveryId: string;
  attempt: number;
  eventId: string;
  eventType: string;
  headers: Readonly<Record<string, string>>;
  body: string;
}

export interface WebhookInboxes {
  /** Whether a registration URL names one of this sandbox's inboxes (`<sandbox>/_sandbox/inboxes/<name>`). */
  inboxUrl(url: string): InboxUrl;
  /**
   * The problem of a registration URL naming an inbox, or null: a bad name, or a new inbox the
   * organization has no room for. It changes nothing: a registration refused after it (its cap, an
   * idempotency conflict) must leave no inbox behind.
   */
  registrationUrlProblem(organizationId: string, url: string): string | null;
  /**
   * Makes the inbox a registration URL names, with the default answer, when the organization has
   * none of that name yet: called in the registration's own transaction, after its checks.
   */
  ensureForRegistration(organizationId: string, url: string): void;
  configure(organizationId: string, name: string, change: ConfigureInboxRequest): WebhookInbox;
  get(organizationId: string, name: string): WebhookInbox;
  list(organizationId: string): WebhookInbox[];
  remove(organizationId: string, name: string): void;
  deliveries(
    organizationId: string,
    name: string,
    filter: { eventType?: string | undefined; limit: number },
  ): InboxDelivery[];
  delivery(organizationId: string, name: string, id: string): InboxDelivery;
  clear(organizationId: string, name: string): void;
  /**
   * Receives one attempt: records it with its signature check and the answer, waits the answer's
   * delay (given up when `signal` aborts: the sender timed out), and answers its status code.
   * Throws when the organization has no such inbox, as a connection to nowhere would fail.
   */
  receive(attempt: InboxAttempt, signal: AbortSignal): Promise<number>;
  /** The port the sandbox listens on: inbox URLs on a loopback name name it. */
  listening(port: number): void;
}

/**
 * Webhook inboxes: receivers the sandbox hosts for tests (docs/sandbox.md "Webhook inboxes"). An
 * inbox is named within one organization, and a registration's deliveries reach the inbox of that
 * name of the registration's own organization: the URL carries no organization, so one naming a
 * name another organization uses reaches, and tells, nothing of that other inbox.
 */
export function createWebhookInboxes(
  db: DatabaseSync,
  options: { allowedHosts: readonly string[]; now: () => Date },
): WebhookInboxes {
  let port: number | null = null;

  function inboxUrl(url: string): InboxUrl {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const host = hostnameOf(parsed.hostname);
    const loopback = isLoopbackHost(host);
    const ours =
      parsed.protocol === "http:" &&
      parsed.username === "" &&
      parsed.password === "" &&
      ((loopback && port !== null && parsed.port === String(port)) ||
        (!loopback && options.allowedHosts.some((allowed) => hostnameOf(allowed) === host)));
    if (!ours || !parsed.pathname.startsWith(`${INBOX_PATH_PREFIX}/`)) return null;
    const name = parsed.pathname.slice(INBOX_PATH_PREFIX.length + 1);
    if (parsed.search !== "" || parsed.hash !== "" || !InboxNameSchema.safeParse(name).success)
      return {
        kind: "bad_name",
        reason: `names one of this sandbox's inboxes, as ${INBOX_PATH_PREFIX}/<name> with nothing after it; the name ${INBOX_NAME_RULE}`,
      };
    return { kind: "inbox", name };
  }

  function view(record: InboxRecord): WebhookInbox {
    return {
      name: record.name,
      url: `http://127.0.0.1:${port ?? 0}${INBOX_PATH_PREFIX}/${record.name}`,
      answer: record.answer,
      deliveriesKept: record.deliveriesKept,
      capacity: INBOX_CAPACITY,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  function own(organizationId: string, name: string): InboxRecord {
    const record = findInbox(db, organizationId, name);
    if (record === null)
      throw new NotFoundError(`webhook inbox ${JSON.stringify(name)} of this organization`);
    return record;
  }

  /** The inbox, made with `answer` when the organization has none of that name; null when it may have no more. */
  function upsert(organizationId: string, name: string, change: ConfigureInboxRequest): boolean {
    return inTransaction(db, () => {
      const existing = findInbox(db, organizationId, name);
      if (existing === null && countInboxes(db, organizationId) >= MAX_INBOXES_PER_ORGANIZATION) return false;
      const answer = { ...(existing?.answer ?? DEFAULT_INBOX_ANSWER), ...change };
      upsertInbox(db, organizationId, name, answer, options.now().toISOString());
      return true;
    });
  }

  const tooMany = `this organization has ${MAX_INBOXES_PER_ORGANIZATION} webhook inboxes, the most the sandbox keeps; delete one first (DELETE ${INBOX_PATH_PREFIX}/<name>)`;

  return {
    inboxUrl,
    registrationUrlProblem(organizationId, url) {
      const found = inboxUrl(url);
      if (found === null) return null;
      if (found.kind === "bad_name") return found.reason;
      if (findInbox(db, organizationId, found.name) !== null) return null;
      return countInboxes(db, organizationId) >= MAX_INBOXES_PER_ORGANIZATION ? tooMany : null;
    },
    ensureForRegistration(organizationId, url) {
      const found = inboxUrl(url);
      if (found === null || found.kind === "bad_name") return;
      if (findInbox(db, organizationId, found.name) !== null) return;
      if (!upsert(organizationId, found.name, {}))
        throw new ValidationError([{ field: "url", reason: tooMany }]);
    },
    configure(organizationId, name, change) {
      if (!upsert(organizationId, name, change)) throw new ConflictError(tooMany);
      return view(own(organizationId, name));
    },
    get: (organizationId, name) => view(own(organizationId, name)),
    list: (organizationId) => listInboxes(db, organizationId).map(view),
    remove(organizationId, name) {
      if (!inTransaction(db, () => deleteInbox(db, organizationId, name))) own(organizationId, name);
    },
    deliveries(organizationId, name, filter) {
      own(organizationId, name);
      return listInboxDeliveries(db, organizationId, name, filter);
    },
    delivery(organizationId, name, id) {
      own(organizationId, name);
      const found = findInboxDelivery(db, organizationId, name, id);
      if (found === null) throw new NotFoundError(`delivery ${id} in webhook inbox ${JSON.stringify(name)}`);
      return found;
    },
    clear(organizationId, name) {
      own(organizationId, name);
      clearInboxDeliveries(db, organizationId, name);
    },
    async receive(attempt, signal) {
      const inbox = findInbox(db, attempt.organizationId, attempt.inboxName);
      if (inbox === null)
        throw new Error(
          `no webhook inbox ${JSON.stringify(attempt.inboxName)} in this organization (deleted?): PUT ${INBOX_PATH_PREFIX}/${attempt.inboxName} makes it`,
        );
      const check = checkWebhookSignature({
        payload: attempt.body,
        headers: attempt.headers,
        secret: attempt.secret,
      });
      const delivery: InboxDelivery = {
        id: randomUUID(),
        receivedAt: new Date().toISOString(),
        eventId: attempt.eventId,
        eventType: attempt.eventType,
        registrationId: attempt.registrationId,
        deliveryId: attempt.deliveryId,
        attempt: attempt.attempt,
        headers: Object.entries(attempt.headers).map(([name, value]) => ({ name, value })),
        body: attempt.body,
        signature: check.valid ? { valid: true, reason: null } : { valid: false, reason: check.reason },
        answer: inbox.answer,
      };
      inTransaction(db, () =>
        insertInboxDelivery(db, attempt.organizationId, attempt.inboxName, delivery, INBOX_CAPACITY),
      );
      if (inbox.answer.delayMs > 0)
        // The sender's reason (its timeout, or the sandbox closing), as an HTTP attempt would report it.
        await sleep(inbox.answer.delayMs, undefined, { signal }).catch(() => {
          throw signal.reason;
        });
      return inbox.answer.status;
    },
    listening(listeningPort) {
      port = listeningPort;
    },
  };
}
