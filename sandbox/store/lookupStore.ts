import type { DatabaseSync } from "node:sqlite";

/**
 * What an id names in an organization, and the wallet it belongs to when it belongs to one. A
 * type, not an interface: an answer body must be assignable to a JSON object.
 */
export type FoundResource = {
  kind:
    | "wallet"
    | "deposit"
    | "withdrawal"
    | "strategy_update"
    | "signing_activity"
    | "webhook_registration"
    | "webhook_delivery";
  id: string;
  walletId: string | null;
};

/** Tables whose `id` is a primary key, searched in this order; `wallet` is the column naming the wallet. */
const TABLES: { kind: FoundResource["kind"]; table: string; wallet: string | null }[] = [
  { kind: "wallet", table: "wallets", wallet: "id" },
  { kind: "deposit", table: "deposits", wallet: "wallet_id" },
  { kind: "withdrawal", table: "withdrawals", wallet: "wallet_id" },
  { kind: "strategy_update", table: "strategy_updates", wallet: "wallet_id" },
  { kind: "signing_activity", table: "signing_activities", wallet: null },
  { kind: "webhook_registration", table: "webhook_registrations", wallet: null },
  { kind: "webhook_delivery", table: "webhook_deliveries", wallet: null },
];

/**
 * The organization's resource of this id: one primary-key lookup per kind, so finding an id costs
 * the same however many wallets and movements the sandbox holds. Another organization's is none.
 */
export function findResourceById(db: DatabaseSync, organizationId: string, id: string): FoundResource | null {
  for (const { kind, table, wallet } of TABLES) {
    const row = db
      .prepare(`SELECT ${wallet ?? "NULL"} AS wallet_id FROM ${table} WHERE id = ? AND organization_id = ?`)
      .get(id, organizationId) as { wallet_id: string | null } | undefined;
    if (row !== undefined) return { kind, id, walletId: row.wallet_id };
  }
  return null;
}

/**
 * The organization's resource made under a client's `requestId` (the idempotency key a creation
 * carries, which its answer repeats as `requestId`), searched at each of `endpoints` by the
 * idempotency keys' primary key: one lookup per endpoint, however many keys the organization holds.
 */
export function findResourceByRequestId(
  db: DatabaseSync,
  organizationId: string,
  requestId: string,
  endpoints: readonly string[],
): FoundResource | null {
  const lookup = db.prepare(
    "SELECT resource_id FROM idempotency_keys WHERE organization_id = ? AND endpoint = ? AND request_id = ?",
  );
  for (const endpoint of endpoints) {
    const row = lookup.get(organizationId, endpoint, requestId) as { resource_id: string } | undefined;
    if (row !== undefined) return findResourceById(db, organizationId, row.resource_id);
  }
  return null;
}
