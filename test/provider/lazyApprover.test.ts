import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import {
  POSITIONS_B,
  approverConfig,
  baseConfig,
  registeredApproverKeys,
  setPolicy,
  urnOf,
  useProviderSandbox,
} from "./helpers.ts";

/**
 * The signing provider's SDK takes over a second to load; a deployment that never approves must
 * not pay for it. Run in a separate Node process, as the dynamic provider runs, on the build.
 */

const t = useProviderSandbox();
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const script = fileURLToPath(new URL("./programs/approverLoading.cts", import.meta.url));

async function runProviderProcess(config: Record<string, string>) {
  const { stdout } = await promisify(execFile)(process.execPath, [script, repoRoot], {
    env: {
      ...process.env,
      PW_CONFIG: JSON.stringify(config),
      PW_URN: urnOf("PortfolioWallet"),
      PW_SECOND_TARGET: JSON.stringify(POSITIONS_B),
    },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    turnkeyLoaded: boolean;
    strategyChangeStatus: string | null;
  };
}

describe("the approver is loaded only when a deployment approves", () => {
  test("without approval settings, a create and a strategy change never load @turnkey/sdk-server", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const report = await runProviderProcess(baseConfig(t));
    expect(report.strategyChangeStatus).toBe("pending_approval");
    expect(report.turnkeyLoaded).toBe(false);
  });

  test("with approval settings, approving the pending change loads it (so the check above can tell)", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 });
    const keys = await registeredApproverKeys(t);
    const report = await runProviderProcess({ ...baseConfig(t), ...approverConfig(t, keys) });
    expect(report.strategyChangeStatus).toBe("completed");
    expect(report.turnkeyLoaded).toBe(true);
  });
});
