// What the console's browser tests check on any page, shared by the test files of test/sandbox/console/:
// axe-core's serious findings, actions off-screen (outside the window, or scrolled out of a box),
// tables that scroll sideways, boxes that overlap, and a poll that waits for the page's reads.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** Polls until the expectation holds: the page reads every 2 s, and a loaded machine is slower. */
export const eventually = <T>(read: () => T | Promise<T>) =>
  expect.poll(read, { timeout: 15_000, interval: 100 });

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

export type Box = { left: number; top: number; width: number; height: number };
export const boxOf = async (page: Page, selector: string): Promise<Box> =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const { left, top, width, height } = element.getBoundingClientRect();
      return { left, top, width, height };
    });
export const overlap = (a: Box, b: Box) =>
  a.left < b.left + b.width - 1 &&
  b.left < a.left + a.width - 1 &&
  a.top < b.top + b.height - 1 &&
  b.top < a.top + a.height - 1;
