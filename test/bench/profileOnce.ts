// Ad-hoc: profile one preview of n no-op resources and n wallets (programs and providers).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSandbox } from "../../sandbox/index.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { packedPackage } from "../consumer/harness/packedPackage.ts";

const n = Number(process.env["N"] ?? "200");
const op = process.env["OP"] ?? "preview";
const tarball = await packedPackage();
const project = await ConsumerProject.fromTemplate(
  path.join(repoRoot, "test/bench/programs/fleet"),
  "prof",
  tarball,
);
const sandbox = await startSandbox({ port: 0, dataDir: ":memory:", tokens: { t: "o" } });
for (const kind of ["noop", "wallet"]) {
  await project.pulumi(["stack", "init", kind]);
  await project.pulumi(["config", "set", "bench:count", String(n)]);
  await project.pulumi(["config", "set", "bench:kind", kind]);
  await project.pulumi(["config", "set", "portfolio-wallet:baseUrl", sandbox.url]);
  await project.pulumi(["config", "set", "--secret", "portfolio-wallet:apiToken", "t"]);
  if (op === "nochange") await project.pulumi(["up", "--yes", "--skip-preview"]);
  const dir = mkdtempSync(path.join(os.tmpdir(), `prof-${kind}-`));
  const started = performance.now();
  await project.pulumi(op === "up" ? ["up", "--yes", "--skip-preview"] : ["preview"], {
    NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
  });
  console.log(kind, ((performance.now() - started) / 1000).toFixed(2), "s", dir);
  for (const file of readdirSync(dir)) {
    const p = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
    const urls = new Set(p.nodes.map((x: { callFrame: { url: string } }) => x.callFrame.url));
    const which = [...urls].some((u) => String(u).includes("cmd/dynamic-provider"))
      ? "provider"
      : [...urls].some((u) => String(u).includes("cmd/run"))
        ? "program"
        : "other";
    console.log(`  ${which}: ${((p.endTime - p.startTime) / 1e6).toFixed(2)} s wall, ${file}`);
  }
}
await sandbox.close();
project.cleanUp();
