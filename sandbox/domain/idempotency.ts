import { createHash } from "node:crypto";
import { routePattern, type ApiOperation } from "../../sdk/nodejs/contract/index.ts";
import type { DatabaseSync } from "node:sqlite";
import { IdempotencyConflictError } from "./errors.ts";
import { inTransaction } from "../store/connection.ts";
import { findIdempotencyKey, insertIdempotencyKey } from "../store/idempotencyStore.ts";

/**
 * requestId idempotency for every mutating endpoint that takes one (wallet create, strategy
 * update, withdrawal, webhook registration), in one place. Keys are scoped to organization +
 * endpoint (docs/spec-gaps.md):
 * - new key: `create()` runs and its resource id is remembered with the body's fingerprint;
 * - same key, same canonical body: `create()` does not run; the caller answers the original
 *   resource in its current state (200);
 * - same key, different body: 409 idempotency_conflict.
 *
 * Concurrency: the lookup, `create()` and the key insert run synchronously in one SQLite
 * transaction, with no await in between, so two identical requests arriving together cannot both
 * create: the second sees the first's key. `create` must therefore be synchronous.
 */
export interface IdempotentRequest {
  organizationId: string;
  /** Method and route pattern, for example `POST /v2/portfolio-wallets`. */
  endpoint: string;
  requestId: string;
  /**
   * The fields that define the operation, already reduced to what the service uses (for example
   * a canonical allocation, not the raw positions with ignored extra fields). Object key order
   * does not matter.
   */
  canonicalBody: unknown;
}

/**
 * The idempotency scope of an operation of a table: its method and route pattern
 * (`PATCH /v2/portfolio-wallets/:id/strategy`). Stored with every key, so this form is what
 * earlier databases and snapshots hold: it must not change.
 */
export function idempotencyScopeOf(operation: Pick<ApiOperation, "method" | "path">): string {
  return `${operation.method.toUpperCase()} ${routePattern(operation.path)}`;
}

export type IdempotentOutcome = { resourceId: string; replayed: boolean };

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` fingerprint alike. */
export function canonicalJson(value: unknown): string {
  // A bigint (an amount in micros) is written as its digits, as a JSON number would be.
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function bodyFingerprint(canonicalBody: unknown): string {
  return createHash("sha256").update(canonicalJson(canonicalBody)).digest("hex");
}

/**
 * Runs `create` at most once per idempotency key and returns the id of the resource the key
 * stands for. `create` returns the new resource's id; it runs inside the same transaction as the
 * key insert, so a failing create leaves no key behind and can be retried.
 */
export function runIdempotent(
  db: DatabaseSync,
  request: IdempotentRequest,
  create: () => string,
  at: string,
): IdempotentOutcome {
  const fingerprint = bodyFingerprint(request.canonicalBody);
  return inTransaction(db, () => {
    const existing = findIdempotencyKey(db, request.organizationId, request.endpoint, request.requestId);
    if (existing !== null) {
      if (existing.bodyFingerprint !== fingerprint) {
        throw new IdempotencyConflictError(
          `requestId ${request.requestId} was already used for ${request.endpoint} with a different body; ` +
            "use a new requestId for a different request, or resend the original body to get the original result",
          [{ field: "requestId", reason: "already used with a different body" }],
        );
      }
      return { resourceId: existing.resourceId, replayed: true };
    }
    const resourceId = create();
    insertIdempotencyKey(db, { ...request, bodyFingerprint: fingerprint, resourceId }, at);
    return { resourceId, replayed: false };
  });
}
