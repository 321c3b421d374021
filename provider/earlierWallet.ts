import { formatDollars, usdToMicros } from "../sdk/nodejs/contract/money.ts";
import { TargetAllocation } from "../sdk/nodejs/contract/allocation.ts";
import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import { IdempotencyConflictError } from "../sdk/nodejs/client/index.ts";
import type { ServiceConnection } from "./serviceConnection.ts";
import { holdsFunds } from "./walletOutputs.ts";

/**
 * A resource destroyed and declared again under the same name sends the creation requestId its
 * earlier self sent (sdk/nodejs/client/requestIds.ts). With another allocation or label the
 * service answers 409; this module finds the wallet that requestId created and decides whether
 * the new resource may take it over. The decision is made here once, for both adapters.
 */

/** How many of the organization's wallets the search reads at most. */
const SCAN_LIMIT = 1_000;
/** How many distinct creation bodies it replays at most (one request each, nothing created). */
const REPLAY_LIMIT = 20;
/** How many wallets of the same label a refusal lists when the search found none. */
const CANDIDATES_SHOWN = 5;

/** Withdrawal statuses after which no money moves any more (spec 3.3). */
const FINAL_WITHDRAWAL_STATUSES: ReadonlySet<string> = new Set(["completed", "failed"]);

export type EarlierWallet =
  | { found: PortfolioWallet }
  /** Not found: wallets with the resource's label, only ever named as such (they may be other stacks'). */
  | { found?: undefined; sameLabel: string[] };

/**
 * The wallet created with `requestId`. The service answers no wallet by its requestId, and its
 * wallet reads omit it, but a create replayed with the same requestId and the same body answers
 * the original wallet and creates nothing (a different body is refused with 409, which this is
 * only ever called after: the requestId is known to be spent, so a replay can never create). A
 * wallet's label never changes, so each candidate is asked with its own label and its current
 * allocation: the wallet this requestId created answers as long as its allocation is the one it
 * was created with. The wallets with the resource's label are asked first.
 */
export async function findEarlierWallet(
  connection: ServiceConnection,
  requestId: string,
  label: string | undefined,
): Promise<EarlierWallet> {
  const wallets: PortfolioWallet[] = [];
  for await (const wallet of connection.client.wallets.list({ pageSize: 100 })) {
    wallets.push(wallet);
    if (wallets.length >= SCAN_LIMIT) break;
  }
  const labelOf = (wallet: PortfolioWallet) => wallet.label ?? undefined;
  const newestFirst = [...wallets].reverse();
  const ordered = [
    ...newestFirst.filter((wallet) => labelOf(wallet) === label),
    ...newestFirst.filter((wallet) => labelOf(wallet) !== label),
  ];
  const bodiesTried = new Set<string>();
  for (const wallet of ordered) {
    if (bodiesTried.size >= REPLAY_LIMIT) break;
    const positions = wallet.strategyConfig.positions.map(({ positionKey, targetWeightBps }) => ({
      positionKey,
      targetWeightBps,
    }));
    // One replay per label and target: the same target in another order is the same body.
    const body = JSON.stringify([labelOf(wallet) ?? null, TargetAllocation.ofPositions(positions).positions]);
    if (bodiesTried.has(body)) continue;
    bodiesTried.add(body);
    const replay = await connection.client.wallets
      .create({ requestId, positions, ...(labelOf(wallet) !== undefined ? { label: labelOf(wallet) } : {}) })
      .catch((error: unknown) => {
        if (IdempotencyConflictError.isInstance(error)) return undefined;
        throw error;
      });
    // The replay answers the wallet in its state now; read it whole (balances) once more by id.
    if (replay !== undefined) return { found: await connection.client.wallets.retrieve(replay.id) };
  }
  const sameLabel = newestFirst.filter((wallet) => labelOf(wallet) === label).map((wallet) => wallet.id);
  return { sameLabel };
}

/** Why a wallet may not be taken over: what it holds, or the withdrawals still moving its money. */
export type Holding = { kind: "funds"; text: string } | { kind: "withdrawals"; ids: string[] };

/**
 * The rule for taking over an earlier wallet: it is empty when, by the service's own figures,
 * its totalBalanceUsd, its pendingAllocationsUsd and every chain's pendingAllocationsUsd are 0 (the
 * same rule that lets `destroy` drop a wallet without `onDelete: "retain"`, see holdsFunds), and
 * none of its withdrawals is still under way (any status but completed or failed: the money is
 * on its way out, and the wallet's owner may still be waiting on it).
 */
export async function holdingOf(
  connection: ServiceConnection,
  wallet: PortfolioWallet,
): Promise<Holding | undefined> {
  if (holdsFunds(wallet)) {
    return {
      kind: "funds",
      text:
        `${formatDollars(usdToMicros(wallet.totalBalanceUsd))}` +
        ` (${formatDollars(usdToMicros(wallet.pendingAllocationsUsd))} of it pending allocation)`,
    };
  }
  const underWay: string[] = [];
  for await (const withdrawal of connection.client.withdrawals.list(wallet.id, { pageSize: 100 })) {
    if (!FINAL_WITHDRAWAL_STATUSES.has(withdrawal.status)) underWay.push(withdrawal.id);
  }
  return underWay.length > 0 ? { kind: "withdrawals", ids: underWay } : undefined;
}

/** The message of a refusal to take over the earlier wallet, naming it and what to do. */
export function earlierWalletRefusal(params: {
  requestId: string;
  urn: string;
  walletId: string;
  holding: Holding;
}): string {
  const { requestId, urn, walletId, holding } = params;
  const what =
    holding.kind === "funds"
      ? `it holds ${holding.text}`
      : `withdrawals of it are still under way (${holding.ids.join(", ")})`;
  return (
    `a wallet was already created for this resource: ${walletId} (requestId ${requestId}, derived from ${urn}); ` +
    `the resource was destroyed and is now declared again with another allocation or label. That wallet is ` +
    `not taken over automatically because ${what}. Either manage it again, funds and all: set adoptWalletId to ` +
    `${walletId} (its allocation is then brought to the code's); or withdraw its funds first ` +
    "(`portfolio-wallet withdraw`) and wait for the withdrawals to complete, then run `pulumi up` again to take " +
    "over the empty wallet; or give the resource a new name to create a new wallet."
  );
}

/** The message when the search found no wallet for the requestId, saying why others are listed. */
export function earlierWalletNotFound(params: {
  requestId: string;
  urn: string;
  label: string | undefined;
  sameLabel: string[];
}): string {
  const { requestId, urn, label, sameLabel } = params;
  const labelText = label === undefined ? "without a label" : `labelled "${label}"`;
  const listed =
    sameLabel.length === 0
      ? ""
      : sameLabel.length <= CANDIDATES_SHOWN
        ? ` The organization's wallets ${labelText} are ${sameLabel.join(", ")}: listed because one of them may be it, ` +
          "not because it is known to be (they may belong to other stacks or projects)."
        : ` The organization has ${sameLabel.length} wallets ${labelText}, too many to tell apart here.`;
  return (
    `a wallet was already created for this resource (requestId ${requestId}, derived from ${urn}) with another ` +
    "allocation or label: the resource was destroyed and is now declared again. The service cannot say which " +
    "wallet a requestId created once that wallet's allocation was changed after its creation, so it is not " +
    `taken over automatically.${listed} Set adoptWalletId to the earlier wallet's id to manage it again (its ` +
    "allocation is then brought to the code's), use the allocation and label it was created with, or give the " +
    "resource a new name to create a new wallet."
  );
}
