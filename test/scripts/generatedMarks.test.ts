import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { GENERATED_PATHS } from "../../scripts/generateSdks.ts";
import {
  generatedMarksDifferences,
  MARKED_FILE_NAMES,
  withGeneratedBlock,
} from "../../scripts/generatedMarks.ts";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The tree says what is generated: what `npm run generate` writes (GENERATED_PATHS, from the
 * generator's own output paths) is what .gitattributes marks `linguist-generated`, no more and no
 * less, and what prettier leaves alone. Both files' lists are written from GENERATED_PATHS
 * (scripts/generatedMarks.ts): a new generated output with the files not regenerated, or a
 * hand-written file marked by mistake, fails here instead of drifting.
 */

/** Files git tracks or would track (untracked ones not ignored), repo-relative. */
function repositoryFiles(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file !== "");
}

/** The files among `files` whose `linguist-generated` attribute is set, by git's own matching. */
function markedGenerated(files: readonly string[]): Set<string> {
  const output = execFileSync("git", ["check-attr", "-z", "--stdin", "linguist-generated"], {
    cwd: repoRoot,
    input: files.join("\0"),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }).split("\0");
  const marked = new Set<string>();
  // Output is path, attribute, value, each ended by NUL.
  for (let index = 0; index + 2 < output.length; index += 3) {
    const value = output[index + 2];
    if (value === "set" || value === "true") marked.add(output[index] as string);
  }
  return marked;
}

const isGenerated = (file: string) =>
  GENERATED_PATHS.some((generated) => file === generated || file.startsWith(`${generated}/`));

describe("generated files are marked (.gitattributes)", () => {
  const files = repositoryFiles();
  const generated = files.filter(isGenerated);
  const marked = markedGenerated(files);

  test("each generated path holds files", () => {
    expect(GENERATED_PATHS.length).toBeGreaterThan(0);
    // Each holds files: a path that names nothing would mark nothing.
    const empty = GENERATED_PATHS.filter(
      (output) => !generated.some((file) => file === output || file.startsWith(`${output}/`)),
    );
    expect(empty).toEqual([]);
  });

  test("every file the generator writes is marked linguist-generated", () => {
    expect(generated.filter((file) => !marked.has(file))).toEqual([]);
  });

  test("no other file is marked: what is marked is what generation rewrites", () => {
    expect([...marked].filter((file) => !isGenerated(file))).toEqual([]);
  });

  test("each generated SDK folder's README says it is generated and how to regenerate it", () => {
    for (const output of GENERATED_PATHS.filter((generatedPath) => generatedPath.startsWith("sdk/"))) {
      expect(readFileSync(path.join(repoRoot, output, "README.md"), "utf8"), output).toMatch(
        /^<!-- Generated from provider\/native\/schema\.json by scripts\/generateSdks\.ts \(npm run generate\); do not edit\. -->\n/,
      );
    }
  });

  test("prettier leaves every generated path alone (.prettierignore)", () => {
    const ignored = readFileSync(path.join(repoRoot, ".prettierignore"), "utf8").split("\n");
    expect(GENERATED_PATHS.filter((output) => !ignored.includes(output))).toEqual([]);
  });
});

describe("the lists of generated paths are written from GENERATED_PATHS (scripts/generatedMarks.ts)", () => {
  test(".gitattributes and .prettierignore hold what `npm run generate` writes", () => {
    expect(MARKED_FILE_NAMES).toEqual([".gitattributes", ".prettierignore"]);
    expect(generatedMarksDifferences(GENERATED_PATHS, repoRoot)).toEqual([]);
  });

  test("a path added to GENERATED_PATHS changes both files' blocks", () => {
    // The check can fail: one more output (a folder that exists) is one more line in each block.
    const more = [...GENERATED_PATHS, "sdk/nodejs"];
    expect(generatedMarksDifferences(more, repoRoot)).toEqual([
      "changed .gitattributes",
      "changed .prettierignore",
    ]);
    const text = readFileSync(path.join(repoRoot, ".gitattributes"), "utf8");
    expect(withGeneratedBlock(".gitattributes", text, more, repoRoot)).toContain(
      "docs/reference/** linguist-generated\nsdk/nodejs/** linguist-generated\n# END generated paths",
    );
  });
});
