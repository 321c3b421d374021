import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { engineBinDir, PYTHON_SDK_REQUIREMENTS, pythonSdkBinDir, repoRoot } from "../../scripts/pulumiEnv.ts";
import { filesUnder, secretFindings, textSecret } from "../e2e/harness/secrets.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";

/**
 * The offline engine's languages on their own, with programs that use no provider at all, so that a
 * failure here is the engine's (a host, the CLI, the Python SDK from PyPI, the Go Automation API) and
 * never the plugin's: a `runtime: python` project run by the 3.68 Python host with the pinned `pulumi`
 * from PyPI, a `runtime: yaml` project run by the YAML host, a `runtime: go` project run by the 3.66 Go
 * host, and a Go program run through the Go Automation API with an inline program, each in a temp dir outside the repository with
 * a file backend. Each program registers a component resource, reads configuration and exports a secret.
 */

const PROGRAMS = path.join(import.meta.dirname, "programs");

/** The CLI's version: the installed @pulumi/pulumi's, from which scripts/ensure-pulumi-engine.sh derives it. */
const CLI_VERSION = (
  JSON.parse(
    readFileSync(path.join(repoRoot, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
  ) as {
    version: string;
  }
).version;

/** The stacks' secret: distinctive, so that finding it anywhere on disk cannot be an accident. */
const TOKEN = `engine-check-token-${crypto.randomUUID()}`;

/** Every file of the project and its state (backend and PULUMI_HOME) that holds the token in plain text. */
function tokenFindings(project: LanguageProject): string[] {
  return secretFindings(filesUnder(project.root), [textSecret("token", TOKEN)]);
}

describe("the engine's pins", () => {
  test("Python programs get the `pulumi` package of the CLI's version", () => {
    const pins = readFileSync(PYTHON_SDK_REQUIREMENTS, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"));
    expect(pins).toEqual([`pulumi==${CLI_VERSION}`]);
  });
});

describe("a Python program through the Python language host", () => {
  let project: LanguageProject;

  beforeAll(async () => {
    project = await LanguageProject.create(path.join(PROGRAMS, "python-outputs"), "engine-python", {
      plugin: "none",
    });
    // The cached environment with `pulumi` from PyPI, whose python3 the host runs the program with.
    project.prependToPath(pythonSdkBinDir());
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "who", "python"]);
    await project.pulumi(["config", "set", "--secret", "token", TOKEN]);
  }, 300_000);

  afterAll(() => project?.cleanUp());

  test("preview plans the stack and its component", async () => {
    expect(await project.previewChanges()).toEqual({ create: 2 });
  });

  test("up creates them and sets the outputs, the token as a secret, with the pinned pulumi package", async () => {
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(await project.outputs()).toEqual({
      greeting: "hello python",
      pulumiSdkVersion: CLI_VERSION,
      token: TOKEN,
    });
    expect((await project.pulumi(["stack", "output", "token"])).stdout.trim()).toBe("[secret]");
    expect((await project.stateResources()).map((resource) => resource.type).sort()).toEqual([
      "engine-check:index:Greeter",
      "pulumi:pulumi:Stack",
    ]);
    expect(await project.previewChanges()).toEqual({});
    expect(tokenFindings(project)).toEqual([]);
  });

  test("destroy deletes them", async () => {
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
  });
});

describe("a YAML program through the YAML language host", () => {
  let project: LanguageProject;

  beforeAll(async () => {
    project = await LanguageProject.create(path.join(PROGRAMS, "yaml-outputs"), "engine-yaml", {
      plugin: "none",
    });
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "--secret", "token", TOKEN]);
  }, 120_000);

  afterAll(() => project?.cleanUp());

  test("up sets the outputs (a config default, the token as a secret); destroy empties the stack", async () => {
    await project.pulumi(["up", "--yes"]);
    expect(await project.outputs()).toEqual({ greeting: "hello world", token: TOKEN });
    expect((await project.pulumi(["stack", "output", "token"])).stdout.trim()).toBe("[secret]");
    expect(tokenFindings(project)).toEqual([]);
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
  });
});

describe("a runtime: go project through the Go language host", () => {
  let project: LanguageProject;

  beforeAll(async () => {
    project = await LanguageProject.create(path.join(PROGRAMS, "go-outputs"), "engine-go-host", {
      plugin: "none",
    });
    project.writeFile("go.mod", project.readFile("go.mod.template").replace("PULUMI_VERSION", CLI_VERSION));
    project.setEnv({ GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" });
    await project.run("go", ["mod", "tidy"]);
    await project.pulumi(["stack", "init", "dev"]);
    await project.pulumi(["config", "set", "who", "go"]);
    await project.pulumi(["config", "set", "--secret", "token", TOKEN]);
  }, 900_000);

  afterAll(() => project?.cleanUp());

  test("up builds and runs the program: the outputs, the token as a secret; destroy empties the stack", async () => {
    await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(await project.outputs()).toEqual({ greeting: "hello go", token: TOKEN });
    expect((await project.pulumi(["stack", "output", "token"])).stdout.trim()).toBe("[secret]");
    expect(await project.previewChanges()).toEqual({});
    expect(tokenFindings(project)).toEqual([]);
    await project.pulumi(["destroy", "--yes", "--skip-preview"]);
    expect(await project.stateResources()).toEqual([]);
  }, 300_000);
});

describe("a Go program through the Go Automation API, inline", () => {
  let project: LanguageProject;
  let workDir: string;

  /** Runs the built program; its last line is JSON. */
  async function goInline(operation: "up" | "preview" | "destroy"): Promise<unknown> {
    const engineRoot = path.dirname(engineBinDir());
    const { stdout } = await project.run(path.join(project.dir, "go-inline"), [
      operation,
      engineRoot,
      workDir,
    ]);
    return JSON.parse(stdout.trim().split("\n").at(-1)!);
  }

  beforeAll(async () => {
    project = await LanguageProject.create(path.join(PROGRAMS, "go-inline"), "engine-go", { plugin: "none" });
    project.writeFile("go.mod", project.readFile("go.mod.template").replace("PULUMI_VERSION", CLI_VERSION));
    // Modules come from the module proxy into Go's own module cache, so a second run downloads nothing.
    project.setEnv({ GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local", GO_INLINE_TOKEN: TOKEN });
    await project.run("go", ["mod", "tidy"]);
    await project.run("go", ["build", "-o", "go-inline", "."]);
    workDir = path.join(project.root, "work");
    mkdirSync(workDir);
  }, 900_000);

  afterAll(() => project?.cleanUp());

  test("up sets the outputs, the token as a secret", async () => {
    expect(await goInline("up")).toEqual({
      greeting: { value: "hello world", secret: false },
      token: { value: TOKEN, secret: true },
    });
    expect(tokenFindings(project)).toEqual([]);
  });

  test("a preview after it changes nothing", async () => {
    expect(await goInline("preview")).toEqual({ same: 2 });
  });

  test("destroy deletes the stack's resources", async () => {
    expect(await goInline("destroy")).toEqual({});
    const { stdout } = await project.run("pulumi", ["stack", "export", "--stack", "dev"], workDir);
    expect(
      (JSON.parse(stdout) as { deployment: { resources?: unknown[] } }).deployment.resources ?? [],
    ).toEqual([]);
  });
});
