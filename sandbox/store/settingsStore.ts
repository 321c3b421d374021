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
