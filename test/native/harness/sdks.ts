import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { JAVA_SDK } from "../../../scripts/generateSdks.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import type { LanguageProject } from "./languageProject.ts";

/**
 * Each generated SDK got into a user's project the way docs/languages.md says to before it is
 * published, from this checkout: what the language tests (test/native) and the examples' test
 * (test/examples/languages.test.ts) do before their first `pulumi` command.
 */

/** A Go user's shell: the module proxy, no workspace, the installed Go. */
export const GO_ENV = { GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" };

/** A virtual environment with the project's requirements.txt and the Python SDK (`pip install <checkout>/sdk/python`). */
export async function installPythonSdk(project: LanguageProject): Promise<void> {
  // A copy of the generated directory: pip builds in place.
  const sdk = path.join(project.root, "sdk-python");
  cpSync(path.join(repoRoot, "sdk", "python"), sdk, { recursive: true });
  await project.createVirtualEnvironment([sdk]);
}

/** The Go SDK module from the checkout: `go mod edit -replace …=<checkout>/sdk/go && go mod tidy`. */
export async function useGoSdk(project: LanguageProject): Promise<void> {
  project.setEnv(GO_ENV);
  await project.run("go", [
    "mod",
    "edit",
    `-replace=github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go=${path.join(repoRoot, "sdk", "go")}`,
  ]);
  await project.run("go", ["mod", "tidy"]);
}

/**
 * The Java SDK installed into the local Maven repository (`mvn install` in <checkout>/sdk/java, here
 * in a copy so that no target/ lands in the checkout), then the program compiled once, fetching what
 * `mvn compile exec:java` needs, so that no `pulumi` command pays for it.
 *
 * Test files run in parallel and share ~/.m2, where an install rewrites the jar other programs are
 * compiling or running against. So the install runs under a lock and only when the installed SDK
 * came from other sources (a hash of sdk/java stamped beside it): once per change of the SDK.
 */
export async function installJavaSdk(project: LanguageProject): Promise<void> {
  const sdk = path.join(project.root, "sdk-java");
  cpSync(path.join(repoRoot, "sdk", "java"), sdk, { recursive: true });
  const hash = createHash("sha256");
  for (const file of filesUnder(sdk)) hash.update(file).update(readFileSync(path.join(sdk, file)));
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
    version: string;
  };
  const stamp = path.join(
    os.homedir(),
    ".m2",
    "repository",
    ...JAVA_SDK.groupId.split("."),
    JAVA_SDK.artifactId,
    version,
    "installed-from.sha256",
  );
  const script =
    `if [ "$(cat "$1" 2>/dev/null)" != "$2" ]; then ` +
    `mvn --batch-mode --quiet -f "$3/pom.xml" install && printf '%s' "$2" > "$1"; fi`;
  await project.run("flock", [
    path.join(os.tmpdir(), "portfolio-wallet-java-sdk.lock"),
    "sh",
    "-c",
    script,
    "install-java-sdk",
    stamp,
    hash.digest("hex"),
    sdk,
  ]);
  await project.run("mvn", ["--batch-mode", "--quiet", "compile"]);
}

/** Every file under a directory, relative to it, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.join(prefix, entry.name);
      return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
    })
    .sort();
}
