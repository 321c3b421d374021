import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runProcess, type CliRun } from "../cli/harness.ts";
import { ConsumerProject, type Layout } from "../consumer/harness/consumerProject.ts";
import { installPackedPackage, userProjectDependencies } from "../consumer/harness/sharedInstall.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";

/**
 * One user program per adapter, each declaring the same treasury (test/cli/drift/programs: a wallet of
 * tbills and syrupUsdc from the stack config tbillsBps and syrupUsdcBps, and a webhook), set up
 * outside this repository as its user has it, with the package's CLI as that user runs it: an
 * ES-module TypeScript program on the dynamic resources and a YAML program on the native plugin.
 * The tests that must hold for every program (drift, the report's dollars, re-creation after
 * destroy) take them from here. What they check does not depend on the language: a refresh does
 * not run the program, and every language but TypeScript reaches the same plugin process, so a
 * CommonJS or Python program would repeat the same engine runs (each language's own behaviour is
 * in test/native and test/consumer/layouts.engine.test.ts). A new adapter is one more entry here.
 */

/** A user's project of one kind. */
export interface ProgramProject {
  /** The Pulumi project directory. */
  dir: string;
  pulumi(args: string[], extraEnv?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
  /** `portfolio-wallet <args>` from the installed package, in the project's environment. */
  cli(args: string[], input?: string): Promise<CliRun>;
  /** Where the packed package is installed (its policy pack is under `policy/`). */
  packageDir: string;
  /** The environment its commands run in (the offline engine on PATH, the project's backend). */
  env(): NodeJS.ProcessEnv;
  cleanUp(): void;
}

export interface ProgramKind {
  /** `esm-typescript`, `yaml`, ...: what a test filters by. */
  name: string;
  title: string;
  /** The dynamic resources (TypeScript) or the native plugin (every other language). */
  adapter: "dynamic" | "native";
  create(tarball: string, projectName: string): Promise<ProgramProject>;
}

const programsDir = path.join(import.meta.dirname, "..", "cli", "drift", "programs");
const layoutsDir = path.join(import.meta.dirname, "..", "consumer", "layouts");

/** A TypeScript project of one of the layouts users have, the packed package installed with npm. */
async function typescriptProject(layout: Layout, tarball: string, name: string): Promise<ProgramProject> {
  const project = await ConsumerProject.fromTemplate(path.join(layoutsDir, layout), name, tarball, (dir) =>
    cpSync(path.join(programsDir, "typescript", "index.ts"), path.join(dir, "index.ts")),
  );
  return {
    dir: project.dir,
    pulumi: (args, extraEnv) => project.pulumi(args, extraEnv),
    // npx in the project, as a TypeScript user runs the package's CLI.
    cli: (args, input) => project.runCli(args, input),
    packageDir: path.join(project.dir, "node_modules", "@portfolio-wallet", "pulumi"),
    env: () => project.env(),
    cleanUp: () => project.cleanUp(),
  };
}

/**
 * A YAML project on the native plugin (installed from its release archive), the CLI installed from
 * the packed package into a tools directory beside it (a YAML repository has no package.json of
 * its own) and run in the project directory.
 */
async function yamlProject(tarball: string, name: string): Promise<ProgramProject> {
  const project = await LanguageProject.create(path.join(programsDir, "yaml"), name);
  const tools = path.join(project.root, "tools");
  mkdirSync(tools);
  writeFileSync(
    path.join(tools, "package.json"),
    JSON.stringify({ name: "tools", private: true, dependencies: userProjectDependencies() }),
  );
  await installPackedPackage(tools, tarball);
  const bin = path.join(tools, "node_modules", ".bin", "portfolio-wallet");
  return {
    dir: project.dir,
    pulumi: (args, extraEnv) => project.pulumi(args, extraEnv),
    cli: (args, input) => runProcess(bin, args, { cwd: project.dir, env: project.env(), input }),
    packageDir: path.join(tools, "node_modules", "@portfolio-wallet", "pulumi"),
    env: () => project.env(),
    cleanUp: () => project.cleanUp(),
  };
}

export const PROGRAM_KINDS: ProgramKind[] = [
  {
    name: "esm-typescript",
    title: "TypeScript, ES module (dynamic resources)",
    adapter: "dynamic",
    create: (tarball, name) => typescriptProject("esm-typescript", tarball, name),
  },
  {
    name: "yaml",
    title: "YAML (native plugin)",
    adapter: "native",
    create: (tarball, name) => yamlProject(tarball, name),
  },
];
