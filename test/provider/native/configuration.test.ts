import { describe, expect, test } from "vitest";
import { sameConfig } from "../../../provider/native/configuration.ts";
import { secretValue } from "./pluginClient.ts";

describe("the native plugin's DiffConfig (sameConfig)", () => {
  const base = { baseUrl: "http://127.0.0.1:8787", apiToken: secretValue("token-1") };

  test("a provider setting that changes is a change; a secret is compared by value", () => {
    expect(sameConfig(base, { ...base })).toBe(true);
    expect(sameConfig(base, { ...base, outsideChanges: "overwrite" })).toBe(false);
    expect(sameConfig(base, { ...base, apiToken: secretValue("token-2") })).toBe(false);
    expect(sameConfig(base, { ...base, apiToken: "token-1" })).toBe(true);
  });

  test("the command-line tool's keys in the same namespace never show the provider as changed", () => {
    expect(sameConfig(base, { ...base, reviewToleranceUsd: "250", reviewTolerancePercent: "2" })).toBe(true);
  });
});
