import { Command } from "commander";
import {
  durationInWords,
  formatDollars,
  usdToMicros,
  type PortfolioWallet,
} from "../../sdk/nodejs/contract/index.ts";
import type { PagePromise } from "../../sdk/nodejs/client/index.ts";
import { collect, isoDateTime, uuid, wholeNumber } from "../flagValues.ts";
import { fields, printResult, table } from "../output.ts";
import { globalOptionsOf, withServiceClient, type GlobalOptions } from "../serviceSettings.ts";
import { withdrawalFields } from "./withdraw.ts";

/**
 * The read-only views of the service: wallets, deposits and withdrawals (list and show), and
 * yield metrics. Lists follow every page (newest first) up to `--limit`.
 */

interface ListFlags {
  limit: number;
  pageSize: number;
}

function listOptions(command: Command): Command {
  return command
    .option("--limit <n>", "show at most this many (0: all)", wholeNumber, 100)
    .option("--page-size <n>", "items per request, 1 to 100", wholeNumber, 50);
}

async function collectPages<T>(pages: PagePromise<T>, limit: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of pages) {
    items.push(item);
    if (limit > 0 && items.length >= limit) break;
  }
  return items;
}

const pageQuery = (flags: ListFlags) => ({ pageSize: Math.min(Math.max(flags.pageSize, 1), 100) });

function walletFields(wallet: PortfolioWallet): string {
  return [
    fields([
      ["wallet", wallet.id],
      ["label", wallet.label ?? null],
      ["status", wallet.status],
      ["total balance", formatDollars(usdToMicros(wallet.totalBalanceUsd))],
      ["withdrawable at once", formatDollars(usdToMicros(wallet.instantWithdrawableUsd))],
      ["pending allocations", formatDollars(usdToMicros(wallet.pendingAllocationsUsd))],
      ["blended rate", `${wallet.blendedRateBps} bps`],
    ]),
    "",
    table(wallet.positions, [
      { title: "source", value: (p) => p.positionKey },
      { title: "target bps", value: (p) => p.targetWeightBps, right: true },
      { title: "actual bps", value: (p) => Math.round(p.weightBps * 10) / 10, right: true },
      { title: "drift bps", value: (p) => Math.round(p.driftBps * 10) / 10, right: true },
      { title: "value", value: (p) => formatDollars(usdToMicros(p.valueUsd)), right: true },
      { title: "rate bps", value: (p) => p.currentApyBps, right: true },
      { title: "withdrawable", value: (p) => durationInWords(p.meta.maxProcessingTime) },
    ]),
    "",
    table(Object.entries(wallet.depositAddresses), [
      { title: "chain", value: ([chain]) => chain },
      { title: "deposit address", value: ([, entry]) => entry.address },
    ]),
  ].join("\n");
}

function walletsCommand(): Command {
  const wallets = new Command("wallets").description(
    "List wallets, or show one with balances and positions.",
  );
  wallets.addCommand(
    listOptions(new Command("list").description("List wallets, newest first.")).action(
      async (flags: ListFlags, command: Command) => {
        const options = globalOptionsOf(command);
        const items = await withServiceClient(options, (client) =>
          collectPages(client.wallets.list(pageQuery(flags)), flags.limit),
        );
        printResult(options.json === true, items, () =>
          table(items, [
            { title: "wallet", value: (w) => w.id },
            { title: "label", value: (w) => w.label ?? null },
            { title: "status", value: (w) => w.status },
            { title: "balance", value: (w) => formatDollars(usdToMicros(w.totalBalanceUsd)), right: true },
            { title: "rate bps", value: (w) => w.blendedRateBps, right: true },
            { title: "created", value: (w) => w.createdAt },
          ]),
        );
      },
    ),
  );
  wallets.addCommand(
    new Command("show")
      .description("Show a wallet: balances, positions with drift, deposit addresses.")
      .argument("<walletId>", "the wallet", uuid)
      .action(async (walletId: string, _flags: unknown, command: Command) => {
        const options = globalOptionsOf(command);
        const wallet = await withServiceClient(options, (client) => client.wallets.retrieve(walletId));
        printResult(options.json === true, wallet, () => walletFields(wallet));
      }),
  );
  return wallets;
}

