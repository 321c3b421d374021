import { randomUUID } from "node:crypto";
import type { DatabaseSync } from "node:sqlite";
import {
  canonicalAllocation,
  unknownPositionKeyProblems,
  type CreateWalletRequest,
  type Page,
  type PortfolioWallet,
  type YieldSource,
  SERVICE_OPERATIONS_BY_ID,
} from "../../sdk/nodejs/contract/index.ts";
import type { OrganizationClocks } from "../clock.ts";
import { pageFrom, type PageRequest } from "./pagination.ts";
import { NotFoundError, ValidationError } from "./errors.ts";
import { findWallet, insertWallet, listWallets } from "../store/walletStore.ts";
import { depositAddressesFor } from "./depositAddresses.ts";
import { idempotencyScopeOf, runIdempotent } from "./idempotency.ts";
import { walletView, walletViews } from "./walletView.ts";

/** Idempotency scope of wallet creation. */
export const CREATE_WALLET_ENDPOINT = idempotencyScopeOf(SERVICE_OPERATIONS_BY_ID.createPortfolioWallet);

export interface WalletDeps {
  db: DatabaseSync;
  clocks: OrganizationClocks;
  /** The catalog as an organization sees it. */
  catalog: (organizationId: string) => YieldSource[];
}

/**
 * Creates a wallet, or answers the one created earlier with the same requestId and body.
 * The canonical body holds only what the service uses (spec 4.4: extra position fields are
 * ignored), so resending a quote option's positions with other decorations is still a replay.
 */
export function createWallet(
  deps: WalletDeps,
  organizationId: string,
  body: CreateWalletRequest,
): { wallet: PortfolioWallet; replayed: boolean } {
  const catalog = deps.catalog(organizationId);
  const unknown = unknownPositionKeyProblems(body.positions, catalog);
  if (unknown.length > 0) throw new ValidationError(unknown);
  const at = deps.clocks.now(organizationId).toISOString();
  const positions = canonicalAllocation(body.positions);
  const outcome = runIdempotent(
    deps.db,
    {
      organizationId,
      endpoint: CREATE_WALLET_ENDPOINT,
      requestId: body.requestId,
      canonicalBody: { positions, label: body.label ?? null },
    },
    () => {
      const id = randomUUID();
      const targets = body.positions.map((position) => {
        const entry = catalog.find((e) => e.positionKey === position.positionKey);
        // Unknown keys were rejected above, so the entry exists.
        return {
          positionKey: position.positionKey,
          targetWeightBps: position.targetWeightBps,
          asset: entry?.asset ?? position.positionKey,
          maxProcessingTime: entry?.maxProcessingTime ?? "PT0H",
        };
      });
      insertWallet(
        deps.db,
        {
          id,
          organizationId,
          requestId: body.requestId,
          label: body.label ?? null,
          status: "active",
          pendingAllocationsMicros: 0n,
          createdAt: at,
          updatedAt: at,
        },
        targets,
        depositAddressesFor(id),
      );
      return id;
    },
    at,
  );
  const wallet = findWallet(deps.db, organizationId, outcome.resourceId);
  if (wallet === null) throw new Error(`wallet ${outcome.resourceId} vanished after creation`);
  return {
    wallet: walletView(deps.db, wallet, catalog, { includeRequestId: true, at }),
    replayed: outcome.replayed,
  };
}

/** The wallet as spec 4.6 shows it (no requestId: the retrieval example has none). */
export function getWallet(deps: WalletDeps, organizationId: string, walletId: string): PortfolioWallet {
  const wallet = findWallet(deps.db, organizationId, walletId);
  if (wallet === null) throw new NotFoundError(`portfolio wallet ${walletId}`);
  return walletView(deps.db, wallet, deps.catalog(organizationId), {
    includeRequestId: false,
    at: deps.clocks.now(organizationId).toISOString(),
  });
}

export function listWalletPage(
  deps: WalletDeps,
  organizationId: string,
  page: PageRequest,
): Page<PortfolioWallet> {
  const catalog = deps.catalog(organizationId);
  const rows = listWallets(deps.db, organizationId, page.cursor, page.pageSize + 1);
  const { data, nextCursor } = pageFrom(rows, page.pageSize);
  const view = {
    includeRequestId: false,
    at: deps.clocks.now(organizationId).toISOString(),
    rates: new Map(),
  };
  return {
    data: walletViews(deps.db, organizationId, data, catalog, view),
    pageSize: page.pageSize,
    nextCursor,
  };
}
