import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { marked } from "marked";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { ensureChromium, launchBrowser } from "../../sandbox/console/harness.ts";
import { forGitHub } from "../../../cli/report/renderMarkdown.ts";

/**
 * The pull-request comment as GitHub shows it (issue 57): the report's markdown (the snapshots the
 * report's tests hold it to) through a GitHub-flavoured markdown renderer (marked, GFM) in GitHub's
 * own stylesheet (github-markdown-css), in Chromium at a desktop's and a phone's width. What a
 * reviewer would otherwise find only after merging a change of the renderer: a table that shows as
 * pipes, the hidden marker shown, the details unfolded, a page wider than the phone, a dollar
 * figure broken over two lines. Screenshots of each go to test-artifacts/report/ to look at.
 */

const SNAPSHOTS = path.join(repoRoot, "test", "cli", "__snapshots__");
const ARTIFACTS = path.join(repoRoot, "test-artifacts", "report");
const STYLESHEET = readFileSync(
  path.join(repoRoot, "node_modules", "github-markdown-css", "github-markdown-light.css"),
  "utf8",
);

const WIDTHS = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
] as const;

/** The comments to look at, and the tables each must show. */
const COMMENTS = [
  { snapshot: "report-funded-treasury.md", tables: 2, columns: 7 },
  { snapshot: "report-several-wallets.md", tables: 2, columns: 4 },
  { snapshot: "report-webhook-replaced.md", tables: 0, columns: 0 },
  { snapshot: "drift-allocation-and-webhook.md", tables: 1, columns: 7 },
] as const;

/** As GitHub lays out a comment: the markdown body in its stylesheet, a comment's width at most. */
function commentPage(markdown: string): string {
  const body = marked.parse(markdown, { gfm: true, async: false });
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLESHEET}
body { margin: 0; } .comment { box-sizing: border-box; max-width: 980px; margin: 0 auto; padding: 16px; }</style>
</head><body><article class="comment markdown-body">${body}</article></body></html>`;
}

let page: Page;
let close: () => Promise<void>;

beforeAll(async () => {
  const browser = await launchBrowser(await ensureChromium());
  close = browser.close;
  page = await browser.context.newPage();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 15 * 60_000);

afterAll(async () => close?.());

describe.each(COMMENTS)("the comment $snapshot as GitHub shows it", ({ snapshot, tables, columns }) => {
  // As the commands write it for GitHub.
  const markdown = forGitHub(readFileSync(path.join(SNAPSHOTS, snapshot), "utf8"));

  test.each(WIDTHS)("at $width px ($name)", async ({ name, width }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(commentPage(markdown));
    const shown = await page.locator("article").innerText();
    // The marker a sticky comment is found by stays hidden; the headline is a heading.
    expect(shown).not.toContain("portfolio-wallet-report");
    expect(shown).not.toContain("portfolio-wallet-drift");
    const headline = /^### (.*)$/m.exec(markdown)![1]!;
    expect(await page.locator("article h3").first().innerText()).toBe(headline);
    // Every table is a table: no row of pipes shown as text.
    expect(shown).not.toMatch(/\|\s*-{3}|\|---|--:\|/);
    expect(await page.locator("article table").count()).toBe(tables);
    if (tables > 0)
      expect(await page.locator("article table").first().locator("thead th").count()).toBe(columns);
    // The details stay folded until opened.
    if (markdown.includes("<details>")) {
      expect(await page.locator("article details").getAttribute("open")).toBeNull();
      expect(await page.locator("article details li").first().isVisible()).toBe(false);
    }
    // The page is no wider than the screen: a wide table scrolls inside itself, as on GitHub.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `the page is ${overflow} px wider than ${width} px`).toBeLessThanOrEqual(0);
    // No dollar figure in a table breaks over two lines.
    const broken = await page.locator("article td").evaluateAll((cells) =>
      cells
        .filter((cell) => (cell.textContent ?? "").includes("$"))
        .filter((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const tops = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
          return tops.size > 1;
        })
        .map((cell) => cell.textContent),
    );
    expect(broken).toEqual([]);
    // Nor is a sign in the prose left at a line's end, its amount on the next line.
    const split = await page.locator("article").evaluate((article) => {
      const found: string[] = [];
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/[−+]\u2060?\$[\d,]+\.\d\d/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
          if (tops.size > 1) found.push(match[0]);
        }
      }
      return found;
    });
    expect(split).toEqual([]);
    await page.screenshot({
      path: path.join(ARTIFACTS, `${snapshot.replace(/\.md$/, "")}-${name}.png`),
      fullPage: true,
    });
  });
});
