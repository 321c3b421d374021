import { randomUUID } from "node:crypto";
import { z } from "zod";
import { ConflictError } from "./errors.ts";
import {
  compilePathPattern,
  countWildcards,
  MAX_PATH_PATTERN_LENGTH,
  MAX_PATH_PATTERN_WILDCARDS,
  type PathPattern,
} from "./pathPattern.ts";

/**
 * Fault injection for tests of retry and recovery logic. Faults live in memory (a restart clears
 * them) and belong to the organization that registered them, so tests sharing a sandbox with
 * different tokens cannot disturb one another.
 */

/** What to do to a matching request. */
export const HttpFaultActionSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({
      /** Answer with this status instead of running the handler (nothing is applied). */
      kind: z.literal("status"),
      status: z
        .number()
        .int()
        .min(429, "must be 429 or a 5xx status")
        .max(599, "must be 429 or a 5xx status")
        .refine((s) => s === 429 || s >= 500, "must be 429 or a 5xx status"),
      /** Sent as `Retry-After` (seconds) on a 429 or 503. */
      retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    }),
    z.object({
      /** Wait this long (real time) before running the handler. */
      kind: z.literal("delay"),
      delayMs: z.number().int().min(0).max(60_000, "must be at most 60000 ms"),
    }),
    z.object({
      /** Run the handler (the request IS applied), then destroy the socket instead of answering. */
      kind: z.literal("drop"),
    }),
    z.object({
      /**
       * A service that throttles by concurrency: answer 429 (nothing applied) to a matching request
       * that arrives while `maxInFlight` or more of the organization's requests are in flight; the
       * others pass untouched. `times` counts the 429s it may send.
       */
      kind: z.literal("concurrency"),
      maxInFlight: z.number().int().min(1).max(1000),
      /** Sent as `Retry-After` (seconds); default 1. */
      retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    }),
  ],
  { error: 'kind must be "status", "delay", "drop" or "concurrency"' },
);
export type HttpFaultAction = z.infer<typeof HttpFaultActionSchema>;

export const HttpFaultRequestSchema = z.intersection(
  z.object({
    /** HTTP method, or `*` for any. */
    method: z.string().min(1).default("*"),
    /**
     * Path pattern: a route pattern such as `/v2/portfolio-wallets/:id/strategy` (`:name` matches
     * one segment) and/or `*` wildcards (any characters); matched without backtracking (pathPattern.ts).
     */
    path: z
      .string()
      .startsWith("/", "must start with /")
      .max(MAX_PATH_PATTERN_LENGTH, `must be at most ${MAX_PATH_PATTERN_LENGTH} characters`)
      .refine(
        (path) => countWildcards(path) <= MAX_PATH_PATTERN_WILDCARDS,
        `must hold at most ${MAX_PATH_PATTERN_WILDCARDS} wildcards (* or :name)`,
      ),
    /** How many matching requests the fault applies to. */
    times: z.number().int().min(1).max(1000).default(1),
    /**
     * How many matching requests pass untouched before the fault applies: every matching request
     * counts, faulted or not, so faults armed with `after` 0, 3, 6, ... meet the 1st, 4th, 7th, ...
     * request of a route: a burst spread across a run.
     */
    after: z.number().int().min(0).max(10_000).default(0),
  }),
  HttpFaultActionSchema,
);
export type HttpFaultRequest = z.infer<typeof HttpFaultRequestSchema>;

export type HttpFault = HttpFaultRequest & {
  id: string;
  organizationId: string;
  remaining: number;
  /** Matching requests still to pass before the fault applies. */
  passesLeft: number;
};

/**
 * A planned failure of a wallet's next operation, as GET /_sandbox/faults lists it: a payout leg
 * of its next withdrawal (`legKey`), or its next strategy update.
 */
export type PlannedFailure =
  | { id: string; kind: "withdrawal-leg"; walletId: string; legKey: string; reason: string }
  | { id: string; kind: "strategy-update"; walletId: string; reason: string };

