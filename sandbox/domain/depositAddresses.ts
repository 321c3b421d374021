import { createHash } from "node:crypto";
import { KNOWN_CHAINS } from "../../sdk/contract/index.ts";

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Bitcoin-alphabet base58, as Solana writes public keys. */
export function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) + BigInt(byte);
  let out = "";
  while (value > 0n) {
    out = BASE58_ALPHABET[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = "1" + out;
  }
  return out;
}

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
