import type { PortfolioWallet } from "../sdk/nodejs/contract/wallet.ts";
import { NotFoundError } from "../sdk/nodejs/client/index.ts";
import type { ServiceConnection } from "./serviceConnection.ts";

/**
 * A wallet a resource names by id (`adoptWalletId`, `walletId`). A 404 means no such wallet for
 * this token's organization; the error names the input and says what to check.
 */
export async function retrieveExistingWallet(
  connection: ServiceConnection,
  walletId: string,
  input: "adoptWalletId" | "walletId",
): Promise<PortfolioWallet> {
  try {
    return await connection.client.wallets.retrieve(walletId);
  } catch (error) {
    if (NotFoundError.isInstance(error)) {
      throw new Error(
        `${input} ${walletId}: no such wallet for this API token's organization. Check the id (for example the ` +
          "StackReference output it comes from) and that portfolio-wallet:apiToken belongs to the organization " +
          "that owns the wallet.",
        { cause: error },
      );
    }
    throw error;
  }
}
