// @ts-check
// Building the page without innerHTML: every value from the API (labels, URLs, reasons) becomes a
// text node, so nothing the API holds can ever become markup or script.
import { when, whenUtc, words } from "./format.js";

/** @typedef {string | number | Node | null | undefined | false} Child */
/** @typedef {Child | Child[]} Children */
/**
 * Attributes: a string or number is set as is; `true` sets an empty attribute; `false`, null and
 * undefined leave it out; a function under an `on…` name is an event listener.
 * @typedef {Record<string, string | number | boolean | null | undefined | ((event: any) => void)>} Attrs
 */

/**
 * @param {Element} element
 * @param {Attrs} attrs
 */
function applyAttrs(element, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === "function") {
      element.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (value === true) {
      element.setAttribute(name, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, String(value));
    }
  }
}

/**
 * @param {Node} parent
 * @param {Children[]} children
 */
function appendChildren(parent, children) {
  for (const child of children.flat(2)) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Children} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  applyAttrs(element, attrs);
  appendChildren(element, children);
  return element;
}

/**
 * Replaces everything inside `parent`. It also forgets what `fillIfChanged` last drew there, so
 * that after a notice or a failure drawn in the same region the next good answer is drawn again,
 * even when it equals the one before.
 * @param {Element} parent
 * @param {...Children} children
 */
export function fill(parent, ...children) {
  if (parent instanceof HTMLElement) delete parent.dataset["renderedFrom"];
  parent.replaceChildren();
  appendChildren(parent, children);
}

/**
 * Replaces the contents of `region` only when what it shows changed (compared by `key`), so a
 * refresh every few seconds keeps focus, selection and open disclosures where nothing moved.
 * @param {HTMLElement} region
 * @param {string} key
 * @param {() => Children} render
 */
export function fillIfChanged(region, key, render) {
  if (region.dataset["renderedFrom"] === key) return;
  fill(region, render());
  region.dataset["renderedFrom"] = key;
}

/**
 * A table with a caption, column headers and rows. In a narrow window each row becomes a card
 * whose cells carry their column's name (`data-label`, drawn by the stylesheet), so no column and
 * no action is off-screen; a wider table than the window scrolls inside a focusable region.
 * @param {{ caption: string, captionHidden?: boolean, columns: string[], rows: Children[][], className?: string, rowAttrs?: (index: number) => Attrs }} spec
 */
export function table(spec) {
  const element = h(
    "table",
    { class: `${spec.className ?? "data-table"} cards-narrow` },
    h("caption", { class: spec.captionHidden ? "visually-hidden" : null }, spec.caption),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        spec.columns.map((column) => h("th", { scope: "col" }, column)),
      ),
    ),
    h(
      "tbody",
      {},
      spec.rows.map((cells, index) =>
        h(
          "tr",
          spec.rowAttrs?.(index) ?? {},
          cells.map((cell, column) =>
            column === 0
              ? h("th", { scope: "row" }, cell)
              : h("td", { "data-label": spec.columns[column] || null }, cell),
          ),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "table-scroll", role: "region", "aria-label": spec.caption, tabindex: 0 },
    element,
  );
}

/** Where a long identifier may wrap: after "://", and after each dot, slash, underscore, hyphen, ?, & and =. */
const SEPARATOR = /(:\/\/|[./_?&=-])/;

/**
 * A long identifier (an event type, a URL, an id) that wraps after its separators, never inside a
 * word: its text with a `<wbr>` after each separator. Shown with the class `break-at-separators`
 * (overflow-wrap: break-word), a run with no separator breaks only where it could not fit at all.
 * @param {string} text
 * @returns {(string | HTMLElement)[]}
 */
export function breakable(text) {
  return text
    .split(SEPARATOR)
    .filter((part) => part !== "")
    .flatMap((part) => (SEPARATOR.test(part) ? [part, h("wbr")] : [part]));
}

/**
 * A status shown as a word in a coloured pill: the word carries the meaning, the colour only helps.
 * @param {string | null | undefined} status
 */
export function statusPill(status) {
  const text = status ?? "unknown";
  return h("span", { class: `pill pill-${toneOf(text)}`, "data-status": text }, words(text));
}

/** @param {string} status */
function toneOf(status) {
  const value = status.toLowerCase();
  if (/skipped|returned/.test(value)) return "neutral";
  if (/failed|rejected|cancelled/.test(value)) return "bad";
  if (/pending|processing|partially|consensus|created/.test(value)) return "busy";
  if (/completed|succeeded|active|approved/.test(value)) return "good";
  return "neutral";
}

/**
 * A definition list of label and value pairs.
 * @param {[string, Children][]} pairs
 * @param {string} [className]
 */
export function facts(pairs, className = "facts") {
  return h(
    "dl",
    { class: className },
    pairs.map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, value))),
  );
}

/**
 * A card: a section with a heading.
 * @param {string} title
 * @param {Children} body
 * @param {{ level?: 2 | 3, id?: string, actions?: Children, className?: string }} [options]
 */
export function card(title, body, options = {}) {
  const headingId = options.id ?? `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  const heading = h(options.level === 3 ? "h3" : "h2", { id: headingId }, title);
  return h(
    "section",
    { class: `card ${options.className ?? ""}`.trim(), "aria-labelledby": headingId },
    h(
      "div",
      { class: "card-head" },
      heading,
      options.actions ? h("div", { class: "card-actions" }, options.actions) : null,
    ),
    body,
  );
}

/** Text that only screen readers read, such as a status change. */
export function announce(/** @type {string} */ message) {
  const announcer = document.getElementById("announcer");
  if (announcer === null) return;
  announcer.textContent = "";
  // A new text node after a tick, so the same message twice is read twice.
  window.setTimeout(() => (announcer.textContent = message), 50);
}

/**
 * The value of a form control by name, as a trimmed string.
 * @param {HTMLFormElement} form
 * @param {string} name
 */
export function fieldValue(form, name) {
  const control = form.elements.namedItem(name);
  if (
    control instanceof HTMLInputElement ||
    control instanceof HTMLSelectElement ||
    control instanceof HTMLTextAreaElement
  )
    return control.value.trim();
  return "";
}

/**
 * A time as the page shows it: in the browser's time zone, named, with the same moment in UTC on
 * hover and the exact instant for scripts and assistive technology (`<time datetime>`).
 * @param {string | null | undefined} iso
 */
export function timeOf(iso) {
  if (typeof iso !== "string") return h("span", { class: "muted" }, "—");
  return h("time", { datetime: iso, title: whenUtc(iso) }, when(iso));
}
