import { cpSync } from "node:fs";
import path from "node:path";
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
 */
export async function installJavaSdk(project: LanguageProject): Promise<void> {
  const sdk = path.join(project.root, "sdk-java");
  cpSync(path.join(repoRoot, "sdk", "java"), sdk, { recursive: true });
  await project.run("mvn", ["--batch-mode", "--quiet", "install"], sdk);
  await project.run("mvn", ["--batch-mode", "--quiet", "compile"]);
}
