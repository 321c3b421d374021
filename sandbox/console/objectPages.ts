import type { DatabaseSync } from "node:sqlite";
import { findApprovalRequest } from "../domain/approvalRequests.ts";
import { ACTIVITY_STATUS } from "../domain/approvals.ts";
import { deliveryDetail, listDeliveryHistory, type DeliveryView } from "../domain/events/deliveryHistory.ts";
import { withLegAmounts } from "../domain/money/depositLegs.ts";
import { depositView } from "../domain/money/deposits.ts";
import { WITHDRAW_ENDPOINT } from "../domain/money/withdrawals.ts";
import { withLegTimes } from "../domain/money/withdrawalTimeline.ts";
import type { MoneyDeps } from "../domain/money/moneyDeps.ts";
import type { LoggedRequestSummary, RequestLog } from "../domain/requestLog.ts";
import { STRATEGY_UPDATE_ENDPOINT, type StrategyUpdates } from "../domain/strategyUpdates.ts";
import { CREATE_WALLET_ENDPOINT } from "../domain/wallets.ts";
import { CREATE_WEBHOOK_ENDPOINT, registrationView } from "../domain/webhooks.ts";
import { findDeposit } from "../store/depositStore.ts";
import { findResourceById, findResourceByRequestId, type FoundResource } from "../store/lookupStore.ts";
import { findSigningActivity } from "../store/signingActivityStore.ts";
import { listVotes } from "../store/signingProviderStore.ts";
import { findWebhook } from "../store/webhookStore.ts";
import { findWebhookEventPayload } from "../store/webhookDeliveryStore.ts";
import { findWithdrawal } from "../store/withdrawalStore.ts";

/**
 * An object's page in the console (`/_console/ids/{id}`): the object as the API shows it, the
 * request that made it while the request log still holds it, one timeline of what happened to it,
 * and the objects it relates to. Read from what the sandbox already keeps (the domain's views, the
 * webhook outbox, the request log): nothing is recorded for the page's sake.
 */

/** What a page can be about: every kind an id names, and a logged request. */
export type ObjectKind = FoundResource["kind"] | "request";

/**
 * A step of the timeline. Two clocks meet here, and the page says which each step is on: the
 * sandbox's (`sandbox`: the object's own times and its events, which move when the clock is
 * advanced) and the wall clock (`wall`: requests and delivery attempts, which run in real time,
 * since a receiver checks a signature's time against its own). Steps come in the order they
 * happened, each clock's steps by their time, so no step is sorted against the other clock.
 */
export type TimelineStep = {
  at: string;
  clock: "sandbox" | "wall";
  /** `request`: the request that made it; `state`: a change the object records; `event`: a webhook event about it; `vote`: an approver's vote. */
  what: "request" | "state" | "event" | "vote";
  /** What happened, in words. */
  text: string;
  status: string | null;
  /** For an event: its id and type, and its deliveries (each registration's attempts). */
  eventId?: string;
  eventType?: string;
  deliveries?: DeliveryView[];
  /** For a request: its id (the Events page shows its bodies). */
  requestId?: string;
  /** For a payout leg still processing: when it is due to pay out (sandbox clock). */
  dueAt?: string;
};

/** An object this one relates to, with how. `exists` is false for one since deleted. */
export type RelatedObject = FoundResource & { relation: string; exists: boolean };

export type ObjectPage = {
  kind: ObjectKind;
  id: string;
  walletId: string | null;
  /** The object as the API (or the console API) answers it; a webhook registration's secret is never in it. */
  object: unknown;
  /** The request that made it, from the request log while it holds it; null otherwise. */
  madeBy: LoggedRequestSummary | null;
  timeline: TimelineStep[];
  related: RelatedObject[];
};

export interface ObjectPageDeps {
  db: DatabaseSync;
  money: MoneyDeps;
  strategyUpdates: StrategyUpdates;
  requestLog: RequestLog;
}

