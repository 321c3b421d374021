import {
  StatementInputError,
  statementPeriodProblems,
  walletStatement,
  type Statement,
  type StatementPeriod,
  type Withdrawal,
} from "../../contract/index.ts";
import { PortfolioWalletError } from "../core/errors.ts";
import type { RequestOptions } from "../core/requester.ts";
import type { Deposits } from "./deposits.ts";
import type { Wallets } from "./wallets.ts";
import type { Withdrawals } from "./withdrawals.ts";
import type { YieldMetricsResource } from "./yieldMetrics.ts";

/** The API's statements are not an endpoint: they are made from these resources' answers. */
export interface StatementSources {
  wallets: Wallets;
  deposits: Deposits;
  withdrawals: Withdrawals;
  yieldMetrics: YieldMetricsResource;
}

/**
 * A period that is no period (a date-time that does not parse, or `to` not after `from`), or a
 * statement the service's answers cannot make. `field` names the period's bad field, if any.
 */
export class StatementError extends PortfolioWalletError {
  static override readonly brandName: string = "StatementError";
  readonly field: "from" | "to" | null;

  constructor(message: string, field: "from" | "to" | null) {
    super(message);
    this.field = field;
  }
}

const PAGE_SIZE = 100;

/**
 * Wallet statements (docs/cli.md "statement"): the opening balance, deposits, withdrawals, payouts,
 * yield and closing balance of a wallet over a period, with each movement, computed by the
 * contract's `walletStatement` from the service's own answers.
 */
export class Statements {
  readonly #sources: StatementSources;

  constructor(sources: StatementSources) {
    this.#sources = sources;
  }

  /**
   * The wallet's statement over `(from, to]`. Reads the wallet, every deposit and withdrawal of it
   * (each withdrawal whole, for its payouts' times) and its yield metrics twice (for the period,
   * and through `to`). Throws a StatementError for a bad period, before any request.
   */
  async retrieve(walletId: string, period: StatementPeriod, options?: RequestOptions): Promise<Statement> {
    const problem = statementPeriodProblems(period)[0];
    if (problem !== undefined) throw new StatementError(`${problem.field} ${problem.reason}`, problem.field);
    const { wallets, deposits, withdrawals, yieldMetrics } = this.#sources;
    const wallet = await wallets.retrieve(walletId, options);
    const toMs = Date.parse(period.to);
    const madeByEnd = (item: { createdAt?: string }) =>
      item.createdAt === undefined || Date.parse(item.createdAt) <= toMs;
    const depositList = [];
    for await (const deposit of deposits.list(walletId, { pageSize: PAGE_SIZE }, options))
      if (madeByEnd(deposit)) depositList.push(deposit);
    const withdrawalIds: string[] = [];
    for await (const item of withdrawals.list(walletId, { pageSize: PAGE_SIZE }, options))
      withdrawalIds.push(item.id);
    const withdrawalList: Withdrawal[] = [];
    for (const id of withdrawalIds) {
      const withdrawal = await withdrawals.retrieve(walletId, id, options);
      if (madeByEnd(withdrawal)) withdrawalList.push(withdrawal);
    }
    const figuresOf = async (body: { periodStartIso?: string; periodEndIso: string }) => {
      const metrics = await yieldMetrics.retrieve({ ...body, portfolioWalletIds: [walletId] }, options);
      const figures = metrics.portfolioWallets[walletId];
      if (figures === undefined)
        throw new StatementError(`the yield metrics answered no figures for wallet ${walletId}`, null);
      return figures;
    };
    const from = new Date(Date.parse(period.from)).toISOString();
    const to = new Date(toMs).toISOString();
    const yieldInPeriod = await figuresOf({ periodStartIso: from, periodEndIso: to });
    const yieldThroughEnd = await figuresOf({ periodEndIso: to });
    try {
      return walletStatement({
        wallet: { id: wallet.id, label: wallet.label ?? null },
        period: { from, to },
        deposits: depositList,
        withdrawals: withdrawalList,
        yieldInPeriod,
        yieldThroughEnd,
      });
    } catch (error) {
      if (error instanceof StatementInputError) throw new StatementError(error.message, null);
      throw error;
    }
  }
}
