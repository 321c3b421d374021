import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Engine tests drive the real Pulumi CLI; they need minutes, not the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    reporters: ["default", "./test/reporters/summaryLine.ts"],
  },
});
