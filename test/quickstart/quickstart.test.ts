import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

// The README's main job, run as a user runs it (`node scripts/quickstart.ts`), through the real
// engine, in its own stack, state directory and sandbox port so it never touches a developer's
// own quickstart stack.

const run = promisify(execFile);
const stateRoot = mkdtempSync(path.join(tmpdir(), "pw-quickstart-test-"));
const stackName = `quickstart-test-${path.basename(stateRoot).slice(-6).toLowerCase()}`;
let port = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: found } = server.address() as { port: number };
      server.close(() => resolve(found));
    });
  });
}

async function quickstart(...args: string[]): Promise<string> {
  // As the README's first command runs it: the engine type-checks the quickstart program (the
  // heavy tier's transpile-only setting, vitest.config.ts, is not a user's).
  const { PULUMI_NODEJS_TRANSPILE_ONLY: _tierSetting, ...userEnv } = process.env;
  const { stdout } = await run(process.execPath, ["scripts/quickstart.ts", ...args], {
    cwd: repoRoot,
    env: {
      ...userEnv,
      PORTFOLIO_WALLET_QUICKSTART_STACK: stackName,
      PORTFOLIO_WALLET_QUICKSTART_STATE_DIR: stateRoot,
      PORTFOLIO_WALLET_QUICKSTART_PORT: String(port),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

afterAll(() => {
  rmSync(stateRoot, { recursive: true, force: true });
  rmSync(path.join(repoRoot, `Pulumi.${stackName}.yaml`), { force: true });
});

describe("npm run quickstart", () => {
  test(
    "creates the wallet and webhook, is a no-op the second time, and tears down",
    { timeout: 300_000 },
    async () => {
      port = await freePort();
      const first = await quickstart();
      expect(first).toMatch(/\+ 3 created/);
      const walletId = /wallet id:\s+([0-9a-f-]{36})/.exec(first)?.[1];
      expect(walletId).toBeDefined();
      expect(first).toMatch(/blended rate \(bps\): \d+/);
      for (const chain of ["ethereum", "solana", "bsc", "avalanche", "arbitrum", "base", "optimism"]) {
        expect(first).toMatch(new RegExp(`^\\s+${chain}\\s+\\S+$`, "m"));
      }

      const second = await quickstart();
      expect(second).toMatch(/3 unchanged/);
      expect(second).not.toMatch(/created|updated|replaced/);
      expect(second).toContain(`wallet id:          ${walletId}`);

      // The reviewer's view of the program as it stands: the report of a real preview.
      const report = await quickstart("report");
      expect(report).toContain(
        `<!-- portfolio-wallet-report project=portfolio-wallet-quickstart stack=${stackName}`,
      );
      expect(report).toContain(`### portfolio-wallet-quickstart/${stackName}: no changes`);

      const destroyed = await quickstart("destroy");
      expect(destroyed).toMatch(/- 3 deleted/);
      expect(existsSync(path.join(stateRoot, "sandbox-data"))).toBe(true);
    },
  );
});
