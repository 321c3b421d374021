import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  formatExactUsd,
  quoteValue,
  microsToUsd,
  usdToMicros,
  type Deposit,
  type FieldProblem,
  type Page,
} from "../../../sdk/nodejs/contract/index.ts";
import { pageFrom, type PageRequest } from "../pagination.ts";
import { IdempotencyConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { isoAfter } from "../../clock.ts";
import { inTransaction } from "../../store/connection.ts";
import {
  findDeposit,
  findDepositByTx,
  insertDeposit,
  listDeposits,
  updateDeposit,
  type DepositRecord,
} from "../../store/depositStore.ts";
import {
  addPendingMicros,
  addReceivedMicros,
  findDepositAddressOwners,
  readPendingMicros,
  readPositionMicros,
  readReceivedMicros,
} from "../../store/holdingsStore.ts";
import { appendLedgerEntry } from "../../store/ledgerStore.ts";
import { findWallet, listTargets, touchWallet } from "../../store/walletStore.ts";
import { canonicalAddress, isKnownChain, unknownChainReason } from "../chainAddresses.ts";
import { accrueWallet, setPositionMicros } from "./accrual.ts";
import { MAX_OPERATION_MICROS, MAX_STORED_MICROS, MAX_WALLET_TOTAL_MICROS } from "./limits.ts";
import { splitByWeights, sumMicros } from "./micros.ts";
import type { MoneyDeps } from "./moneyDeps.ts";

/** Body of `POST /_sandbox/deposits`: an on-chain transfer to a deposit address, as if detected. */
export const SimulateDepositSchema = z.object({
  chain: z.string({ error: "must be a chain such as ethereum" }).min(1, "must not be empty"),
  address: z.string({ error: "must be one of the wallet's deposit addresses" }).min(1, "must not be empty"),
  amount: z
    .number({ error: "must be a USD amount as a JSON number" })
    .gt(0, "must be greater than 0")
    .max(
      microsToUsd(MAX_OPERATION_MICROS),
      `must be at most ${formatExactUsd(MAX_OPERATION_MICROS)} (one transfer)`,
    ),
  txHash: z.string({ error: "must be the transfer's transaction hash" }).min(1, "must not be empty").max(200),
});
export type SimulateDeposit = z.infer<typeof SimulateDepositSchema>;

export function depositView(record: DepositRecord): Deposit {
  return {
    id: record.id,
    portfolioWalletId: record.walletId,
    chain: record.chain,
    address: record.address,
    amountUsd: microsToUsd(record.amountMicros),
    txHash: record.txHash,
    status: record.status,
    legStatuses: record.legStatuses,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    completedAt: record.completedAt,
    failureReason: record.failureReason,
  };
}

/** The deposit address entry a transfer lands on, and every problem with its chain and address. */
function findDestination(
  deps: MoneyDeps,
  organizationId: string,
  chain: string,
  rawAddress: string,
): { owner: { walletId: string; address: string } | null; problems: FieldProblem[] } {
  if (!isKnownChain(chain))
    return { owner: null, problems: [{ field: "chain", reason: unknownChainReason(chain) }] };
  const address = canonicalAddress(rawAddress);
  const owners = findDepositAddressOwners(deps.db, organizationId, address);
  const owner = owners.find((o) => o.chain === chain);
  if (owner !== undefined) return { owner: { walletId: owner.walletId, address }, problems: [] };
  const reason =
    owners.length === 0
      ? `${quoteValue(rawAddress)} is no deposit address of a wallet of this organization; use one from the wallet's depositAddresses`
      : `address ${rawAddress} is a deposit address on ${owners.map((o) => o.chain).join(", ")}, not on ${chain}`;
  return { owner: null, problems: [{ field: owners.length === 0 ? "address" : "chain", reason }] };
}

/** Chain and address problems of a raw simulate body, reported with the schema's (readBody's moreChecks). */
export function depositDestinationProblems(
  deps: MoneyDeps,
  organizationId: string,
  raw: unknown,
): FieldProblem[] {
  if (raw === null || typeof raw !== "object") return [];
  const { chain, address } = raw as Record<string, unknown>;
  if (typeof chain !== "string" || chain === "" || typeof address !== "string" || address === "") return [];
  return findDestination(deps, organizationId, chain, address).problems;
}

/**
 * The per-wallet maximum (limits.ts): a deposit may not take the wallet's total past it, nor the
 * deposit address's lifetime received past what the sandbox can store. Checked before any write.
 */
function depositLimitProblems(
  deps: MoneyDeps,
  walletId: string,
  chain: string,
  amountMicros: bigint,
): FieldProblem[] {
  // Settled balances: yield earned since is credited within the same maximum when money next moves.
  const total =
    sumMicros(readPositionMicros(deps.db, walletId).values()) + readPendingMicros(deps.db, walletId);
  if (total + amountMicros > MAX_WALLET_TOTAL_MICROS) {
    const room = MAX_WALLET_TOTAL_MICROS - total;
    return [
      {
        field: "amount",
        reason: `would take the wallet's total to ${formatExactUsd(total + amountMicros)}, above the per-wallet maximum of ${formatExactUsd(MAX_WALLET_TOTAL_MICROS)}; at most ${formatExactUsd(room > 0n ? room : 0n)} more fits`,
      },
    ];
  }
  if (readReceivedMicros(deps.db, walletId, chain) + amountMicros > MAX_STORED_MICROS) {
    return [
      {
        field: "amount",
        reason: `would take what this deposit address has received past ${formatExactUsd(MAX_STORED_MICROS)}, the most the sandbox stores; use another chain's address`,
      },
    ];
  }
  return [];
}

/**
 * Credits a simulated on-chain transfer: the deposit is detected (`processing`, legs `pending`)
 * and the amount raises the wallet's and the chain's pendingAllocationsUsd. A repeated
 * (chain, txHash) is the same transfer: it answers the original deposit and credits nothing; the
 * same txHash with another address or amount is 409, since one transaction cannot be two transfers.
 */
export function simulateDeposit(
  deps: MoneyDeps,
  organizationId: string,
  body: SimulateDeposit,
): { deposit: Deposit; replayed: boolean } {
  const amountMicros = usdToMicros(body.amount);
  const { owner, problems } = findDestination(deps, organizationId, body.chain, body.address);
  if (amountMicros < 1n)
    problems.push({ field: "amount", reason: "must be at least 0.000001 (one micro-unit)" });
  if (owner === null || problems.length > 0)
    throw new ValidationError(problems, "the deposit cannot be credited");
  const { walletId, address } = owner;
  return inTransaction(deps.db, () => {
    const existing = findDepositByTx(deps.db, organizationId, body.chain, body.txHash);
    if (existing !== null) {
      if (existing.address !== address || existing.amountMicros !== amountMicros) {
        throw new IdempotencyConflictError(
          `transaction ${body.txHash} on ${body.chain} was already credited as ${formatExactUsd(existing.amountMicros)} to ${existing.address}; a transaction is credited once`,
          [{ field: "txHash", reason: "already credited with another address or amount" }],
        );
      }
      return { deposit: depositView(existing), replayed: true };
    }
    const overLimit = depositLimitProblems(deps, walletId, body.chain, amountMicros);
    if (overLimit.length > 0) throw new ValidationError(overLimit, "the deposit cannot be credited");
    const at = deps.clocks.now(organizationId).toISOString();
    const record: DepositRecord = {
      id: randomUUID(),
      organizationId,
      walletId,
      chain: body.chain,
      address,
      txHash: body.txHash,
      amountMicros,
      status: "processing",
      legStatuses: Object.fromEntries(listTargets(deps.db, walletId).map((t) => [t.positionKey, "pending"])),
      nextStepAt: isoAfter(at, Math.floor(deps.depositProcessingDelayMs / 2)),
      failureReason: null,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
    };
    insertDeposit(deps.db, record);
    addPendingMicros(deps.db, walletId, body.chain, amountMicros);
    addReceivedMicros(deps.db, walletId, body.chain, amountMicros);
    appendLedgerEntry(deps.db, {
      organizationId,
      walletId,
      kind: "deposit_detected",
      positionKey: null,
      amountMicros,
      yieldMicros: 0n,
      refId: record.id,
      detail: `${body.chain}:${body.txHash}`,
      fromAt: null,
      at,
    });
    touchWallet(deps.db, walletId, at);
    emitDepositStatus(deps, record, null, at);
    deps.emitWalletFigures({ id: walletId, organizationId }, at, { positionsMoved: false });
    deps.wake(organizationId);
    return { deposit: depositView(record), replayed: false };
  });
}

function emitDepositStatus(
  deps: MoneyDeps,
  record: DepositRecord,
  previousStatus: string | null,
  at: string,
): void {
  deps.events.emit(
    record.organizationId,
    "portfolio_wallet.deposit.status_changed",
    {
      portfolioWalletId: record.walletId,
      deposit: {
        id: record.id,
        status: record.status,
        amountUsd: microsToUsd(record.amountMicros),
        chain: record.chain,
        txHash: record.txHash,
        legStatuses: record.legStatuses,
      },
      previousStatus,
    },
    at,
  );
}

/**
 * Moves a deposit one step, at the time that step was due: legs `pending` → `processing` at half
 * the processing delay; at the full delay the amount leaves pendingAllocations for the positions,
 * split by target weight (exactly, in micros), and each leg ends `completed` (`skipped` when its
 * share rounds to nothing, or its position is no longer targeted).
 */
function advanceDeposit(deps: MoneyDeps, record: DepositRecord): void {
  const at = record.nextStepAt ?? deps.clocks.now(record.organizationId).toISOString();
  if (Object.values(record.legStatuses).some((status) => status === "pending")) {
    const legStatuses = Object.fromEntries(Object.keys(record.legStatuses).map((key) => [key, "processing"]));
    const nextStepAt = isoAfter(record.createdAt, deps.depositProcessingDelayMs);
    updateDeposit(deps.db, record.id, { ...record, legStatuses, nextStepAt, updatedAt: at });
    return;
  }
  const wallet = { id: record.walletId, organizationId: record.organizationId };
  accrueWallet(deps.db, wallet, at);
  const targets = listTargets(deps.db, record.walletId);
  const shares = splitByWeights(
    record.amountMicros,
    targets.map((t) => t.targetWeightBps),
  );
  const held = readPositionMicros(deps.db, record.walletId);
  const legStatuses: Record<string, string> = Object.fromEntries(
    Object.keys(record.legStatuses).map((key) => [key, "skipped"]),
  );
  targets.forEach((target, index) => {
    const share = shares[index] ?? 0n;
    legStatuses[target.positionKey] = share > 0n ? "completed" : "skipped";
    if (share === 0n) return;
    setPositionMicros(deps.db, wallet, target.positionKey, (held.get(target.positionKey) ?? 0n) + share, at);
    appendLedgerEntry(deps.db, {
      organizationId: record.organizationId,
      walletId: record.walletId,
      kind: "deposit_allocated",
      positionKey: target.positionKey,
      amountMicros: share,
      yieldMicros: 0n,
      refId: record.id,
      detail: null,
      fromAt: null,
      at,
    });
  });
  addPendingMicros(deps.db, record.walletId, record.chain, -record.amountMicros);
  touchWallet(deps.db, record.walletId, at);
  const completed: DepositRecord = {
    ...record,
    status: "completed",
    legStatuses,
    nextStepAt: null,
    completedAt: at,
    updatedAt: at,
  };
  updateDeposit(deps.db, record.id, completed);
  emitDepositStatus(deps, completed, record.status, at);
  deps.emitWalletFigures(wallet, at, { positionsMoved: true });
}

/** Runs a due deposit step in its own transaction (see dueMoneyWork.ts for the ordering). */
export function advanceDueDeposit(deps: MoneyDeps, record: DepositRecord): void {
  inTransaction(deps.db, () => advanceDeposit(deps, record));
}

export function getDeposit(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  depositId: string,
): Deposit {
  const record = findDeposit(deps.db, organizationId, depositId);
  if (record === null || record.walletId !== walletId)
    throw new NotFoundError(`deposit ${depositId} of wallet ${walletId}`);
  return depositView(record);
}

export function listDepositPage(
  deps: MoneyDeps,
  organizationId: string,
  walletId: string,
  page: PageRequest,
): Page<Deposit> {
  if (findWallet(deps.db, organizationId, walletId) === null)
    throw new NotFoundError(`portfolio wallet ${walletId}`);
  const { data, nextCursor } = pageFrom(
    listDeposits(deps.db, walletId, page.cursor, page.pageSize + 1),
    page.pageSize,
  );
  return { data: data.map(depositView), pageSize: page.pageSize, nextCursor };
}
