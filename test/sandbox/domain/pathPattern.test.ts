import { describe, expect, test } from "vitest";
import { compilePathPattern, countWildcards } from "../../../sandbox/domain/pathPattern.ts";

const matches = (pattern: string, path: string) => compilePathPattern(pattern).matches(path);

describe("fault path patterns", () => {
  test("a route pattern matches one segment per :name", () => {
    const pattern = "/v2/portfolio-wallets/:id/strategy";
    expect(matches(pattern, "/v2/portfolio-wallets/abc/strategy")).toBe(true);
    expect(matches(pattern, "/v2/portfolio-wallets/abc/strategy/")).toBe(true);
    expect(matches(pattern, "/v2/portfolio-wallets//strategy")).toBe(false);
    expect(matches(pattern, "/v2/portfolio-wallets/a/b/strategy")).toBe(false);
    expect(matches(pattern, "/v2/portfolio-wallets/abc/strategyX")).toBe(false);
  });

  test("* matches any characters, slashes and nothing included", () => {
    expect(matches("/v2/*", "/v2/portfolio-wallets/x/withdrawals")).toBe(true);
    expect(matches("/v2/*", "/v2/")).toBe(true);
    expect(matches("*/strategy", "/v2/portfolio-wallets/x/strategy")).toBe(true);
    expect(matches("/v2/*/withdraw", "/v2/portfolio-wallets/x/withdrawals")).toBe(false);
    expect(matches("/webhooks/registrations", "/webhooks/registrations")).toBe(true);
    expect(matches("/webhooks/registrations", "/webhooks/registration")).toBe(false);
  });

  test("characters that meant something to a regular expression are literal", () => {
    expect(matches("/a.b", "/a.b")).toBe(true);
    expect(matches("/a.b", "/axb")).toBe(false);
    expect(matches("/(x)+", "/(x)+")).toBe(true);
  });

  test("a pattern built to backtrack is read in one pass (this test would hang otherwise)", () => {
    const pattern = `/${"*".repeat(1) + "a*".repeat(15)}!`;
    const path = `/${"a".repeat(10_000)}`;
    expect(matches(pattern, path)).toBe(false);
    expect(matches("/******!", `/${"x".repeat(10_000)}`)).toBe(false);
    expect(matches("/******!", `/${"x".repeat(10_000)}!`)).toBe(true);
  });

  test("consecutive stars count as one wildcard", () => {
    expect(countWildcards("/******!")).toBe(1);
    expect(countWildcards("/:a/*/:b")).toBe(3);
  });
});