/** Creations whose answer repeats the client's `requestId`: where an object is found by it. */
const CLIENT_REQUEST_ENDPOINTS = [
  WITHDRAW_ENDPOINT,
  STRATEGY_UPDATE_ENDPOINT,
  CREATE_WALLET_ENDPOINT,
  CREATE_WEBHOOK_ENDPOINT,
];

/** The most deliveries of a wallet read to find the events about one of its objects. */
const WALLET_DELIVERIES_READ = 200;
/** A registration's newest deliveries shown on its page. */
const REGISTRATION_DELIVERIES_SHOWN = 25;

/**
 * What an id names in the organization: an object (by its id), a logged request (by its
 * `x-request-id`), or the object a client's `requestId` made. Null when nothing of it is here,
 * another organization's ids included.
 */
export function findAnyId(
  deps: ObjectPageDeps,
  organizationId: string,
  rawId: string,
): FoundResource | { kind: "request"; id: string; walletId: string | null } | null {
  const id = rawId.toLowerCase();
  const found = findResourceById(deps.db, organizationId, id);
  if (found !== null) return found;
  const logged = deps.requestLog.find(organizationId, id);
  if (logged !== null) return { kind: "request", id, walletId: logged.walletId };
  return findResourceByRequestId(deps.db, organizationId, id, CLIENT_REQUEST_ENDPOINTS);
}

/** The page of what an id names, or null when nothing of it is in the organization. */
export function objectPage(deps: ObjectPageDeps, organizationId: string, rawId: string): ObjectPage | null {
  const found = findAnyId(deps, organizationId, rawId);
  if (found === null) return null;
  if (found.kind === "request") return requestPage(deps, organizationId, found.id);
  const madeBy = deps.requestLog.maker(organizationId, found.id);
  const page = pageOf(deps, organizationId, found);
  const requestStep: TimelineStep[] =
    madeBy === null
      ? []
      : [
          {
            at: madeBy.at,
            clock: "wall",
            what: "request",
            text: `${madeBy.method} ${madeBy.path} answered ${madeBy.status}`,
            status: String(madeBy.status),
            requestId: madeBy.requestId,
          },
        ];
  return { ...found, ...page, madeBy, timeline: [...requestStep, ...page.timeline] };
}

/** A logged request: what it made is what a reader wants from it. */
function requestPage(deps: ObjectPageDeps, organizationId: string, id: string): ObjectPage {
  const logged = deps.requestLog.find(organizationId, id)!;
  const { requestBody: _request, responseBody: _response, ...summary } = logged;
  return {
    kind: "request",
    id,
    walletId: logged.walletId,
    object: summary,
    madeBy: null,
    timeline: [],
    related: [
      ...relatedIds(deps, organizationId, logged.madeIds, "made by this request"),
      ...relatedIds(deps, organizationId, logged.walletId === null ? [] : [logged.walletId], "wallet"),
    ],
  };
}

type PageBody = Pick<ObjectPage, "object" | "timeline" | "related">;

