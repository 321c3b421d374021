import type { DatabaseSync } from "node:sqlite";

/**
 * The signing provider's own tables (schema.ts): the API keys allowed to vote for an organization,
 * and the votes cast on signing activities.
 */

/** An API key registered as an approver of an organization (a Turnkey API user). */
export interface ApproverKeyRecord {
  organizationId: string;
  /** Compressed P-256 public key, lower-case hex. */
  publicKey: string;
  userId: string;
  userName: string;
  createdAt: string;
}

export type VoteSelection = "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";

export interface VoteRecord {
  id: string;
  activityId: string;
  publicKey: string;
  userId: string;
  selection: VoteSelection;
  /** The stamped request body, as received. */
  message: string;
  /** The stamp's DER signature, hex. */
  signature: string;
  createdAt: string;
}

interface KeyRow {
  organization_id: string;
  public_key: string;
  user_id: string;
  user_name: string;
  created_at: string;
}

const toKey = (row: KeyRow): ApproverKeyRecord => ({
  organizationId: row.organization_id,
  publicKey: row.public_key,
  userId: row.user_id,
  userName: row.user_name,
  createdAt: row.created_at,
});

/** Inserts the key unless it is already registered; answers the stored record and whether it is new. */
export function upsertApproverKey(
  db: DatabaseSync,
  key: ApproverKeyRecord,
): { key: ApproverKeyRecord; created: boolean } {
  const existing = findApproverKey(db, key.organizationId, key.publicKey);
  if (existing !== null) return { key: existing, created: false };
  db.prepare(
    "INSERT INTO signing_api_keys (organization_id, public_key, user_id, user_name, created_at) VALUES (?, ?, ?, ?, ?)",
  ).run(key.organizationId, key.publicKey, key.userId, key.userName, key.createdAt);
  return { key, created: true };
}

export function findApproverKey(
  db: DatabaseSync,
  organizationId: string,
  publicKey: string,
): ApproverKeyRecord | null {
  const row = db
    .prepare("SELECT * FROM signing_api_keys WHERE organization_id = ? AND public_key = ?")
    .get(organizationId, publicKey) as KeyRow | undefined;
  return row === undefined ? null : toKey(row);
}

/** Whether any organization registered this public key (the stamp check's first, body-free step). */
export function isRegisteredApproverKey(db: DatabaseSync, publicKey: string): boolean {
  return (
    db.prepare("SELECT 1 FROM signing_api_keys WHERE public_key = ? LIMIT 1").get(publicKey) !== undefined
  );
}

export function listApproverKeys(db: DatabaseSync, organizationId: string): ApproverKeyRecord[] {
  return (
    db
      .prepare("SELECT * FROM signing_api_keys WHERE organization_id = ? ORDER BY created_at, public_key")
      .all(organizationId) as unknown as KeyRow[]
  ).map(toKey);
}

/** Removes a key; its past votes stay on record. Answers whether a key was removed. */
export function deleteApproverKey(db: DatabaseSync, organizationId: string, publicKey: string): boolean {
  return (
    db
      .prepare("DELETE FROM signing_api_keys WHERE organization_id = ? AND public_key = ?")
      .run(organizationId, publicKey).changes > 0
  );
}

interface VoteRow {
  id: string;
  activity_id: string;
  public_key: string;
  user_id: string;
  selection: VoteSelection;
  message: string;
  signature: string;
  created_at: string;
}

export function insertVote(db: DatabaseSync, vote: VoteRecord): void {
  db.prepare(
    `INSERT INTO signing_votes (id, activity_id, public_key, user_id, selection, message, signature, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    vote.id,
    vote.activityId,
    vote.publicKey,
    vote.userId,
    vote.selection,
    vote.message,
    vote.signature,
    vote.createdAt,
  );
}

/** The votes of an activity, oldest first. */
export function listVotes(db: DatabaseSync, activityId: string): VoteRecord[] {
  return (
    db
      .prepare("SELECT * FROM signing_votes WHERE activity_id = ? ORDER BY created_at, rowid")
      .all(activityId) as unknown as VoteRow[]
  ).map((row) => ({
    id: row.id,
    activityId: row.activity_id,
    publicKey: row.public_key,
    userId: row.user_id,
    selection: row.selection,
    message: row.message,
    signature: row.signature,
    createdAt: row.created_at,
  }));
}
