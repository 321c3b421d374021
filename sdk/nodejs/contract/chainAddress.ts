import bs58 from "bs58";
import type { KnownChain } from "./wallet.ts";

/**
 * What an address on each chain looks like: `0x` + 40 hex digits on EVM chains, base58 of a
 * 32-byte public key on Solana. In a module of its own, importing no schema: the sandbox checks
 * destinations with it, and the console's browser bundle checks a withdrawal's address before it
 * asks to confirm, without pulling in zod (sandbox/console/consoleBundle.ts).
 */

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

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
