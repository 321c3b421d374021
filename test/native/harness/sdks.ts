import { createHash } from "node:crypto";
import { cpSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { JAVA_SDK } from "../../../scripts/generateSdks.ts";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { filesUnder, type LanguageProject, PACKAGE_VERSION } from "./languageProject.ts";

/**
 * Each generated SDK got into a user's project the way docs/languages.md says to before it is
 * published, from this checkout: what the language tests (test/native) and the examples' test
 * (test/docs/newcomerPath.engine.test.ts, examples/java) do before their first `pulumi` command.
 */

/**
 * A Go user's shell: the module proxy, no workspace, the installed Go. And programs linked without
 * DWARF debug information (`-ldflags=-w`): the Go language host builds the program again for every
 * `pulumi` command, and a link (3.3 s of CPU for the lifecycle's program, unchanged) is most of it;
 * without DWARF, 2.1–2.7 s. It changes the binary's debug sections, not what it does.
 */
export const GO_ENV = { GOFLAGS: "-mod=mod -ldflags=-w", GOWORK: "off", GOTOOLCHAIN: "local" };

/**
 * Whether a path of a checkout's SDK directory is its source, not what a build left there: the doc
 * walks build the SDKs in the checkout as their pages say (`pip install <checkout>/sdk/python`,
 * `mvn -f <checkout>/sdk/java/pom.xml install`), possibly while another test file copies them, and a
 * half-written build/ or target/ must neither ship nor change the key of a shared environment.
 */
function isSdkSource(source: string): boolean {
  const name = path.basename(source);
  return !["build", "target", "__pycache__"].includes(name) && !name.endsWith(".egg-info");
}

/** A virtual environment with the project's requirements.txt and the Python SDK (`pip install <checkout>/sdk/python`). */
export async function installPythonSdk(project: LanguageProject): Promise<void> {
  // A copy of the generated directory: pip builds in place.
  const sdk = path.join(project.root, "sdk-python");
  cpSync(path.join(repoRoot, "sdk", "python"), sdk, { recursive: true, filter: isSdkSource });
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
  await installJavaSdkIntoLocalRepository(project);
  await project.run("mvn", ["--batch-mode", "--quiet", "compile"]);
}

/**
 * `mvn install` of the Java SDK; returns the directory Maven installed it into.
 *
 * Test files run in parallel and share the local Maven repository, where an install rewrites the
 * jar other programs are compiling or running against. So the install runs under a lock and only
 * when the installed SDK came from other sources (a hash of sdk/java stamped beside it): once per
 * change of the SDK.
 */
export async function installJavaSdkIntoLocalRepository(project: LanguageProject): Promise<string> {
  const sdk = path.join(project.root, "sdk-java");
  cpSync(path.join(repoRoot, "sdk", "java"), sdk, { recursive: true, filter: isSdkSource });
  const hash = createHash("sha256");
  for (const file of filesUnder(sdk)) hash.update(file).update(readFileSync(path.join(sdk, file)));
  const installed = path.join(
    await mavenLocalRepository(project),
    ...JAVA_SDK.groupId.split("."),
    JAVA_SDK.artifactId,
    PACKAGE_VERSION,
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
    path.join(installed, "installed-from.sha256"),
    hash.digest("hex"),
    sdk,
  ]);
  return installed;
}

/** maven-help-plugin pinned, so the question below is answered the same way on every machine. */
const MAVEN_HELP_PLUGIN = "org.apache.maven.plugins:maven-help-plugin:3.5.1";

let localRepository: Promise<string> | undefined;

/**
 * Where Maven keeps its local repository, as Maven itself answers: by default `.m2/repository` under
 * Java's `user.home`, which comes from the account database, not from $HOME (they differ in CI
 * containers), unless settings.xml or MAVEN_OPTS say otherwise. Asked once per process (a Maven
 * start costs seconds); every project here runs Maven with the environment of this process.
 */
export function mavenLocalRepository(project: LanguageProject): Promise<string> {
  localRepository ??= (async () => {
    // Run outside the project: its pom names the SDK, which may not be installed yet.
    const { stdout } = await project.run(
      "mvn",
      [
        "--batch-mode",
        "--quiet",
        `${MAVEN_HELP_PLUGIN}:evaluate`,
        "-Dexpression=settings.localRepository",
        "-DforceStdout",
      ],
      project.root,
    );
    // Maven 3.8 colours its output even when it is not a terminal.
    const answer = stripVTControlCharacters(stdout).trim();
    if (!path.isAbsolute(answer))
      throw new Error(
        `mvn help:evaluate -Dexpression=settings.localRepository printed ${JSON.stringify(answer)}, ` +
          "not an absolute path: check localRepository in Maven's settings.xml and -Dmaven.repo.local in MAVEN_OPTS",
      );
    return answer;
  })();
  return localRepository;
}
