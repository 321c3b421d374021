import type { FieldProblem } from "../../../sdk/contract/index.ts";
import { KNOWN_CHAINS, WITHDRAWAL_TOKENS, quoteValue } from "../../../sdk/contract/index.ts";

const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Bytes of a base58 string, or null when it holds a character outside the alphabet. */
function base58Decode(text: string): Uint8Array | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** Why `address` is not an address on `chain`, or null when it is well-formed. */
export function addressProblem(chain: string, address: string): string | null {
  if (chain === "solana") {
    const bytes = base58Decode(address);
    return bytes !== null && bytes.length === 32
      ? null
      : "must be a Solana address: base58 of a 32-byte public key (32 to 44 characters)";
  }
  return /^0x[0-9a-fA-F]{40}$/.test(address)
    ? null
    : `must be an ${chain} address: 0x followed by 40 hex digits`;
}

/**
 * Checks of a withdraw body the schema cannot make, on the raw body so they are reported along
 * with the schema's: a known chain, a supported token, an address in the chain's format.
 */
export function destinationProblems(raw: unknown): FieldProblem[] {
  if (raw === null || typeof raw !== "object") return [];
  const body = raw as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const chain = body.destinationChain;
  const chainKnown = typeof chain === "string" && (KNOWN_CHAINS as readonly string[]).includes(chain);
  if (typeof chain === "string" && chain !== "" && !chainKnown) {
    problems.push({
      field: "destinationChain",
      reason: `unknown chain ${quoteValue(chain)}; use one of: ${KNOWN_CHAINS.join(", ")}`,
    });
  }
  const token = body.destinationToken;
  if (
    typeof token === "string" &&
    token !== "" &&
    !(WITHDRAWAL_TOKENS as readonly string[]).includes(token)
  ) {
    problems.push({
      field: "destinationToken",
      reason: `unsupported token ${quoteValue(token)}; use one of: ${WITHDRAWAL_TOKENS.join(", ")}`,
    });
  }
  const address = body.destinationAddress;
  if (chainKnown && typeof address === "string" && address !== "") {
    const problem = addressProblem(chain, address);
    if (problem !== null) problems.push({ field: "destinationAddress", reason: problem });
  }
  return problems;
}
