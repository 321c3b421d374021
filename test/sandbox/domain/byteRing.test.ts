import { describe, expect, test } from "vitest";
import { ByteRing } from "../../../sandbox/domain/byteRing.ts";

/** The request log's store (sandbox/domain/byteRing.ts), against a plain list of what was pushed. */

/** A small deterministic generator, so a failure repeats. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ALPHABET = ["a", "b", "{", '"', "é", "€", "😀", "\n"];
const textOf = (next: () => number, maxChars: number) =>
  Array.from(
    { length: 1 + Math.floor(next() * maxChars) },
    () => ALPHABET[Math.floor(next() * ALPHABET.length)],
  ).join("");
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

describe("a ring of records kept as bytes", () => {
  test.each([
    { maxRecords: 1, maxBytes: 64, maxChars: 10 },
    { maxRecords: 5, maxBytes: 64, maxChars: 12 },
    { maxRecords: 50, maxBytes: 4096, maxChars: 200 },
    { maxRecords: 500, maxBytes: 256 * 1024, maxChars: 300 },
    { maxRecords: 50, maxBytes: 20 * 1024, maxChars: 3000 },
  ])(
    "holds the newest records, exactly as pushed, within $maxRecords records and $maxBytes bytes",
    (bounds) => {
      const next = random(bounds.maxRecords * 7919 + bounds.maxBytes);
      const ring = new ByteRing(bounds.maxRecords, bounds.maxBytes);
      const pushed: { text: string; tag: number }[] = [];
      const longest = bounds.maxChars * 4;
      for (let n = 1; n <= 3000; n += 1) {
        const text = textOf(next, bounds.maxChars);
        ring.push(text, n);
        pushed.push({ text, tag: n });
        // Every step while the ring is small; every 17th once it holds hundreds (a quick test).
        if (bounds.maxRecords > 50 && n % 17 !== 0) continue;
        const held = [...ring.newestFirst()];
        // The newest records, newest first, each as pushed with its tag: never a gap, never a change.
        expect(held).toEqual(pushed.slice(pushed.length - held.length).reverse());
        expect(held.length).toBeGreaterThanOrEqual(1);
        expect(held.length).toBeLessThanOrEqual(bounds.maxRecords);
        // Only the count drops records while their bytes leave room for the widest record twice over.
        const countKeeps = pushed.slice(-bounds.maxRecords);
        if (countKeeps.reduce((sum, r) => sum + bytes(r.text), 0) + 2 * longest <= bounds.maxBytes)
          expect(held.length).toBe(countKeeps.length);
        expect(ring.capacityBytes).toBeLessThanOrEqual(bounds.maxBytes);
        if (n % 17 === 0) expect(ring.find(n - 1)).toBe(held.length > 1 ? pushed[n - 2]!.text : undefined);
      }
    },
  );

  test("grows only as what it keeps needs: a ring of small records stays small", () => {
    const ring = new ByteRing(50, 512 * 1024);
    for (let n = 0; n < 10_000; n += 1) ring.push("x".repeat(100), n);
    // 50 records of 100 bytes: the first step of memory, not the 512 KB it may take.
    expect(ring.capacityBytes).toBeLessThanOrEqual(16 * 1024);
    const big = new ByteRing(500, 512 * 1024);
    for (let n = 0; n < 2_000; n += 1) big.push("y".repeat(300), n);
    expect(big.capacityBytes).toBeLessThan(500 * 300 + 2 * 16 * 1024);
  });

  test("refuses an empty record and one over its bytes, naming the bound", () => {
    const ring = new ByteRing(4, 16);
    expect(() => ring.push("", 1)).toThrow(/1 to 16 bytes; this one has 0/);
    expect(() => ring.push("€".repeat(6), 1)).toThrow(/1 to 16 bytes; this one has 18/);
    ring.push("€".repeat(5), 2);
    expect(ring.find(2)).toBe("€".repeat(5));
  });
});
