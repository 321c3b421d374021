import type { DatabaseSync } from "node:sqlite";
import type { YieldSource } from "../../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../../clock.ts";
import type { ApprovalDeps } from "../approvals.ts";
import type { EventSink } from "../events/eventSink.ts";
import type { FaultRegistry } from "../faults.ts";

/** What the money-flow functions need, built once per sandbox. */
export interface MoneyDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  /** The catalog as an organization sees it (its own rates, where it has them). */
  catalog: (organizationId: string) => YieldSource[];
  events: EventSink;
  approvals: ApprovalDeps;
  faults: FaultRegistry;
  /** How long a detected deposit takes to reach its positions, in sandbox-clock ms. */
  depositProcessingDelayMs: number;
  /** Tells the due-work scheduler that the organization has new work scheduled (domain/dueWorkScheduler.ts). */
  wake(organizationId: string): void;
  /**
   * Emits the wallet's figures as events after money moved (domain/walletFigures.ts). Passed in
   * rather than imported: the figures are the wallet's view (walletView.ts), which is built on the
   * money rules of this folder, so importing it here would run back up into the folder that it
   * imports.
   */
  emitWalletFigures(wallet: WalletRef, at: string, options: { positionsMoved: boolean }): void;
}

/** The wallet whose figures changed. */
export interface WalletRef {
  id: string;
  organizationId: string;
}
