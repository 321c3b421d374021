import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { CLIENT_VERSION } from "../../../sdk/nodejs/client/internal/version.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";

describe("CLIENT_VERSION (the User-Agent's and `portfolio-wallet --version`'s version)", () => {
  test("is the package's version: bump both together", () => {
    const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(CLIENT_VERSION).toBe(version);
  });
});
