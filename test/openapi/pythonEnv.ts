import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import path from "node:path";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * A cached Python venv with the packages of `scripts/python/<name>.txt`, made (from PyPI, the
 * first time) by scripts/ensure-python-env.sh under ~/.cache/portfolio-wallet-<name>/, keyed by
 * the requirements' hash (which holds the pinned versions). Answers the venv's path.
 */
export function ensurePythonEnv(name: "schemathesis" | "openapi-python-client"): string {
  const cacheDir = path.join(
    process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"),
    `portfolio-wallet-${name}`,
  );
  return execFileSync(
    "bash",
    [
      path.join(repoRoot, "scripts", "ensure-python-env.sh"),
      path.join(repoRoot, "scripts", "python", `${name}.txt`),
    ],
    {
      encoding: "utf8",
      env: { ...process.env, PYTHON_ENV_CACHE_DIR: cacheDir },
      stdio: ["ignore", "pipe", "inherit"],
      timeout: 15 * 60_000,
    },
  ).trim();
}