function pageOf(deps: ObjectPageDeps, organizationId: string, found: FoundResource): PageBody {
  const { db } = deps;
  switch (found.kind) {
    case "deposit": {
      const deposit = withLegAmounts(
        deps.money,
        found.walletId!,
        depositView(findDeposit(db, organizationId, found.id)!),
      );
      return {
        object: deposit,
        timeline: byTime([
          state(deposit.createdAt, "Detected on chain", "pending"),
          deposit.completedAt
            ? state(deposit.completedAt, "Completed: the money reached the positions", "completed")
            : deposit.status === "pending"
              ? null
              : state(deposit.updatedAt, `Now ${deposit.status}`, deposit.status),
          ...eventSteps(deps, organizationId, found.walletId!, found.id),
        ]),
        related: relatedIds(deps, organizationId, [found.walletId!], "wallet"),
      };
    }
    case "withdrawal": {
      const withdrawal = withLegTimes(deps.money, findWithdrawal(db, organizationId, found.id)!);
      return {
        object: withdrawal,
        timeline: byTime([
          ...requestedAndApproval(db, organizationId, withdrawal),
          ...withdrawal.legTimes.map((leg) =>
            leg.status === "processing" && leg.dueAt !== null
              ? { ...state(leg.updatedAt, `Leg ${leg.legKey} processing`, leg.status), dueAt: leg.dueAt }
              : state(leg.updatedAt, `Leg ${leg.legKey} ${leg.outcome ?? leg.status}`, leg.status),
          ),
          withdrawal.completedAt
            ? state(withdrawal.completedAt, `Finished: ${withdrawal.status}`, withdrawal.status)
            : null,
          ...eventSteps(deps, organizationId, found.walletId!, found.id),
        ]),
        related: walletAndApproval(deps, organizationId, found.walletId!, withdrawal.signingActivityId),
      };
    }
    case "strategy_update": {
      const update = deps.strategyUpdates.get(organizationId, found.id);
      const finished = update.status === "completed" || update.status === "failed";
      return {
        object: update,
        timeline: byTime([
          ...requestedAndApproval(db, organizationId, update),
          finished ? state(update.updatedAt, `Finished: ${update.status}`, update.status) : null,
          ...eventSteps(deps, organizationId, found.walletId!, found.id),
        ]),
        related: walletAndApproval(deps, organizationId, found.walletId!, update.signingActivityId),
      };
    }
    case "signing_activity": {
      const activity = findApprovalRequest(db, organizationId, found.id, deps.money.catalog(organizationId))!;
      const subject =
        "strategyUpdateId" in activity.operation
          ? activity.operation.strategyUpdateId
          : "withdrawalId" in activity.operation
            ? activity.operation.withdrawalId
            : null;
      return {
        object: activity,
        timeline: byTime([
          state(
            activity.createdAt,
            `Created, needing ${activity.requiredApprovals} approval(s)`,
            ACTIVITY_STATUS.consensusNeeded,
          ),
          ...listVotes(db, found.id).map((vote): TimelineStep => ({
            at: vote.createdAt,
            clock: "sandbox",
            what: "vote",
            text: `${vote.selection === "VOTE_SELECTION_APPROVED" ? "Approved" : "Rejected"} by key ${vote.publicKey}`,
            status: vote.selection,
          })),
          activity.status === ACTIVITY_STATUS.consensusNeeded
            ? null
            : state(activity.updatedAt, `Decided: ${activity.status}`, activity.status),
        ]),
        related: [
          ...relatedIds(deps, organizationId, subject === null ? [] : [subject], "what it approves"),
          ...relatedIds(
            deps,
            organizationId,
            activity.walletId === null ? [] : [activity.walletId],
            "wallet",
          ),
        ],
      };
    }
    case "webhook_registration": {
      const record = findWebhook(db, organizationId, found.id)!;
      const deliveries = listDeliveryHistory(db, organizationId, {
        registrationId: found.id,
        limit: REGISTRATION_DELIVERIES_SHOWN,
      });
      return {
        object: registrationView(record),
        timeline: byTime([
          state(record.createdAt, "Registered", "active"),
          record.disabledAt
            ? state(
                record.disabledAt,
                `Disabled${record.disabledReason ? `: ${record.disabledReason}` : ""}`,
                "disabled",
              )
            : null,
          record.updatedAt !== record.createdAt && record.updatedAt !== record.disabledAt
            ? state(record.updatedAt, `Last changed, now ${record.status}`, record.status)
            : null,
        ]),
        related: deliveries.map((delivery) => ({
          kind: "webhook_delivery",
          id: delivery.id,
          walletId: delivery.walletId,
          relation: `delivery of ${delivery.eventType} (${delivery.status})`,
          exists: true,
        })),
      };
    }
    case "webhook_delivery": {
      const delivery = deliveryDetail(db, organizationId, found.id);
      const event = delivery.payload as { createdAt?: unknown; data?: unknown } | null;
      const about = event === null ? [] : subjectsOf(event.data);
      const again = listDeliveryHistory(db, organizationId, { eventId: delivery.eventId, limit: 50 }).filter(
        (other) => other.id !== delivery.id,
      );
      return {
        object: delivery,
        timeline: [
          ...(typeof event?.createdAt === "string"
            ? [state(event.createdAt, `Event ${delivery.eventType} made`, null)]
            : []),
          ...deliverySteps(delivery),
        ],
        related: [
          ...relatedIds(
            deps,
            organizationId,
            [delivery.registrationId],
            "registration",
            "webhook_registration",
          ),
          ...relatedIds(deps, organizationId, about, "what the event is about"),
          ...relatedIds(
            deps,
            organizationId,
            delivery.walletId === null ? [] : [delivery.walletId],
            "wallet",
          ),
          ...again.map((other) => ({
            kind: "webhook_delivery" as const,
            id: other.id,
            walletId: other.walletId,
            relation: "the same event, delivered again or to another registration",
            exists: true,
          })),
        ],
      };
    }
    case "wallet":
      // A wallet has its own page (/wallets/{id}); this answers what links need.
      return { object: { id: found.id }, timeline: [], related: [] };
  }
}

