import { describe, expect, test } from "vitest";
import { base58, depositAddressesFor } from "../../sandbox/domain/depositAddresses.ts";
import { decodeCursor, encodeCursor } from "../../sandbox/domain/pagination.ts";

describe("base58", () => {
  test("matches known Bitcoin-alphabet encodings, leading zeros included", () => {
    expect(base58(new TextEncoder().encode("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U");
    expect(base58(new Uint8Array([0, 0, 1]))).toBe("112");
    // The Solana system program id is 32 zero bytes.
    expect(base58(new Uint8Array(32))).toBe("11111111111111111111111111111111");
  });
});

describe("depositAddressesFor", () => {
  test("is deterministic per wallet and differs between wallets", () => {
    const a = depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70");
    expect(depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70")).toEqual(a);
    const b = depositAddressesFor("3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71");
    expect(a.map((e) => e.address)).not.toEqual(b.map((e) => e.address));
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
