import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../../scripts/pulumiEnv.ts";

/**
 * The comments and issue bodies the docs show are the renderer's own (issue 57): each rendered
 * block names the snapshot it is taken from (`<!-- rendered from test/cli/__snapshots__/….md -->`
 * above its fence), and its lines are that snapshot's, in order, some left out, as Prettier lays
 * them out (tables padded). The snapshots are the report's and drift's tests' own output, so a
 * change of the words shows here as a doc to render again.
 */

const MARKER = /^<!-- rendered from (test\/cli\/__snapshots__\/[\w.-]+\.md)[^>]*-->$/;

/** The pages a newcomer reads: the README, docs/, and the examples' READMEs. */
function pages(): string[] {
  const docs = readdirSync(path.join(repoRoot, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("docs", file));
  const examples = readdirSync(path.join(repoRoot, "examples"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join("examples", entry.name, "README.md"))
    .filter((file) => {
      try {
        readFileSync(path.join(repoRoot, file));
        return true;
      } catch {
        return false;
      }
    });
  return ["README.md", ...docs, ...examples];
}

interface RenderedBlock {
  page: string;
  line: number;
  snapshot: string | null;
  lines: string[];
}

/** Every ```markdown block that shows a report or drift issue (its first line is the marker). */
function renderedBlocks(page: string): RenderedBlock[] {
  const lines = readFileSync(path.join(repoRoot, page), "utf8").split("\n");
  const blocks: RenderedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index] !== "```markdown") continue;
    const end = lines.indexOf("```", index + 1);
    const body = lines.slice(index + 1, end);
    if (!/^<!-- portfolio-wallet-(report|drift) /.test(body[0] ?? "")) continue;
    const above = lines
      .slice(0, index)
      .reverse()
      .find((line) => line.trim() !== "");
    blocks.push({ page, line: index + 1, snapshot: MARKER.exec(above ?? "")?.[1] ?? null, lines: body });
    index = end;
  }
  return blocks;
}

/** A line as the renderer wrote it: table cells trimmed, a separator row's cells as their alignment. */
function normalized(line: string): string {
  if (!line.startsWith("|")) return line.trimEnd();
  return line
    .split("|")
    .map((cell) => cell.trim())
    .map((cell) =>
      /^:?-+:?$/.test(cell) ? `${cell.startsWith(":") ? ":" : ""}-${cell.endsWith(":") ? ":" : ""}` : cell,
    )
    .join("|");
}

describe("rendered reports in the docs", () => {
  const blocks = pages().flatMap(renderedBlocks);

  test("the docs show rendered reports and drift issues, each naming its snapshot", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    for (const block of blocks)
      expect(
        block.snapshot,
        `${block.page}:${block.line}: a rendered block names no snapshot`,
      ).not.toBeNull();
  });

  test.each(blocks.map((block) => [`${block.page}:${block.line}`, block] as const))(
    "%s is its snapshot's lines, in order",
    (_where, block) => {
      const snapshot = readFileSync(path.join(repoRoot, block.snapshot!), "utf8")
        .split("\n")
        .map(normalized)
        .filter((line) => line !== "");
      let at = 0;
      for (const line of block.lines.map(normalized).filter((text) => text !== "")) {
        const found = snapshot.indexOf(line, at);
        expect(
          found,
          `${block.page}:${block.line}: not in ${block.snapshot} (after its line ${at}): ${line}`,
        ).toBeGreaterThanOrEqual(0);
        at = found + 1;
      }
    },
  );
});
