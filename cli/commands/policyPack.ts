import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Command, Option } from "commander";

/**
 * `portfolio-wallet policy-pack-path`: the directory of the allocation policy pack inside this
 * installed package, for `pulumi preview --policy-pack "$(portfolio-wallet policy-pack-path)"`.
 * A Python, YAML, Go or Java project has no node_modules of its own: with the package installed
 * anywhere (a tools directory, `npm install -g`, `npx -p`), this names the pack without guessing
 * a path. The package ships two manifests of one pack (docs/policy.md): `policy/` for an engine
 * whose Node.js language host runs policy packs, `policy/offline/` for this project's offline
 * engine, whose language host cannot and which puts the launcher `pulumi-analyzer-policy-nodejsshim`
 * beside its `pulumi`; that launcher being found is what tells the two apart.
 */

export const POLICY_SHIM = "pulumi-analyzer-policy-nodejsshim";

export type PolicyEngine = "regular" | "offline";

/** The root of this package: the first directory up from this file holding its package.json. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (name === "@portfolio-wallet/pulumi") return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the package root of @portfolio-wallet/pulumi");
    dir = parent;
  }
}

/** Where `name` is on `searchPath` (PATH's form), or undefined. */
function onPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Which manifest an engine needs, and why, from what is on PATH (the engine looks there for the launcher). */
export function detectPolicyEngine(searchPath: string): { engine: PolicyEngine; why: string } {
  const shim = onPath(POLICY_SHIM, searchPath);
  if (shim !== undefined) {
    return {
      engine: "offline",
      why: `${shim} is on PATH: this is the offline engine (npm run engine), whose Node.js language host cannot run policy packs, so the engine runs the pack through that launcher`,
    };
  }
  return {
    engine: "regular",
    why: `no ${POLICY_SHIM} on PATH: a regular Pulumi CLI, whose Node.js language host runs the pack (with the offline engine on PATH, use --engine offline)`,
  };
}

/** The pack directory of the installed package for an engine. */
export function policyPackPath(engine: PolicyEngine, root = packageRoot()): string {
  return engine === "offline" ? path.join(root, "policy", "offline") : path.join(root, "policy");
}

export function policyPackPathCommand(): Command {
  return new Command("policy-pack-path")
    .description(
      'Print the directory of the allocation policy pack in this installed package, for `pulumi preview --policy-pack "$(portfolio-wallet policy-pack-path)"` (any language: a Python or YAML project needs no node_modules of its own).',
    )
    .addOption(
      new Option(
        "--engine <kind>",
        "which manifest: regular (policy/) or offline (policy/offline/); default: detected",
      ).choices(["regular", "offline"]),
    )
    .action((flags: { engine?: PolicyEngine }) => {
      const detected = detectPolicyEngine(process.env["PATH"] ?? "");
      const engine = flags.engine ?? detected.engine;
      process.stdout.write(`${policyPackPath(engine)}\n`);
      // Only the path goes to stdout, for $(...); why this one goes to stderr.
      process.stderr.write(
        flags.engine === undefined
          ? `portfolio-wallet: the ${engine} engine's manifest, because ${detected.why}.\n`
          : `portfolio-wallet: the ${engine} engine's manifest, as --engine asked.\n`,
      );
    });
}
