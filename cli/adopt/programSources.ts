import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { AllocationFileSchema } from "../../sdk/nodejs/allocationFile.ts";
import { weightsByKeyOf } from "../../sdk/nodejs/contract/allocation.ts";
import type { FoundAllocationFile, ProgramFile } from "./adoptionPlan.ts";

/**
 * What `adopt` reads of the project directory: the JSON files that are allocation files, and the
 * program's source files (for the lines it shows when an allocation must be changed by hand).
 * Dependencies, build output, virtual environments and hidden directories are not the program's,
 * and stack config files are read through the engine, not here.
 */

const SKIPPED_DIRECTORIES = new Set([
  "node_modules",
  "venv",
  "__pycache__",
  "target",
  "bin",
  "obj",
  "dist",
  "build",
  "vendor",
]);
const PROGRAM_EXTENSIONS = new Set([
  ".ts",
  ".tsx",
  ".js",
  ".mjs",
  ".cjs",
  ".py",
  ".go",
  ".java",
  ".kt",
  ".cs",
  ".fs",
  ".yaml",
  ".yml",
]);
/** `Pulumi.<stack>.yaml`: a stack's config, not the program. */
const STACK_CONFIG_FILE = /^Pulumi\..+\.ya?ml$/;
const MAX_FILE_BYTES = 512 * 1024;
/** A project is a program and its data, not a monorepo: the walk stops here rather than run long. */
const MAX_FILES = 5000;

function* projectFiles(projectDir: string): Generator<string> {
  const pending = [""];
  let seen = 0;
  while (pending.length > 0) {
    const relative = pending.shift()!;
    const entries = readdirSync(path.join(projectDir, relative), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const child = relative === "" ? entry.name : path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(child);
      } else if (entry.isFile()) {
        if (++seen > MAX_FILES) return;
        yield child;
      }
    }
  }
}

const small = (file: string) => statSync(file).size <= MAX_FILE_BYTES;

/** The project's allocation files and program files. */
export function readProgramSources(projectDir: string): {
  allocationFiles: FoundAllocationFile[];
  files: ProgramFile[];
} {
  const allocationFiles: FoundAllocationFile[] = [];
  const files: ProgramFile[] = [];
  for (const relative of projectFiles(projectDir)) {
    const absolute = path.join(projectDir, relative);
    const extension = path.extname(relative);
    if (extension === ".json" && small(absolute)) {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(absolute, "utf8"));
      } catch {
        continue;
      }
      const parsed = AllocationFileSchema.safeParse(json);
      if (parsed.success)
        allocationFiles.push({
          path: relative,
          weights: weightsByKeyOf(parsed.data.positions),
        });
    } else if (
      PROGRAM_EXTENSIONS.has(extension) &&
      !STACK_CONFIG_FILE.test(path.basename(relative)) &&
      small(absolute)
    ) {
      files.push({ path: relative, text: readFileSync(absolute, "utf8") });
    }
  }
  return { allocationFiles, files };
}
