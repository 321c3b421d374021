import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/**
 * Checks every console page and dialog gets in the browser tests: axe-core's serious findings, and
 * actions a narrow window puts out of reach.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical findings on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's content security policy does not govern.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };
    const { violations } = await axe.run();
    return violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes
            .slice(0, 3)
            .map((node) => JSON.stringify(node.target))
            .join(", ")})`,
      );
  });
}

/**
 * Actions (buttons, links, fields) of the header and the page that are off-screen: outside the
 * window, or outside a box that clips or scrolls them; and tables that scroll sideways.
 */
export async function offscreenActions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const actions = document.querySelectorAll(
      "header button, header a[href], main button, main a[href], main input, main select, main textarea",
    );
    for (const action of Array.from(actions)) {
      const rect = action.getBoundingClientRect();
      // Not shown: in a closed menu or disclosure, or a hidden form.
      if ((rect.width === 0 && rect.height === 0) || !action.checkVisibility()) continue;
      const name = (
        action.getAttribute("aria-label") ??
        action.textContent ??
        action.getAttribute("name") ??
        ""
      )
        .trim()
        .slice(0, 50);
      if (rect.left < -1 || rect.right > width + 1) {
        problems.push(
          `${action.tagName} "${name}" spans ${Math.round(rect.left)}..${Math.round(rect.right)} px`,
        );
        continue;
      }
      for (let box = action.parentElement; box !== null; box = box.parentElement) {
        if (getComputedStyle(box).overflowX === "visible") continue;
        const bounds = box.getBoundingClientRect();
        if (rect.left < bounds.left - 1 || rect.right > bounds.right + 1) {
          problems.push(`${action.tagName} "${name}" is scrolled out of view`);
          break;
        }
      }
    }
    for (const region of Array.from(document.querySelectorAll("main .table-scroll")))
      if (region.scrollWidth > region.clientWidth + 1)
        problems.push(`the table "${region.getAttribute("aria-label")}" scrolls sideways`);
    return problems;
  });
}
