import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Engine tests drive the real Pulumi CLI; they need minutes, not the default 5 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["./test/globalSetup.ts"],
    // The serialized provider (sdk/nodejs/resources/resourceProvider.cts) is CommonJS: Node loads it as is,
    // rather than Vite's transform, which only speaks ES modules.
    server: { deps: { external: [/\.cts$/] } },
    reporters: ["default", "./test/reporters/summaryLine.ts"],
  },
});
