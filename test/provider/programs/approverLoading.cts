/**
 * Drives the built provider implementation the way an installed dynamic-provider process does (the
 * CommonJS tree, required through the package's `./provider` entry) and reports whether the
 * signing provider's SDK (@turnkey/sdk-server) was loaded. Used by lazyApprover.test.ts.
 *
 * Usage: node approverLoading.cts <repo root>   with PW_CONFIG (JSON stack config), PW_URN, PW_SECOND_TARGET
 */
import type * as Implementation from "../../../provider/implementation.ts";

async function main(): Promise<void> {
  const repoRoot = process.argv[2] ?? "";
  // The CommonJS tree, as `require("@portfolio-wallet/pulumi/provider")` loads it in a provider process.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const implementation = require(`${repoRoot}/dist/cjs/provider/implementation.js`) as typeof Implementation;
  const config = JSON.parse(process.env["PW_CONFIG"] ?? "{}") as Record<string, string>;
  const urn = process.env["PW_URN"] ?? "";
  await implementation.callProvider("configure", [{ get: (key: string) => config[key] }]);
  const first = { resourceUrn: urn, positions: [{ positionKey: "tbills", targetWeightBps: 10_000 }] };
  const checked = (await implementation.callProvider("check", [{}, first])) as {
    inputs: Record<string, unknown>;
  };
  const created = (await implementation.callProvider("create", [checked.inputs])) as {
    id: string;
    outs: Record<string, unknown>;
  };
  const second = {
    resourceUrn: urn,
    positions: JSON.parse(process.env["PW_SECOND_TARGET"] ?? "[]") as unknown[],
  };
  const checkedSecond = (await implementation.callProvider("check", [created.outs, second])) as {
    inputs: Record<string, unknown>;
  };
  const updated = (await implementation.callProvider("update", [
    created.id,
    created.outs,
    checkedSecond.inputs,
  ])) as {
    outs: { strategyChangeStatus: string | null };
  };
  const turnkeyLoaded = Object.keys(require.cache).some((file) => file.includes("/@turnkey/"));
  process.stdout.write(
    `${JSON.stringify({ turnkeyLoaded, strategyChangeStatus: updated.outs.strategyChangeStatus })}\n`,
  );
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
