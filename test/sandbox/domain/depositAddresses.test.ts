import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { randomTransactionHash, transactionHashProblem } from "../../../sdk/nodejs/contract/chainAddress.ts";
import { canonicalAddress, chainAddressProblem } from "../../../sandbox/domain/chainAddresses.ts";
import { depositAddressesFor } from "../../../sandbox/domain/depositAddresses.ts";
import { decodeCursor, encodeCursor } from "../../../sandbox/domain/pagination.ts";

describe("chain addresses (sandbox/domain/chainAddresses.ts)", () => {
  test("each chain's format: 0x and 40 hex digits on EVM chains, base58 of 32 bytes on Solana", () => {
    expect(chainAddressProblem("ethereum", "0x" + "aB".repeat(20))).toBeNull();
    expect(chainAddressProblem("base", "0x" + "a".repeat(39))).toMatch(/0x followed by 40 hex digits/);
    // The Solana system program id is 32 zero bytes.
    expect(chainAddressProblem("solana", "11111111111111111111111111111111")).toBeNull();
    expect(chainAddressProblem("solana", "0OIl" + "1".repeat(30))).toMatch(/base58 of a 32-byte/);
    expect(chainAddressProblem("solana", "2NEpo7TZRRrLZSi2U")).toMatch(/base58 of a 32-byte/);
  });

  test("EVM addresses compare without case, Solana's with it", () => {
    expect(canonicalAddress("0x" + "AB".repeat(20))).toBe("0x" + "ab".repeat(20));
    expect(canonicalAddress("So11111111111111111111111111111111111111112")).toBe(
      "So11111111111111111111111111111111111111112",
    );
  });
});

describe("transaction hashes (sdk/nodejs/contract/chainAddress.ts), as the console's deposit form checks them", () => {
  test("0x and 64 hex digits on EVM chains, base58 of a 64-byte signature on Solana; other text refused", () => {
    expect(transactionHashProblem("ethereum", `0x${"aB".repeat(32)}`)).toBeNull();
    expect(transactionHashProblem("base", "hello world")).toBe(
      "must be a transaction hash on base: 0x followed by 64 hex digits",
    );
    expect(transactionHashProblem("ethereum", `0x${"a".repeat(63)}`)).toMatch(/64 hex digits/);
    expect(transactionHashProblem("solana", `0x${"a".repeat(64)}`)).toMatch(/base58 of 64 bytes/);
    expect(transactionHashProblem("solana", "1".repeat(64))).toBeNull();
  });

  test("a hash made for a chain is in that chain's form", () => {
    const random = (bytes: Uint8Array) => randomBytes(bytes.length);
    for (const chain of ["ethereum", "solana", "arbitrum"] as const)
      expect(transactionHashProblem(chain, randomTransactionHash(chain, random)), chain).toBeNull();
  });
});

describe("depositAddressesFor", () => {
  test("is deterministic per wallet and differs between wallets", () => {
    const a = depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70");
    expect(depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70")).toEqual(a);
    const b = depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71");
    expect(a.map((e) => e.address)).not.toEqual(b.map((e) => e.address));
  });

  test("every address is well-formed on its chain", () => {
    for (const { chain, address } of depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70")) {
      expect(chainAddressProblem(chain as "ethereum", address), `${chain} ${address}`).toBeNull();
    }
  });
});

describe("cursor", () => {
  test("round-trips created_at|id and rejects anything else", () => {
    const item = { createdAt: "2026-01-01T00:00:00.000Z", id: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70" };
    expect(decodeCursor(encodeCursor(item))).toEqual(item);
    expect(decodeCursor("a|b|c")).toBeNull();
    expect(decodeCursor(`yesterday|${item.id}`)).toBeNull();
  });
});
