import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../clock.ts";
import { listCatalog, updateCatalogRate } from "../store/catalogStore.ts";
import { inTransaction } from "../store/connection.ts";
import { insertOrganizationRate, listForkedOrganizations } from "../store/rateHistoryStore.ts";
import { NotFoundError } from "./errors.ts";

/** Whose view of the catalog a rate change applies to (docs/sandbox.md "Rates per organization"). */
export type RateChangeScope = "organization" | "sandbox";

/**
 * Changes a yield source's current rate, from now on:
 * - `organization`: in the caller's organization's view of the catalog only, from its time;
 *   every other organization keeps seeing the rate it saw;
 * - `sandbox`: in the shared catalog, from the shared time, and for each organization with rates
 *   or a clock of its own, in its view too, from its own time (never in its past: an organization
 *   whose clock is ahead gets the new rate from its now, as if it changed there).
 * Answers the source as the caller's organization now sees it.
 */
export function changeRate(
  deps: { db: DatabaseSync; clocks: OrganizationClocks },
  change: { organizationId: string; positionKey: string; rateBps: number; scope: RateChangeScope },
): YieldSource {
  const { db, clocks } = deps;
  return inTransaction(db, () => {
    if (change.scope === "sandbox") {
      const sharedNow = clocks.shared.now().toISOString();
      if (!updateCatalogRate(db, change.positionKey, change.rateBps, sharedNow))
        throw new NotFoundError(`yield source ${change.positionKey}`);
      for (const organizationId of listForkedOrganizations(db))
        insertOrganizationRate(
          db,
          organizationId,
          change.positionKey,
          change.rateBps,
          clocks.now(organizationId).toISOString(),
        );
    } else {
      if (!listCatalog(db).some((entry) => entry.positionKey === change.positionKey))
        throw new NotFoundError(`yield source ${change.positionKey}`);
      insertOrganizationRate(
        db,
        change.organizationId,
        change.positionKey,
        change.rateBps,
        clocks.now(change.organizationId).toISOString(),
      );
    }
    const entry = listCatalog(db, change.organizationId).find((e) => e.positionKey === change.positionKey);
    if (entry === undefined) throw new NotFoundError(`yield source ${change.positionKey}`);
    return entry;
  });
}
