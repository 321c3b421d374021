import type { PortfolioWallet } from "../contract/index.ts";
import type { PortfolioWalletClient } from "./client.ts";

/** The list endpoint's largest page (spec 4.5): the fewest requests for a whole organization. */
export const WALLET_PAGE_SIZE = 100;

/**
 * Every wallet the client's token can see, by id, read with the list endpoint's pages. The one way
 * the pull-request report and the policy pack read wallets for their dollars: one request per hundred wallets.
 */
export async function listWalletsById(client: PortfolioWalletClient): Promise<Map<string, PortfolioWallet>> {
  const byId = new Map<string, PortfolioWallet>();
  for await (const wallet of client.wallets.list({ pageSize: WALLET_PAGE_SIZE })) byId.set(wallet.id, wallet);
  return byId;
}
