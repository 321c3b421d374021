// @ts-check
// What every page of the console shares: the view contract, links, headings and not-found.
import { h } from "../dom.js";

/** Where the console lives on the sandbox. */
export const BASE = "/_console";

/**
 * What a page gets from the console.
 * @typedef {object} ViewContext
 * @property {(path: string, options?: { replace?: boolean }) => void} navigate a console path, such as /wallets
 * @property {() => void} refreshNow reads again now (after an action)
 * @property {() => string | null} now the sandbox clock at the last read
 * @property {() => number} pendingApprovals signing activities awaiting votes at the last read
 */

/**
 * A page: its title, and the reads that fill it, run again at a bounded rate (live.js).
 * @typedef {object} View
 * @property {string} title
 * @property {() => Promise<void>} refresh
 */

/**
 * @typedef {(main: HTMLElement, ctx: ViewContext, params: string[], query: URLSearchParams) => View} ViewFactory
 */

/**
 * A link to a console path; the console handles it without reloading the page.
 * @param {string} path
 * @param {import("../dom.js").Children} children
 * @param {import("../dom.js").Attrs} [attrs]
 */
export function link(path, children, attrs = {}) {
  return h("a", { href: `${BASE}${path}`, "data-console-link": true, ...attrs }, children);
}

/**
 * The page's heading, with optional lines under it and actions beside it.
 * @param {string} title
 * @param {{ kicker?: import("../dom.js").Children, sub?: import("../dom.js").Children, actions?: import("../dom.js").Children }} [options]
 */
export function pageHeader(title, options = {}) {
  return h(
    "div",
    { class: "page-header" },
    h(
      "div",
      { class: "page-title" },
      options.kicker ? h("div", { class: "kicker" }, options.kicker) : null,
      h("h1", {}, title),
      options.sub ? h("div", { class: "page-sub" }, options.sub) : null,
    ),
    options.actions ? h("div", { class: "page-actions" }, options.actions) : null,
  );
}

/**
 * The page for a path or resource that does not exist in this organization.
 * @param {HTMLElement} main
 * @param {string} title
 * @param {string} explanation
 * @returns {View}
 */
export function notFoundView(main, title, explanation) {
  main.replaceChildren(
    pageHeader(title, { kicker: "Not found" }),
    h(
      "section",
      { class: "card empty", "aria-label": "Not found", "data-not-found": true },
      h("p", {}, explanation),
      h("p", {}, link("/wallets", "Back to the wallets")),
    ),
  );
  return { title, refresh: async () => {} };
}

/**
 * A message for a part of a page that could not be read.
 * @param {unknown} error
 */
export function failure(error) {
  return h(
    "p",
    { class: "notice notice-bad", role: "alert" },
    error instanceof Error ? error.message : String(error),
  );
}

/** @param {string} text */
export function loading(text) {
  return h("p", { class: "muted loading" }, text);
}