/** How many HTTP faults one organization may have armed at once. */
export const MAX_HTTP_FAULTS_PER_ORGANIZATION = 50;

export interface FaultRegistry {
  addHttpFault(organizationId: string, request: HttpFaultRequest): HttpFault;
  /**
   * The first registered fault that applies to the request, with one use consumed; null if none.
   * `inFlight` is how many of the organization's requests are in flight, this one included (a
   * `concurrency` fault applies only above its bound).
   */
  takeHttpFault(organizationId: string, method: string, path: string, inFlight: number): HttpFault | null;
  listHttpFaults(organizationId: string): HttpFault[];
  /** The organization's planned leg and strategy-update failures, in the order planned. */
  listPlannedFailures(organizationId: string): PlannedFailure[];
  /** Disarms one fault (HTTP or planned) of the organization by id; false when it has none such. */
  disarm(organizationId: string, id: string): boolean;
  /** Makes the next strategy update of `walletId` fail with `reason` instead of completing. */
  planStrategyFailure(organizationId: string, walletId: string, reason: string): PlannedFailure;
  takeStrategyFailure(organizationId: string, walletId: string): string | null;
  /** Makes a payout leg (`legKey`, `redeem` also matching `redeem_*`) of the next withdrawal of `walletId` that has one fail. */
  planWithdrawalLegFailure(
    organizationId: string,
    walletId: string,
    legKey: string,
    reason: string,
  ): PlannedFailure;
  /** The first planned leg failure matching one of `legKeys`, consumed; null if none. */
  takeWithdrawalLegFailure(
    organizationId: string,
    walletId: string,
    legKeys: readonly string[],
  ): { legKey: string; reason: string } | null;
  clear(organizationId: string): void;
  /** Disarms every organization's faults (a restored snapshot: planned failures named its wallets). */
  clearAll(): void;
}

const legMatches = (planned: string, actual: string) =>
  planned === actual || (planned === "redeem" && actual.startsWith("redeem_"));