/**
 * A withdrawal's or a strategy update's first steps: requested (waiting for approval when it has a
 * signing activity), and the activity's decision once made.
 */
function requestedAndApproval(
  db: DatabaseSync,
  organizationId: string,
  subject: { createdAt: string; signingActivityId?: string | null | undefined },
): (TimelineStep | null)[] {
  const activityId = subject.signingActivityId ?? null;
  // Only the decision is read here: the activity's record, not what it would do.
  const activity = activityId === null ? null : findSigningActivity(db, organizationId, activityId);
  return [
    state(subject.createdAt, "Requested", activityId === null ? "processing" : "pending_approval"),
    activity === null || activity.status === ACTIVITY_STATUS.consensusNeeded
      ? null
      : state(activity.updatedAt, `Approval decided: ${activity.status}`, activity.status),
  ];
}

/** A withdrawal's or a strategy update's related objects: its wallet, and its signing activity. */
const walletAndApproval = (
  deps: ObjectPageDeps,
  organizationId: string,
  walletId: string,
  activityId: string | null | undefined,
) => [
  ...relatedIds(deps, organizationId, [walletId], "wallet"),
  ...relatedIds(deps, organizationId, activityId ? [activityId] : [], "its approval"),
];

const state = (at: string, text: string, status: string | null): TimelineStep => ({
  at,
  clock: "sandbox",
  what: "state",
  text,
  status,
});

/** Sandbox-clock steps by time; a step on equal time keeps its place (state before its event). */
function byTime(steps: (TimelineStep | null)[]): TimelineStep[] {
  return steps
    .filter((step): step is TimelineStep => step !== null)
    .map((step, index) => ({ step, index }))
    .sort((a, b) => Date.parse(a.step.at) - Date.parse(b.step.at) || a.index - b.index)
    .map(({ step }) => step);
}

