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

/** Whether `text` is base58 (Solana's way to write bytes) of exactly `length` bytes. */
function isBase58Of(text: string, length: number): boolean {
  return bs58.decodeUnsafe(text)?.length === length;
}

/** Why `address` is not an address on `chain`, or null when it is well-formed. */
export function chainAddressProblem(chain: KnownChain, address: string): string | null {
  if (chain === "solana")
    return isBase58Of(address, 32)
      ? null
      : "must be a Solana address: base58 of a 32-byte public key (32 to 44 characters)";
  return isEvmAddress(address) ? null : `must be an ${chain} address: 0x followed by 40 hex digits`;
}

const EVM_TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Why `hash` is not a transaction hash on `chain`, or null when it is well-formed: `0x` + 64 hex
 * digits (32 bytes) on EVM chains, a base58 signature of 64 bytes on Solana. The console refuses
 * other text at its field; the sandbox's own endpoint takes any text as the transfer's key, as
 * the clients and recorded fixtures that already send other forms expect.
 */
export function transactionHashProblem(chain: KnownChain, hash: string): string | null {
  if (chain === "solana")
    return isBase58Of(hash, 64)
      ? null
      : "must be a Solana transaction signature: base58 of 64 bytes (87 or 88 characters)";
  return EVM_TRANSACTION_HASH.test(hash)
    ? null
    : `must be a transaction hash on ${chain}: 0x followed by 64 hex digits`;
}

/** A random transaction hash in `chain`'s form, for a simulated transfer. */
export function randomTransactionHash(chain: KnownChain, random: (bytes: Uint8Array) => Uint8Array): string {
  if (chain === "solana") return bs58.encode(random(new Uint8Array(64)));
  return `0x${Array.from(random(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}
