import { z } from "zod";
import { StrategyCatalogEntrySchema, YieldSourceSchema } from "../contract/catalog.ts";
import { UuidSchema } from "../contract/common.ts";
import { QuoteOptionSchema, QuoteRequestSchema } from "../contract/quote.ts";
import { PortfolioWalletSchema } from "../contract/wallet.ts";
import { YieldMetricsRequestSchema, YieldMetricsSchema } from "../contract/yieldMetrics.ts";
import type { PortfolioWalletClient } from "../client/index.ts";

/**
 * The read-only functions, each written once: its arguments and result (contract schemas) and the
 * one read it makes. The TypeScript functions (index.ts), the native provider's invokes
 * (`portfolio-wallet:index:getQuote`, ...) and the package schema all come from this table. Results
 * are objects (`{ options }`, `{ strategies }`), because an invoke answers with one.
 */
export interface ReadFunction<Args extends z.ZodType, Result extends z.ZodType> {
  args: Args;
  result: Result;
  call(client: PortfolioWalletClient, args: z.infer<Args>): Promise<z.infer<Result>>;
}

const readFunction = <Args extends z.ZodType, Result extends z.ZodType>(
  definition: ReadFunction<Args, Result>,
) => definition;

const NoArgsSchema = z.object({});

export const READ_FUNCTIONS = {
  getStrategies: readFunction({
    args: NoArgsSchema,
    result: z.object({ strategies: z.array(StrategyCatalogEntrySchema) }),
    call: async (client) => ({ strategies: (await client.catalog.listStrategies()).strategies }),
  }),
  getYieldSources: readFunction({
    args: NoArgsSchema,
    result: z.object({ yieldSources: z.array(YieldSourceSchema) }),
    call: async (client) => ({ yieldSources: (await client.catalog.listYieldSources()).yieldSources }),
  }),
  getQuote: readFunction({
    args: QuoteRequestSchema,
    result: z.object({ options: z.array(QuoteOptionSchema) }),
    call: async (client, request) => ({ options: await client.quotes.create(request) }),
  }),
  getWallet: readFunction({
    args: z.object({ walletId: UuidSchema }),
    result: PortfolioWalletSchema,
    call: (client, { walletId }) => client.wallets.retrieve(walletId),
  }),
  getYieldMetrics: readFunction({
    args: YieldMetricsRequestSchema,
    result: YieldMetricsSchema,
    call: (client, request) => client.yieldMetrics.retrieve(request),
  }),
};
export type ReadFunctionName = keyof typeof READ_FUNCTIONS;