/** The deliveries' attempts as steps, on the wall clock. */
function deliverySteps(delivery: DeliveryView): TimelineStep[] {
  const steps: TimelineStep[] = [
    {
      at: delivery.createdAt,
      clock: "wall",
      what: "state",
      text: `Queued for ${delivery.url}`,
      status: "pending",
    },
  ];
  if (delivery.lastAttemptAt !== null)
    steps.push({
      at: delivery.lastAttemptAt,
      clock: "wall",
      what: "state",
      text: `Attempt ${delivery.attempts} (the last): ${
        delivery.lastResponseStatus === null ? "no answer" : `answered ${delivery.lastResponseStatus}`
      }${delivery.lastError ? `, ${delivery.lastError}` : ""}`,
      status: delivery.lastResponseStatus === null ? null : String(delivery.lastResponseStatus),
    });
  if (delivery.status === "pending" && delivery.nextAttemptAt !== null)
    steps.push({
      at: delivery.nextAttemptAt,
      clock: "wall",
      what: "state",
      text: "Next attempt due",
      status: "pending",
    });
  else if (delivery.status !== "pending")
    steps.push({
      at: delivery.deliveredAt ?? delivery.updatedAt,
      clock: "wall",
      what: "state",
      text: `Delivery ${delivery.status}`,
      status: delivery.status,
    });
  return steps;
}

/** The ids an event's data is about: a deposit, a withdrawal (or its payout), a strategy update. */
function subjectsOf(data: unknown): string[] {
  const record = (data ?? {}) as Record<string, unknown>;
  const nested = (field: string) => (record[field] as { id?: unknown } | undefined)?.id;
  return [nested("deposit"), nested("withdrawal"), nested("strategy"), record["withdrawalId"]].filter(
    (value): value is string => typeof value === "string",
  );
}

/**
 * The webhook events about an object, each with its deliveries: read from the wallet's newest
 * deliveries (their own index range), whose events' data name the object. An event nobody
 * subscribed to is not stored (the outbox only holds what it sends), so none is shown for it.
 */
function eventSteps(
  deps: ObjectPageDeps,
  organizationId: string,
  walletId: string,
  id: string,
): TimelineStep[] {
  const byEvent = new Map<string, DeliveryView[]>();
  // Listed newest first: read oldest first, so events made at one instant keep the order they were made in.
  const newestFirst = listDeliveryHistory(deps.db, organizationId, {
    walletId,
    limit: WALLET_DELIVERIES_READ,
  });
  for (const delivery of newestFirst.reverse())
    byEvent.set(delivery.eventId, [...(byEvent.get(delivery.eventId) ?? []), delivery]);
  const steps: TimelineStep[] = [];
  for (const [eventId, deliveries] of byEvent) {
    const text = findWebhookEventPayload(deps.db, eventId);
    if (text === null) continue;
    const event = JSON.parse(text) as {
      type: string;
      createdAt: string;
      test?: boolean;
      data: { previousStatus?: string | null; [field: string]: unknown };
    };
    if (event.test === true || !subjectsOf(event.data).includes(id)) continue;
    const status = statusOf(event.data);
    steps.push({
      at: event.createdAt,
      clock: "sandbox",
      what: "event",
      text: `${event.type}: ${event.data.previousStatus ?? "new"} → ${status ?? "?"}`,
      status,
      eventId,
      eventType: event.type,
      deliveries,
    });
  }
  return steps;
}

function statusOf(data: Record<string, unknown>): string | null {
  for (const field of ["deposit", "withdrawal", "strategy", "payout"]) {
    const status = (data[field] as { status?: unknown } | undefined)?.status;
    if (typeof status === "string")
      return field === "payout"
        ? `${String((data[field] as { legKey?: unknown }).legKey)} ${status}`
        : status;
  }
  return null;
}

/**
 * Each id as a related object. Only a registration can be deleted: one gone is kept, marked as
 * such (its deliveries still name it); any other id found as nothing (a fault a request armed) is
 * no object and is left out.
 */
function relatedIds(
  deps: ObjectPageDeps,
  organizationId: string,
  ids: readonly string[],
  relation: string,
  goneKind?: "webhook_registration",
): RelatedObject[] {
  return ids.flatMap((id): RelatedObject[] => {
    const found = findResourceById(deps.db, organizationId, id);
    if (found !== null) return [{ ...found, relation, exists: true }];
    return goneKind === undefined ? [] : [{ kind: goneKind, id, walletId: null, relation, exists: false }];
  });
}
