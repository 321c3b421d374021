import bs58 from "bs58";
import { isEvmAddress } from "../../sdk/nodejs/contract/chainAddress.ts";
import { KNOWN_CHAINS, quoteValue, type KnownChain } from "../../sdk/nodejs/contract/index.ts";

/**
 * Chains and their addresses: which chains the sandbox serves, what an address on each looks like
 * (the contract's chainAddress.ts, which the console's page checks with too), and how an address
 * is compared.
 */

export function isKnownChain(chain: string): chain is KnownChain {
  return (KNOWN_CHAINS as readonly string[]).includes(chain);
}

/** Why a chain is refused, naming the chains that are served. */
export function unknownChainReason(chain: string): string {
  return `unknown chain ${quoteValue(chain)}; use one of: ${KNOWN_CHAINS.join(", ")}`;
}

export { chainAddressProblem, isEvmAddress } from "../../sdk/nodejs/contract/chainAddress.ts";

/** Solana's base58 (Bitcoin's alphabet) of bytes, as Solana writes public keys. */
export const base58 = (bytes: Uint8Array): string => bs58.encode(bytes);

/** An address as stored and compared: EVM addresses are case-insensitive (mixed case is only a checksum); Solana's base58 is not. */
export function canonicalAddress(address: string): string {
  return isEvmAddress(address) ? address.toLowerCase() : address;
}
