// @ts-check
// Every item the sandbox gives an id has console addresses, which can be bookmarked and shared:
// its own page, /ids/{id} (objectPage.js; a wallet's is /wallets/{id}), and its place in its list:
// a deposit, withdrawal or strategy update in its wallet's tab with the item picked out
// (/wallets/{walletId}/deposits/{depositId}); a signing activity at /approvals/{id}; a webhook
// delivery at /webhooks/deliveries/{id}, its detail open.
import { ApiError, request } from "../api.js";
import { h } from "../dom.js";
import { consolePaths } from "../paths.js";

/** @typedef {{ kind: string, id: string, walletId: string | null }} FoundItem */

/** What each kind is called in a sentence. */
export const KIND_WORDS = /** @type {Record<string, string>} */ ({
  wallet: "wallet",
  deposit: "deposit",
  withdrawal: "withdrawal",
  strategy_update: "strategy update",
  signing_activity: "signing activity",
  webhook_registration: "webhook registration",
  webhook_delivery: "webhook delivery",
  request: "request",
});

/**
 * The page of what an id names: a wallet's own page, or the object's page (objectPage.js), which
 * also takes a request's id (it leads to what the request made) and a client's requestId.
 * @param {{ kind: string, id: string }} found
 */
export function objectPath(found) {
  const id = encodeURIComponent(found.id);
  return found.kind === "wallet" ? `/wallets/${id}` : `/ids/${id}`;
}

/** @param {string} id */
export function nothingOf(id) {
  return `Nothing of id ${id} in this organization.`;
}

/**
 * What an id names in the organization, or null when it names nothing there (another
 * organization's ids included: the sandbox answers 404 for both, so nothing leaks).
 * @param {string} id
 * @returns {Promise<FoundItem | null>}
 */
export function findItem(id) {
  return readFound(consolePaths.findId(id));
}

/**
 * A read of something an address names, or null when the sandbox says it is not here: 404 (none
 * of that id in the organization, another organization's included) or 400 (no id at all).
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function readFound(path) {
  try {
    return (await request("GET", path)).body;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/**
 * The item an address picks out of a list (its id in the list's `attribute`): marked, scrolled into
 * view once, and a notice when the list does not show it, saying whether it exists in this
 * organization at all.
 * @param {string | null} id
 * @param {string} attribute such as data-deposit-id
 * @param {string} kind as GET /_console/api/ids answers it, such as deposit
 */
export function itemFocus(id, attribute, kind) {
  const notice = h("p", { class: "notice item-notice", role: "status", hidden: true });
  let scrolled = false;
  /** @type {Promise<FoundItem | null> | null} */
  let lookup = null;
  return {
    /** The id picked out, or null when the address names none. */
    id,
    notice,
    /**
     * After the list is drawn: pick the item out, or say why it is not there.
     * @param {HTMLElement} list
     * @param {number} shown how many of the newest the list asked for
     */
    async mark(list, shown) {
      if (id === null) return;
      for (const element of list.querySelectorAll(".focused-item")) {
        if (element.getAttribute(attribute) === id) continue;
        element.classList.remove("focused-item");
        element.removeAttribute("aria-current");
      }
      const item = [...list.querySelectorAll(`[${attribute}]`)].find(
        (element) => element.getAttribute(attribute) === id,
      );
      if (item instanceof HTMLElement) {
        item.classList.add("focused-item");
        item.setAttribute("aria-current", "true");
        notice.hidden = true;
        if (!scrolled) {
          scrolled = true;
          item.scrollIntoView({ block: "center" });
        }
        return;
      }
      lookup ??= findItem(id);
      const found = await lookup;
      notice.hidden = false;
      notice.textContent =
        found === null || found.kind !== kind
          ? nothingOf(id)
          : `This ${KIND_WORDS[kind] ?? kind} (${id}) is older than the ${shown} newest listed here.`;
    },
  };
}
