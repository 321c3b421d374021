import type { DatabaseSync } from "node:sqlite";
import { isRestorableClock, type OrganizationClocks } from "../clock.ts";
import { exportOrganization, ImportConflict, importOrganization } from "../store/organizationExport.ts";
import { readClockOffsetMs, readOrganizationClockLeads } from "../store/settingsStore.ts";
import {
  countSandboxState,
  openSnapshotFile,
  replaceAllRows,
  saveSnapshot,
  type SandboxStateCounts,
  type SnapshotMarker,
} from "../store/snapshotFiles.ts";
import type { WebhookDispatcher } from "./events/delivery.ts";
import type { DueWorkScheduler } from "./dueWorkScheduler.ts";
import { ConflictError } from "./errors.ts";
import type { FaultRegistry } from "./faults.ts";
import type { RateLimiter } from "./rateLimits.ts";

/**
 * Requests in flight, and a way to run work with none: a snapshot is restored only when no other
 * request is between two of its steps (a handler that read the old state must not write into the
 * restored one), and requests that arrive meanwhile wait for the restore to end.
 */
export interface RequestGate {
  /** A request starts; waits while a restore runs. */
  enter(): Promise<void>;
  /** A request ended. */
  leave(): void;
  /** Called from inside a request: waits until it is the only one, runs `work`, then lets others in. */
  alone<T>(work: () => Promise<T>): Promise<T>;
}

export function createRequestGate(): RequestGate {
  let inFlight = 0;
  let exclusive: Promise<void> | null = null;
  let drained: (() => void) | null = null;
  const leave = () => {
    inFlight -= 1;
    if (inFlight === 0) drained?.();
  };
  return {
    async enter() {
      while (exclusive !== null) await exclusive;
      inFlight += 1;
    },
    leave,
    async alone(work) {
      leave(); // the calling request steps out while it waits, or it would wait for itself
      while (exclusive !== null) await exclusive;
      let release: () => void = () => undefined;
      exclusive = new Promise((resolve) => (release = resolve));
      try {
        if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
        drained = null;
        return await work();
      } finally {
        inFlight += 1; // back in: the request's own leave() follows
        exclusive = null;
        release();
      }
    },
  };
}

export interface SnapshotDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  dueWork: DueWorkScheduler;
  webhookDispatcher: WebhookDispatcher;
  faults: FaultRegistry;
  rateLimiter: RateLimiter;
  gate: RequestGate;
}

/** Whole-sandbox snapshots and organization export/import (docs/sandbox.md "Snapshots"). */
export interface Snapshots {
  save(file: string): Promise<{ file: string; savedAt: string }>;
  /** `replaced`: what the sandbox held before (every organization's); `restored`: what it holds now. */
  restore(
    file: string,
  ): Promise<{ file: string; savedAt: string; replaced: SandboxStateCounts; restored: SandboxStateCounts }>;
  exportOrganization(
    organizationId: string,
    file: string,
  ): Promise<{ file: string; organizationId: string; wallets: number; ledgerEntries: number }>;
  importOrganization(
    organizationId: string,
    file: string,
  ): Promise<{
    file: string;
    organizationId: string;
    wallets: number;
    ledgerEntries: number;
    fromOrganizationId: string;
  }>;
}

/**
 * What lives outside the database and follows it: the clocks (their offset and leads are rows),
 * the due-work timer (armed for the restored work), the rate-limit buckets (refilled) and the
 * faults (disarmed: planned failures named wallets of the state before). Also used at startup
 * from a snapshot, where only the due-work and the clocks exist yet.
 */
function reloadAfterRestore(deps: SnapshotDeps): void {
  if (isRestorableClock(deps.clocks.shared)) deps.clocks.shared.restoreOffsetMs(readClockOffsetMs(deps.db));
  deps.clocks.restoreLeads(readOrganizationClockLeads(deps.db));
  deps.faults.clearAll();
  deps.rateLimiter.refillAll();
  deps.dueWork.settleDue();
}

/** Replaces the database's rows by the snapshot's (startup: nothing else exists yet). Throws a SnapshotFileError. */
export function loadSnapshotAtStartup(db: DatabaseSync, file: string): SnapshotMarker {
  const opened = openSnapshotFile(file, "sandbox");
  try {
    replaceAllRows(db, file, opened.path);
    return opened.marker;
  } finally {
    opened.cleanUp();
  }
}

export function createSnapshots(deps: SnapshotDeps): Snapshots {
  const sharedNow = () => deps.clocks.shared.now().toISOString();
  return {
    async save(file) {
      const savedAt = sharedNow();
      await saveSnapshot(deps.db, file, savedAt);
      return { file, savedAt };
    },
    async restore(file) {
      // Checked before waiting for anything: a refused file changes nothing and stops nothing.
      const opened = openSnapshotFile(file, "sandbox");
      try {
        return await deps.gate.alone(async () => {
          await deps.webhookDispatcher.pause();
          const replaced = countSandboxState(deps.db);
          try {
            replaceAllRows(deps.db, file, opened.path);
            reloadAfterRestore(deps);
          } finally {
            deps.webhookDispatcher.resume();
          }
          return { file, savedAt: opened.marker.savedAt, replaced, restored: countSandboxState(deps.db) };
        });
      } finally {
        opened.cleanUp();
      }
    },
    async exportOrganization(organizationId, file) {
      const counts = await exportOrganization(deps.db, organizationId, file, {
        savedAt: sharedNow(),
        organizationNow: deps.clocks.now(organizationId).toISOString(),
      });
      return { file, organizationId, ...counts };
    },
    async importOrganization(organizationId, file) {
      const opened = openSnapshotFile(file, "organization");
      try {
        const counts = importOrganization(deps.db, organizationId, opened.path, () => {
          // The export's times are on its organization's clock: the importing organization's
          // clock moves up to it, so no imported timestamp lies in its future.
          const exportedAtMs = Date.parse(opened.marker.organizationNow ?? "");
          const behindMs = exportedAtMs - deps.clocks.now(organizationId).getTime();
          if (behindMs > 0) deps.clocks.advance(organizationId, behindMs);
        });
        deps.dueWork.settleDue();
        return { file, organizationId, fromOrganizationId: opened.marker.organizationId ?? "", ...counts };
      } catch (error) {
        if (error instanceof ImportConflict) throw new ConflictError(error.message);
        throw error;
      } finally {
        opened.cleanUp();
      }
    },
  };
}
