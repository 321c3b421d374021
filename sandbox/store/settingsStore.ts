import type { DatabaseSync } from "node:sqlite";

/** Sandbox-wide settings kept across restarts (table sandbox_settings). */

const CLOCK_OFFSET_KEY = "clock_offset_ms";

/** How far the sandbox clock was ahead of the wall clock when it last moved; 0 when it never did. */
export function readClockOffsetMs(db: DatabaseSync): number {
  const row = db.prepare("SELECT value FROM sandbox_settings WHERE key = ?").get(CLOCK_OFFSET_KEY) as
    { value: string } | undefined;
  const offset = Number(row?.value ?? 0);
  return Number.isFinite(offset) && offset > 0 ? offset : 0;
}

export function writeClockOffsetMs(db: DatabaseSync, offsetMs: number): void {
  db.prepare(
    "INSERT INTO sandbox_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  ).run(CLOCK_OFFSET_KEY, String(offsetMs));
}

/** Every organization's clock lead over the shared clock (table organization_clocks). */
export function readOrganizationClockLeads(db: DatabaseSync): Map<string, number> {
  const rows = db.prepare("SELECT organization_id, lead_ms FROM organization_clocks").all() as {
    organization_id: string;
    lead_ms: number;
  }[];
  return new Map(rows.map((row) => [row.organization_id, row.lead_ms]));
}

/**
 * Records the organization's clock lead. An organization that had no clock or rates of its own
 * until now forks at `forkedAt` (its time before this lead, the shared time): see schema.ts.
 */
export function writeOrganizationClockLead(
  db: DatabaseSync,
  organizationId: string,
  leadMs: number,
  forkedAt: string,
): void {
  db.prepare(
    `INSERT INTO organization_clocks (organization_id, lead_ms, forked_at) VALUES (?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET lead_ms = excluded.lead_ms`,
  ).run(organizationId, leadMs, forkedAt);
}
