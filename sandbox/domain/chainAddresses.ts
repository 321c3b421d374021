import bs58 from "bs58";
import { KNOWN_CHAINS, quoteValue, type KnownChain } from "../../sdk/nodejs/contract/index.ts";

/**
 * Chains and their address formats, in one place: which chains the sandbox serves, what an address
 * on each looks like (`0x` + 40 hex digits on EVM chains, base58 of a 32-byte public key on
 * Solana), and how an address is compared.
 */

export function isKnownChain(chain: string): chain is KnownChain {
  return (KNOWN_CHAINS as readonly string[]).includes(chain);
}

/** Why a chain is refused, naming the chains that are served. */
export function unknownChainReason(chain: string): string {
  return `unknown chain ${quoteValue(chain)}; use one of: ${KNOWN_CHAINS.join(", ")}`;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

/** Solana's base58 (Bitcoin's alphabet) of bytes, as Solana writes public keys. */
export const base58 = (bytes: Uint8Array): string => bs58.encode(bytes);

/** Why `address` is not an address on `chain`, or null when it is well-formed. */
export function chainAddressProblem(chain: KnownChain, address: string): string | null {
  if (chain === "solana") {
    const bytes = bs58.decodeUnsafe(address);
    return bytes !== undefined && bytes.length === 32
      ? null
      : "must be a Solana address: base58 of a 32-byte public key (32 to 44 characters)";
  }
  return isEvmAddress(address) ? null : `must be an ${chain} address: 0x followed by 40 hex digits`;
}

/** An address as stored and compared: EVM addresses are case-insensitive (mixed case is only a checksum); Solana's base58 is not. */
export function canonicalAddress(address: string): string {
  return isEvmAddress(address) ? address.toLowerCase() : address;
}
