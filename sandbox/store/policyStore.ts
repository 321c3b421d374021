import type { DatabaseSync } from "node:sqlite";

/**
 * An organization's approval policy: how many approvals each kind of operation needs; 0 means
 * the operation goes ahead without approval (the default for an organization with no policy).
 */
export interface OrgPolicy {
  strategyUpdateApprovals: number;
  withdrawalApprovals: number;
}

export const DEFAULT_POLICY: OrgPolicy = { strategyUpdateApprovals: 0, withdrawalApprovals: 0 };

export function getPolicy(db: DatabaseSync, organizationId: string): OrgPolicy {
  const row = db
    .prepare(
      "SELECT strategy_update_approvals, withdrawal_approvals FROM org_policies WHERE organization_id = ?",
    )
    .get(organizationId) as { strategy_update_approvals: number; withdrawal_approvals: number } | undefined;
  return row === undefined
    ? { ...DEFAULT_POLICY }
    : {
        strategyUpdateApprovals: row.strategy_update_approvals,
        withdrawalApprovals: row.withdrawal_approvals,
      };
}

export function setPolicy(db: DatabaseSync, organizationId: string, policy: OrgPolicy, at: string): void {
  db.prepare(
    `INSERT INTO org_policies (organization_id, strategy_update_approvals, withdrawal_approvals, updated_at)
     VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET
       strategy_update_approvals = excluded.strategy_update_approvals,
       withdrawal_approvals = excluded.withdrawal_approvals,
       updated_at = excluded.updated_at`,
  ).run(organizationId, policy.strategyUpdateApprovals, policy.withdrawalApprovals, at);
}