export function createFaultRegistry(): FaultRegistry {
  let httpFaults: { fault: HttpFault; pattern: PathPattern }[] = [];
  const strategyFailures = new Map<string, { id: string; reason: string }[]>();
  const legFailures = new Map<string, { id: string; legKey: string; reason: string }[]>();
  const walletKey = (organizationId: string, walletId: string) => `${organizationId}\u0000${walletId}`;
  const walletOf = (organizationId: string, key: string) =>
    key.startsWith(`${organizationId}\u0000`) ? key.slice(organizationId.length + 1) : null;
  /** Removes the entry with `id` from the lists of the organization's wallets in `map`. */
  const removeFrom = <T extends { id: string }>(
    map: Map<string, T[]>,
    organizationId: string,
    id: string,
  ) => {
    for (const [key, entries] of map) {
      if (walletOf(organizationId, key) === null || !entries.some((entry) => entry.id === id)) continue;
      const rest = entries.filter((entry) => entry.id !== id);
      if (rest.length === 0) map.delete(key);
      else map.set(key, rest);
      return true;
    }
    return false;
  };
  return {
    addHttpFault(organizationId, request) {
      const armed = httpFaults.filter((f) => f.fault.organizationId === organizationId).length;
      if (armed >= MAX_HTTP_FAULTS_PER_ORGANIZATION) {
        throw new ConflictError(
          `this organization has ${armed} faults armed, the most the sandbox keeps; clear them with DELETE /_sandbox/faults`,
        );
      }
      const fault: HttpFault = {
        ...request,
        id: randomUUID(),
        organizationId,
        remaining: request.times,
        passesLeft: request.after,
      };
      httpFaults.push({ fault, pattern: compilePathPattern(request.path) });
      return fault;
    },
    takeHttpFault(organizationId, method, path, inFlight) {
      let entry: { fault: HttpFault } | undefined;
      for (const candidate of httpFaults) {
        const { fault, pattern } = candidate;
        const matches =
          fault.organizationId === organizationId &&
          (fault.method === "*" || fault.method.toUpperCase() === method.toUpperCase()) &&
          pattern.matches(path);
        if (!matches) continue;
        // Every matching request counts towards every fault still letting requests pass.
        if (fault.passesLeft > 0) fault.passesLeft -= 1;
        else if (entry === undefined && (fault.kind !== "concurrency" || inFlight > fault.maxInFlight))
          entry = candidate;
      }
      if (entry === undefined) return null;
      entry.fault.remaining -= 1;
      if (entry.fault.remaining <= 0) httpFaults = httpFaults.filter((f) => f.fault !== entry.fault);
      return entry.fault;
    },
    listHttpFaults: (organizationId) =>
      httpFaults.filter((f) => f.fault.organizationId === organizationId).map((f) => f.fault),
    listPlannedFailures(organizationId) {
      const planned: PlannedFailure[] = [];
      for (const [key, entries] of legFailures) {
        const walletId = walletOf(organizationId, key);
        if (walletId !== null)
          for (const entry of entries) planned.push({ kind: "withdrawal-leg", walletId, ...entry });
      }
      for (const [key, entries] of strategyFailures) {
        const walletId = walletOf(organizationId, key);
        if (walletId !== null)
          for (const entry of entries) planned.push({ kind: "strategy-update", walletId, ...entry });
      }
      return planned;
    },
    disarm(organizationId, id) {
      const before = httpFaults.length;
      httpFaults = httpFaults.filter(
        (f) => !(f.fault.organizationId === organizationId && f.fault.id === id),
      );
      if (httpFaults.length !== before) return true;
      return removeFrom(legFailures, organizationId, id) || removeFrom(strategyFailures, organizationId, id);
    },
    planStrategyFailure(organizationId, walletId, reason) {
      const key = walletKey(organizationId, walletId);
      const entry = { id: randomUUID(), reason };
      strategyFailures.set(key, [...(strategyFailures.get(key) ?? []), entry]);
      return { kind: "strategy-update", walletId, ...entry };
    },
    takeStrategyFailure(organizationId, walletId) {
      const key = walletKey(organizationId, walletId);
      const [next, ...rest] = strategyFailures.get(key) ?? [];
      if (rest.length === 0) strategyFailures.delete(key);
      else strategyFailures.set(key, rest);
      return next?.reason ?? null;
    },
    planWithdrawalLegFailure(organizationId, walletId, legKey, reason) {
      const key = walletKey(organizationId, walletId);
      const entry = { id: randomUUID(), legKey, reason };
      legFailures.set(key, [...(legFailures.get(key) ?? []), entry]);
      return { kind: "withdrawal-leg", walletId, ...entry };
    },
    takeWithdrawalLegFailure(organizationId, walletId, legKeys) {
      const key = walletKey(organizationId, walletId);
      const planned = legFailures.get(key) ?? [];
      const index = planned.findIndex((p) => legKeys.some((actual) => legMatches(p.legKey, actual)));
      const fault = planned[index];
      if (fault === undefined) return null;
      const rest = planned.filter((_, i) => i !== index);
      if (rest.length === 0) legFailures.delete(key);
      else legFailures.set(key, rest);
      return {
        legKey: legKeys.find((actual) => legMatches(fault.legKey, actual)) ?? fault.legKey,
        reason: fault.reason,
      };
    },
    clear(organizationId) {
      httpFaults = httpFaults.filter((f) => f.fault.organizationId !== organizationId);
      for (const key of strategyFailures.keys()) {
        if (key.startsWith(`${organizationId}\u0000`)) strategyFailures.delete(key);
      }
      for (const key of legFailures.keys()) {
        if (key.startsWith(`${organizationId}\u0000`)) legFailures.delete(key);
      }
    },
    clearAll() {
      httpFaults = [];
      strategyFailures.clear();
      legFailures.clear();
    },
  };
}
