import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandboxProcess, type SandboxHandle } from "../../bench/load/sandboxHandle.ts";
import { badStampRequests, twentyRequests } from "../../support/badStamps.ts";

/**
 * A request with a bad stamp is refused whatever its body's size, by a sandbox process of its own
 * (test/bench/load/sandboxProcess.ts). What refusing a 1 MB body costs the sandbox's CPU against a
 * small one is `npm run bench:signing`'s (test/bench/signingCost.ts): a timing is measured in a
 * bench, never asserted in a test.
 */

const TOKEN = "cost-token";
const ORG = "cost-org";
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandboxProcess({ [TOKEN]: ORG }, { dataDir: ":memory:" });
}, 60_000);
afterAll(() => sandbox.close());

describe("a request with a bad stamp", () => {
  test("is a 401 with a small body, and a 401 or a 413 with a 1 MB one", async () => {
    const { small, large, stamps } = await badStampRequests(sandbox.url, TOKEN, ORG);
    expect(large.length).toBeGreaterThan(990_000);
    for (const [what, stamp] of stamps) {
      const smallStatuses = await twentyRequests(sandbox.url, small, stamp);
      const largeStatuses = await twentyRequests(sandbox.url, large, stamp);
      expect(
        smallStatuses.every((s) => s === 401),
        what,
      ).toBe(true);
      expect(
        largeStatuses.every((s) => s === 401 || s === 413),
        what,
      ).toBe(true);
    }
  }, 120_000);
});
