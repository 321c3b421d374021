import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { JAVA_SDK } from "../../scripts/generateSdks.ts";
import { engineBinDir } from "../../scripts/pulumiEnv.ts";
import { LanguageProject, PACKAGE_VERSION } from "./harness/languageProject.ts";
import { installJavaSdkIntoLocalRepository } from "./harness/sdks.ts";

/**
 * The Java SDK's install step when $HOME is not the account's home directory, as in CI containers
 * (GitHub Actions runs container jobs with HOME=/github/home while root's home is /root). Maven puts
 * its local repository under Java's `user.home`, which comes from the account database, so the
 * stamp the harness keeps beside the installed SDK must be where Maven put the SDK, not under $HOME
 * (where the directory does not exist and writing the stamp fails).
 */

test("the Java SDK installs, and is stamped where Maven put it, when HOME is not the account's home", async () => {
  // The engine is found (or built) under the account's HOME before HOME moves: only Maven's
  // repository is in question here, and engineBinDir() remembers its answer.
  engineBinDir();
  const elsewhere = mkdtempSync(path.join(os.tmpdir(), "pw-other-home-"));
  const accountHome = process.env["HOME"];
  // This process's HOME too: what the harness reads (os.homedir()) must not decide the stamp's place.
  process.env["HOME"] = elsewhere;
  const project = await LanguageProject.create(
    path.join(import.meta.dirname, "programs", "java-treasury"),
    "java-sdk-install",
    { plugin: "none" },
  );
  try {
    expect(project.env()["HOME"]).toBe(elsewhere);
    const installed = await installJavaSdkIntoLocalRepository(project);

    // The premise: Maven did not follow HOME.
    expect(path.relative(elsewhere, installed).startsWith("..")).toBe(true);
    expect(existsSync(path.join(installed, `${JAVA_SDK.artifactId}-${PACKAGE_VERSION}.jar`))).toBe(true);
    expect(readFileSync(path.join(installed, "installed-from.sha256"), "utf8")).toMatch(/^[0-9a-f]{64}$/);
  } finally {
    if (accountHome === undefined) delete process.env["HOME"];
    else process.env["HOME"] = accountHome;
    project.cleanUp();
    rmSync(elsewhere, { recursive: true, force: true });
  }
}, 600_000);
