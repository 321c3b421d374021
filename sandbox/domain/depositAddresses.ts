import { createHash } from "node:crypto";
import { KNOWN_CHAINS } from "../../sdk/nodejs/contract/index.ts";
import { base58 } from "./chainAddresses.ts";

function digest(walletId: string, chain: string): Buffer {
  return createHash("sha256").update(`sandbox-deposit-address:${chain}:${walletId}`).digest();
}

/**
 * A deposit address per known chain, in the chain's native format: `0x` + 40 lowercase hex for
 * EVM chains, base58 of 32 bytes for Solana. Derived from the wallet id (so they are stable across
 * restarts and unique per wallet and chain); they are not real keys and hold nothing on-chain.
 */
export function depositAddressesFor(walletId: string): { chain: string; address: string }[] {
  return KNOWN_CHAINS.map((chain) => {
    const bytes = digest(walletId, chain);
    const address = chain === "solana" ? base58(bytes) : `0x${bytes.subarray(0, 20).toString("hex")}`;
    return { chain, address };
  });
}