function depositsCommand(): Command {
  const deposits = new Command("deposits").description("List a wallet's deposits, or show one.");
  deposits.addCommand(
    listOptions(new Command("list").description("List a wallet's deposits, newest first."))
      .argument("<walletId>", "the wallet", uuid)
      .action(async (walletId: string, flags: ListFlags, command: Command) => {
        const options = globalOptionsOf(command);
        const items = await withServiceClient(options, (client) =>
          collectPages(client.deposits.list(walletId, pageQuery(flags)), flags.limit),
        );
        printResult(options.json === true, items, () =>
          table(items, [
            { title: "deposit", value: (d) => d.id },
            { title: "status", value: (d) => d.status },
            { title: "amount", value: (d) => formatDollars(usdToMicros(d.amountUsd)), right: true },
            { title: "chain", value: (d) => d.chain },
            { title: "tx", value: (d) => d.txHash },
            { title: "created", value: (d) => d.createdAt },
          ]),
        );
      }),
  );
  deposits.addCommand(
    new Command("show")
      .description("Show a deposit with the status of each leg.")
      .argument("<walletId>", "the wallet", uuid)
      .argument("<depositId>", "the deposit", uuid)
      .action(async (walletId: string, depositId: string, _flags: unknown, command: Command) => {
        const options = globalOptionsOf(command);
        const deposit = await withServiceClient(options, (client) =>
          client.deposits.retrieve(walletId, depositId),
        );
        printResult(options.json === true, deposit, () =>
          [
            fields([
              ["deposit", deposit.id],
              ["wallet", deposit.portfolioWalletId],
              ["status", deposit.status],
              ["amount", formatDollars(usdToMicros(deposit.amountUsd))],
              ["chain", deposit.chain],
              ["address", deposit.address],
              ["tx", deposit.txHash],
              ["created", deposit.createdAt],
              ["completed", deposit.completedAt ?? null],
              ["failure", deposit.failureReason ?? null],
            ]),
            "",
            table(Object.entries(deposit.legStatuses), [
              { title: "leg", value: ([leg]) => leg },
              { title: "status", value: ([, status]) => status },
            ]),
          ].join("\n"),
        );
      }),
  );
  return deposits;
}

function withdrawalsCommand(): Command {
  const withdrawals = new Command("withdrawals").description(
    "List a wallet's withdrawals, or show one with its legs.",
  );
  withdrawals.addCommand(
    listOptions(new Command("list").description("List a wallet's withdrawals, newest first."))
      .argument("<walletId>", "the wallet", uuid)
      .action(async (walletId: string, flags: ListFlags, command: Command) => {
        const options = globalOptionsOf(command);
        const items = await withServiceClient(options, (client) =>
          collectPages(client.withdrawals.list(walletId, pageQuery(flags)), flags.limit),
        );
        printResult(options.json === true, items, () =>
          table(items, [
            { title: "withdrawal", value: (w) => w.id },
            { title: "status", value: (w) => w.status },
            { title: "amount", value: (w) => formatDollars(usdToMicros(w.withdrawalAmount)), right: true },
            {
              title: "to",
              value: (w) => `${w.destinationToken}/${w.destinationChain} ${w.destinationAddress}`,
            },
          ]),
        );
      }),
  );
  withdrawals.addCommand(
    new Command("show")
      .description("Show a withdrawal with its payout legs.")
      .argument("<walletId>", "the wallet", uuid)
      .argument("<withdrawalId>", "the withdrawal", uuid)
      .action(async (walletId: string, withdrawalId: string, _flags: unknown, command: Command) => {
        const options = globalOptionsOf(command);
        const withdrawal = await withServiceClient(options, (client) =>
          client.withdrawals.retrieve(walletId, withdrawalId),
        );
        printResult(options.json === true, withdrawal, () => withdrawalFields(withdrawal));
      }),
  );
  return withdrawals;
}

interface YieldFlags {
  start?: string;
  end?: string;
  wallet?: string[];
}

function yieldCommand(): Command {
  return new Command("yield")
    .description("Yield generated, withdrawn and accrued over a period, globally and per wallet.")
    .option("--start <date-time>", "period start (default: lifetime)", isoDateTime)
    .option("--end <date-time>", "period end (default: now)", isoDateTime)
    .option(
      "--wallet <walletId>",
      "a wallet to report on (repeatable)",
      (value: string, previous?: string[]) => collect(uuid(value), previous),
    )
    .action(async (flags: YieldFlags, command: Command) => {
      const options: GlobalOptions = globalOptionsOf(command);
      const metrics = await withServiceClient(options, (client) =>
        client.yieldMetrics.retrieve({
          ...(flags.start ? { periodStartIso: flags.start } : {}),
          ...(flags.end ? { periodEndIso: flags.end } : {}),
          ...(flags.wallet ? { portfolioWalletIds: flags.wallet } : {}),
        }),
      );
      const rows = [
        { scope: "all wallets", figures: metrics.global },
        ...Object.entries(metrics.portfolioWallets).map(([walletId, figures]) => ({
          scope: walletId,
          figures,
        })),
      ];
      printResult(options.json === true, metrics, () =>
        [
          `period ${metrics.period.start ?? "(lifetime)"} to ${metrics.period.end}`,
          "",
          table(rows, [
            { title: "scope", value: (r) => r.scope },
            {
              title: "generated",
              value: (r) => formatDollars(usdToMicros(r.figures.generated)),
              right: true,
            },
            {
              title: "withdrawn",
              value: (r) => formatDollars(usdToMicros(r.figures.withdrawn)),
              right: true,
            },
            {
              title: "accrued delta",
              value: (r) => formatDollars(usdToMicros(r.figures.accruedDelta)),
              right: true,
            },
          ]),
        ].join("\n"),
      );
    });
}

export { walletsCommand, depositsCommand, withdrawalsCommand, yieldCommand };
