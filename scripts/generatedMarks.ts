// The lists of generated paths in files that cannot import GENERATED_PATHS (scripts/generateSdks.ts):
// .gitattributes marks each `linguist-generated` (GitHub folds them in diffs and leaves them out of
// the language statistics) and .prettierignore leaves each alone. Each file holds one block between
// the marker lines below, written from GENERATED_PATHS by `npm run generate`; the rest of the file
// is written by hand. test/scripts/generatedMarks.test.ts fails when a block is not what it gives.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const BEGIN = "# BEGIN generated paths: written by `npm run generate` from GENERATED_PATHS; do not edit";
const END = "# END generated paths";

/** How each file names one generated path: a folder by everything under it, a file by itself. */
const MARKED_FILES = {
  ".gitattributes": (generated: string, isFolder: boolean) =>
    `${generated}${isFolder ? "/**" : ""} linguist-generated`,
  ".prettierignore": (generated: string) => generated,
} as const satisfies Record<string, (generated: string, isFolder: boolean) => string>;

export type MarkedFile = keyof typeof MARKED_FILES;
export const MARKED_FILE_NAMES = Object.keys(MARKED_FILES) as MarkedFile[];

/**
 * `text` (one of the marked files) with its block of generated paths replaced by one listing
 * `generated` (repository-relative, `/`-separated); a file without a block gets one at its end.
 */
export function withGeneratedBlock(
  file: MarkedFile,
  text: string,
  generated: readonly string[],
  repoRoot: string,
): string {
  const line = MARKED_FILES[file];
  const block = [
    BEGIN,
    ...generated.map((entry) => line(entry, statSync(path.join(repoRoot, entry)).isDirectory())),
    END,
  ].join("\n");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return `${text.replace(/\n*$/, "\n")}${block}\n`;
  return text.slice(0, start) + block + text.slice(end + END.length);
}

/** Rewrites each marked file's block from `generated`. */
export function writeGeneratedMarks(generated: readonly string[], repoRoot: string): void {
  for (const file of MARKED_FILE_NAMES) {
    const absolute = path.join(repoRoot, file);
    const text = readFileSync(absolute, "utf8");
    const wanted = withGeneratedBlock(file, text, generated, repoRoot);
    if (wanted !== text) writeFileSync(absolute, wanted);
  }
}

/** The marked files whose block is not what `generated` gives, as `changed <file>`. */
export function generatedMarksDifferences(generated: readonly string[], repoRoot: string): string[] {
  return MARKED_FILE_NAMES.filter((file) => {
    const text = readFileSync(path.join(repoRoot, file), "utf8");
    return withGeneratedBlock(file, text, generated, repoRoot) !== text;
  }).map((file) => `changed ${file}`);
}
