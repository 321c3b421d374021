import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";
import { REFERENCE_DIR } from "../../scripts/generateSdks.ts";
import { SCHEMA_FILE } from "../../scripts/packageSchema/generate.ts";
import type { PackageSchema, SchemaProperty } from "../../scripts/reference/generate.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";
import { ConsumerProject } from "../consumer/harness/consumerProject.ts";
import { npmEnv, packedPackage } from "../consumer/harness/packedPackage.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import {
  installJavaSdkIntoLocalRepository,
  installPythonSdk,
  mavenLocalRepository,
  GO_ENV,
} from "../native/harness/sdks.ts";

/**
 * The docs' code blocks read as a user reads them: every fenced block of docs/reference/ (generated
 * by scripts/reference/generate.ts) and of docs/languages.md, compiled exactly as shown, as a user
 * pastes it into a project outside this repository:
 *
 * - Go: each block a `main` package of its own (a directory of one module), one `go vet ./...`;
 * - Java: each block a whole compilation unit with only the imports it shows, compiled by javac
 *   against the Java SDK and `com.pulumi:pulumi` from the local Maven repository, in one JVM;
 * - Python: `py_compile` and an import of every module the block imports, in the shared virtual
 *   environment with the SDK (one Python run, which also parses the YAML blocks);
 * - TypeScript: `tsc --noEmit` of every block against the packed package installed in a project;
 * - YAML: a whole Pulumi.yaml (name, runtime) whose every type token, function token and property
 *   the package schema has.
 *
 * A block that fails names its page, its index among the page's fenced blocks, its first line and
 * the compiler's message. Shell blocks are run elsewhere (the examples' walk), XML blocks are
 * fragments of the pom shown whole beside them.
 */

interface Block {
  /** The page, relative to the repository. */
  page: string;
  /** 1-based among the page's fenced blocks. */
  index: number;
  language: string;
  code: string;
  /** The page's `## ` heading above the block. */
  section: string;
}

const CHECKED = ["go", "java", "python", "typescript", "yaml"] as const;
type Checked = (typeof CHECKED)[number];
/** Languages of blocks this file does not compile, and why. */
const NOT_COMPILED: Record<string, string> = {
  sh: "run by the examples' walk through the engine",
  xml: "fragments of the pom.xml that languages.md shows whole",
  diff: "changes to a program shown whole above them: the doc walk (newcomerPath.engine.test.ts) applies and runs each",
};

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith(".md") ? [full] : [];
  });
}

const PAGES = [...markdownFiles(REFERENCE_DIR), path.join(repoRoot, "docs", "languages.md")]
  .map((file) => path.relative(repoRoot, file))
  .sort();

/** Every fenced block of a page; an indented fence (inside a list) loses its indentation. */
export function fencedBlocks(page: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.*)/.exec(lines[i]!);
    if (heading) section = heading[1]!.trim();
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(indent));
    blocks.push({ page, index: blocks.length + 1, language: open[2]!, code: body.join("\n"), section });
  }
  return blocks;
}

const BLOCKS = PAGES.flatMap((page) => fencedBlocks(page, readFileSync(path.join(repoRoot, page), "utf8")));
const blocksIn = (language: Checked) => BLOCKS.filter((block) => block.language === language);

/** How a failing block is named: page, block index, first line. */
const where = (block: Block) =>
  `${block.page} block ${block.index} (${block.language}, first line ${JSON.stringify(block.code.split("\n")[0])})`;

/**
 * Lines of a compiler's output that name a block's file (`b7/...`), gathered per block; a failure
 * that names no block is reported whole, so that nothing is lost.
 */
function failuresByBlock(blocks: Block[], output: string, fileOf: (n: number) => string): string[] {
  const failures: string[] = [];
  blocks.forEach((block, n) => {
    const marker = fileOf(n);
    const lines = output.split("\n").filter((line) => line.includes(marker) && !line.startsWith("#"));
    if (lines.length > 0) failures.push(`${where(block)}:\n    ${lines.join("\n    ")}`);
  });
  return failures;
}

