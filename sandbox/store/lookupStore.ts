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
