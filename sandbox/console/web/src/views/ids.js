// @ts-check
// Ids as the console shows them and reads them. Shown whole, never cut short (a shortened id
// cannot be pasted anywhere), in a monospace run that may wrap at any character, so a 36-character
// id never widens a card at 420 px, with a Copy button beside it. Read from a field in every form
// the console shows one (whole, in either case, with the spaces or quotes a paste brings); a form
// it cannot be (cut short, or no id at all) is refused there with what to do.
import { UUID_PATTERN } from "../../../../../sdk/nodejs/contract/uuid.ts";
import { copyButton } from "../copy.js";
import { h } from "../dom.js";
import { link } from "./common.js";

/**
 * An id whole, with Copy; a link to `path` when given (an object's page).
 * @param {string} id
 * @param {string} what what it is in words, for the Copy button ("deposit id")
 * @param {{ path?: string }} [options]
 */
export function wholeId(id, what, options = {}) {
  const text = h("code", { class: "mono whole-id-text" }, id);
  return h(
    "span",
    { class: "whole-id", "data-whole-id": id },
    options.path === undefined
      ? text
      : link(options.path, text, { "aria-label": `${capitalized(what)} ${id}` }),
    copyButton({ text: () => id, selectable: text, what }),
  );
}

/** @param {string} text */
const capitalized = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** An example of an id's form, for messages. */
const EXAMPLE = "3f2b8c1e-9d4a-4b7e-8c21-5e6f7a8b9c0d";

/**
 * An id as typed or pasted into a field: `{ id }` (lower case, as the sandbox gives them) or
 * `{ problem }`, a sentence for the field saying what to do.
 * @param {string} text
 * @returns {{ id: string, problem?: undefined } | { id?: undefined, problem: string }}
 */
export function readId(text) {
  const bare = text
    .trim()
    .replace(/^["'`<(\[]+|["'`>)\].,;]+$/g, "")
    .trim();
  if (bare === "") return { problem: `Paste an id whole: 36 characters, such as ${EXAMPLE}.` };
  if (UUID_PATTERN.test(bare)) return { id: bare.toLowerCase() };
  if (/…|\.\.\./.test(bare))
    return {
      problem: `${bare} is an id cut short: paste it whole (36 characters, such as ${EXAMPLE}); every id on these pages has a Copy button.`,
    };
  return { problem: `${bare} is not an id: ids are 36 characters, such as ${EXAMPLE}.` };
}