/**
 * Runs a command expected to fail when a block is broken: whether it succeeded, and what it printed
 * (without the error's first line, the command line, which names every block's file).
 */
async function attempt(run: () => Promise<unknown>): Promise<{ ok: boolean; output: string }> {
  try {
    await run();
    return { ok: true, output: "" };
  } catch (error) {
    return { ok: false, output: (error as Error).message.split("\n").slice(1).join("\n") };
  }
}

const projects: { cleanUp(): void }[] = [];
afterAll(() => {
  for (const project of projects) project.cleanUp();
});

const PROGRAMS = path.join(import.meta.dirname, "programs");

describe("the docs' code blocks, compiled as a user pastes them", () => {
  test("every block's language is one this file checks, or one it says why not", () => {
    const unknown = BLOCKS.filter(
      (block) =>
        !(CHECKED as readonly string[]).includes(block.language) && !(block.language in NOT_COMPILED),
    );
    expect(unknown.map(where)).toEqual([]);
  });

  test("every reference page has an example in each of the five languages", () => {
    const missing = PAGES.filter((page) => page.includes(`${path.sep}api-docs${path.sep}`)).flatMap((page) =>
      CHECKED.filter((language) => !BLOCKS.some((b) => b.page === page && b.language === language)).map(
        (language) => `${page} has no ${language} example`,
      ),
    );
    expect(missing).toEqual([]);
  });

  test("every Go block is a main package that go vet accepts", async () => {
    const blocks = blocksIn("go");
    expect(blocks.length).toBeGreaterThan(8);
    const project = await LanguageProject.create(path.join(PROGRAMS, "go"), "doc-go", { plugin: "none" });
    projects.push(project);
    project.setEnv(GO_ENV);
    project.writeFile(
      "go.mod",
      project.readFile("go.mod.template").replace("SDK_DIR", path.join(repoRoot, "sdk", "go")),
    );
    blocks.forEach((block, n) => {
      mkdirSync(path.join(project.dir, `b${n}`));
      project.writeFile(path.join(`b${n}`, "main.go"), `${block.code}\n`);
    });
    // -e: a block that does not parse is go vet's to report, with its file.
    await project.run("go", ["mod", "tidy", "-e"]);
    const { ok, output } = await attempt(() => project.run("go", ["vet", "./..."]));
    const failures = failuresByBlock(blocks, output, (n) => `b${n}/`);
    expect(failures).toEqual([]);
    expect(ok, output).toBe(true);
  }, 600_000);

  test("every Java block is a compilation unit that javac accepts with only its own imports", async () => {
    const blocks = blocksIn("java");
    expect(blocks.length).toBeGreaterThan(8);
    const project = await LanguageProject.create(path.join(PROGRAMS, "java"), "doc-java", { plugin: "none" });
    projects.push(project);
    const sdk = await installJavaSdkIntoLocalRepository(project);
    const repository = await mavenLocalRepository(project);
    const classpath = [
      path.join(sdk, `pulumi-portfolio-wallet-${path.basename(sdk)}.jar`),
      path.join(
        repository,
        "com",
        "pulumi",
        "pulumi",
        PULUMI_JAVA_VERSION,
        `pulumi-${PULUMI_JAVA_VERSION}.jar`,
      ),
    ].join(path.delimiter);
    const files = blocks.map((block, n) => {
      // A public class lives in the file of its name (App.java in languages.md's project).
      const className = /public\s+class\s+(\w+)/.exec(block.code)?.[1] ?? "App";
      mkdirSync(path.join(project.dir, `b${n}`));
      const file = path.join(`b${n}`, `${className}.java`);
      project.writeFile(file, `${block.code}\n`);
      return file;
    });
    const { ok, output } = await attempt(() =>
      project.run("java", ["CompileEach.java", classpath, ...files]),
    );
    const failures = failuresByBlock(blocks, output, (n) => `b${n}/`);
    expect(failures).toEqual([]);
    expect(ok, output).toBe(true);
  }, 600_000);

  test("every Python block compiles and imports what it imports; every YAML block is a Pulumi.yaml the schema accepts", async () => {
    const python = blocksIn("python");
    const yaml = blocksIn("yaml");
    expect(python.length).toBeGreaterThan(8);
    expect(yaml.length).toBeGreaterThan(8);
    const project = await LanguageProject.create(path.join(PROGRAMS, "python"), "doc-python", {
      plugin: "none",
    });
    projects.push(project);
    await installPythonSdk(project);
    const listing = [...python, ...yaml].map((block, n) => {
      const file = path.join(project.dir, `b${n}.${block.language === "python" ? "py" : "yaml"}`);
      writeFileSync(file, `${block.code}\n`);
      return { id: String(n), language: block.language, file, block };
    });
    project.writeFile("blocks.json", JSON.stringify(listing.map(({ block: _, ...rest }) => rest)));
    const { stdout } = await project.run("python", [
      path.join(import.meta.dirname, "checkBlocks.py"),
      "blocks.json",
    ]);
    const results = JSON.parse(stdout) as Record<string, { errors: string[]; parsed?: unknown }>;
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as PackageSchema;
    const failures = listing.flatMap(({ id, block }) => {
      const result = results[id]!;
      const errors =
        block.language === "yaml" && result.errors.length === 0
          ? yamlErrors(schema, result.parsed)
          : result.errors;
      return errors.length === 0 ? [] : [`${where(block)}:\n    ${errors.join("\n    ")}`];
    });
    expect(failures).toEqual([]);
  }, 600_000);

  test("languages.md shows the whole Pulumi.yaml of each language's project", () => {
    const runtimeOf = (block: Block) => {
      const runtime = /^runtime:\s*(\w+)?/m.exec(block.code);
      if (!runtime) return undefined;
      return runtime[1] ?? /^ {2}name:\s*(\w+)/m.exec(block.code.slice(runtime.index))?.[1];
    };
    const sections = { Python: "python", Go: "go", YAML: "yaml", Java: "java" };
    const missing = Object.entries(sections).filter(
      ([section, runtime]) =>
        !BLOCKS.some(
          (block) =>
            block.page === path.join("docs", "languages.md") &&
            block.section === section &&
            block.language === "yaml" &&
            runtimeOf(block) === runtime &&
            /^name:\s*\S/m.test(block.code),
        ),
    );
    expect(
      missing.map(
        ([section, runtime]) => `## ${section} shows no Pulumi.yaml with name: and runtime: ${runtime}`,
      ),
    ).toEqual([]);
  });

  test("every TypeScript block type-checks against the packed package", async () => {
    const blocks = blocksIn("typescript");
    expect(blocks.length).toBeGreaterThan(7);
    const project = await ConsumerProject.fromTemplate(
      path.join(PROGRAMS, "typescript"),
      "doc-typescript",
      await packedPackage(),
    );
    projects.push({ cleanUp: () => project.cleanUp() });
    blocks.forEach((block, n) => writeFileSync(path.join(project.dir, `b${n}.ts`), `${block.code}\n`));
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    const { ok, output } = await attempt(() =>
      promisify(execFile)(process.execPath, [tsc, "-p", project.dir, "--pretty", "false"], {
        cwd: project.dir,
        env: npmEnv(),
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`tsc failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
      }),
    );
    const failures = failuresByBlock(blocks, output, (n) => `b${n}.ts(`);
    expect(failures).toEqual([]);
    expect(ok, output).toBe(true);
  }, 600_000);
});

/** The core Java SDK the generated SDK compiles against (sdk/java's pom names it). */
const PULUMI_JAVA_VERSION = /<artifactId>pulumi<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(
  readFileSync(path.join(repoRoot, "sdk", "java", "pom.xml"), "utf8"),
)![1]!;

type Json = null | string | number | boolean | Json[] | { [key: string]: Json };
const isMap = (value: unknown): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What is wrong with a YAML block as a Pulumi.yaml: a project file names the project and its
 * runtime; a program's every resource type, function and property is in the package schema
 * (`portfolio-wallet:Type` is YAML's short form of `portfolio-wallet:index:Type`).
 */
export function yamlErrors(schema: PackageSchema, parsed: unknown): string[] {
  if (!isMap(parsed)) return ["not a YAML mapping: a Pulumi.yaml is one"];
  const errors: string[] = [];
  if (typeof parsed["name"] !== "string") errors.push("no name: a Pulumi.yaml names its project");
  const runtime = parsed["runtime"];
  if (typeof runtime !== "string" && !(isMap(runtime) && typeof runtime["name"] === "string"))
    errors.push("no runtime: a Pulumi.yaml names its runtime (yaml, python, go, java, nodejs)");
  const token = (value: unknown) => {
    const parts = String(value).split(":");
    return parts.length === 2 ? `${parts[0]}:index:${parts[1]}` : String(value);
  };
  const ours = (value: string) => value.startsWith(`${schema.name}:`);
  const checkValue = (value: Json, property: SchemaProperty, at: string): void => {
    if (typeof value === "string" && value.includes("${")) return; // an interpolation: its type is the engine's
    if (property.$ref !== undefined) {
      const type = schema.types[property.$ref.replace(/^#\/types\//, "")];
      if (type === undefined || !isMap(value)) return;
      for (const [key, inner] of Object.entries(value)) {
        const innerProperty = type.properties?.[key];
        if (innerProperty === undefined)
          errors.push(
            `${at}.${key}: no such field (the type has ${Object.keys(type.properties ?? {}).join(", ")})`,
          );
        else checkValue(inner, innerProperty, `${at}.${key}`);
      }
    } else if (property.type === "array" && Array.isArray(value) && property.items !== undefined) {
      value.forEach((item, i) => checkValue(item, property.items!, `${at}[${i}]`));
    }
  };
  for (const [name, resource] of Object.entries(isMap(parsed["resources"]) ? parsed["resources"] : {})) {
    if (!isMap(resource)) continue;
    const type = token(resource["type"]);
    if (!ours(type)) continue;
    const spec = schema.resources[type];
    if (spec === undefined) {
      errors.push(`resources.${name}: type ${String(resource["type"])} is not in the package schema`);
      continue;
    }
    for (const [key, value] of Object.entries(isMap(resource["properties"]) ? resource["properties"] : {})) {
      const property = spec.inputProperties[key];
      if (property === undefined)
        errors.push(
          `resources.${name}.properties.${key}: not an input of ${type} (inputs: ${Object.keys(spec.inputProperties).join(", ")})`,
        );
      else checkValue(value, property, `resources.${name}.properties.${key}`);
    }
  }
  for (const [name, variable] of Object.entries(isMap(parsed["variables"]) ? parsed["variables"] : {})) {
    const invoke = isMap(variable) ? variable["fn::invoke"] : undefined;
    if (!isMap(invoke)) continue;
    const fn = token(invoke["function"]);
    if (!ours(fn)) continue;
    const spec = schema.functions[fn];
    if (spec === undefined) {
      errors.push(`variables.${name}: function ${String(invoke["function"])} is not in the package schema`);
      continue;
    }
    const inputs = spec.inputs?.properties ?? {};
    for (const [key, value] of Object.entries(isMap(invoke["arguments"]) ? invoke["arguments"] : {})) {
      const property = inputs[key];
      if (property === undefined)
        errors.push(
          `variables.${name}.fn::invoke.arguments.${key}: not an argument of ${fn} (arguments: ${Object.keys(inputs).join(", ") || "none"})`,
        );
      else checkValue(value, property, `variables.${name}.fn::invoke.arguments.${key}`);
    }
  }
  return errors;
}
