// @ts-check
// Every item the sandbox gives an id has a console address of its own, which can be bookmarked and
// shared: a wallet is /wallets/{id}; a deposit, withdrawal or strategy update is its wallet's tab
// with the item picked out (/wallets/{walletId}/deposits/{depositId}); a signing activity is
// /approvals/{id}; a webhook delivery is /webhooks/deliveries/{id}, its detail open. /ids/{id}
// takes any id and goes to its address, so a bare id can be linked too.
import { ApiError, request } from "../api.js";
import { h } from "../dom.js";
import { consolePaths } from "../paths.js";
import { loading, notFoundView, pageHeader } from "./common.js";

/** @typedef {{ kind: string, id: string, walletId: string | null }} FoundItem */

/** What each kind is called in a sentence. */
const KIND_WORDS = /** @type {Record<string, string>} */ ({
  wallet: "wallet",
  deposit: "deposit",
  withdrawal: "withdrawal",
  strategy_update: "strategy update",
  signing_activity: "signing activity",
  webhook_registration: "webhook registration",
  webhook_delivery: "webhook delivery",
});

/**
 * The console address of what an id names (GET /_console/api/ids/{id}).
 * @param {FoundItem} found
 */
export function itemPath(found) {
  const id = encodeURIComponent(found.id);
  const wallet = found.walletId === null ? null : `/wallets/${encodeURIComponent(found.walletId)}`;
  switch (found.kind) {
    case "wallet":
      return `/wallets/${id}`;
    case "deposit":
      return `${wallet}/deposits/${id}`;
    case "withdrawal":
      return `${wallet}/withdrawals/${id}`;
    case "strategy_update":
      return `${wallet}/strategy/${id}`;
    case "signing_activity":
      return `/approvals/${id}`;
    case "webhook_delivery":
      return `/webhooks/deliveries/${id}`;
    case "webhook_registration":
      return "/webhooks";
    default:
      return "/events";
  }
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
export async function findItem(id) {
  try {
    const { body } = await request("GET", consolePaths.findId(id));
    return body;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/**
 * /ids/{id}: any id's permanent link. Goes to the item's own address (replacing this one in the
 * history, so Back does not bounce), or says there is nothing of that id here.
 * @type {import("./common.js").ViewFactory}
 */
export function idView(main, ctx, params) {
  const id = params[0] ?? "";
  main.replaceChildren(pageHeader("Find an id"), loading(`Looking for ${id}…`));
  let done = false;
  return {
    title: "Find an id",
    async refresh() {
      if (done) return;
      done = true;
      const found = await findItem(id);
      if (found === null) notFoundView(main, "Not found", nothingOf(id));
      else ctx.navigate(itemPath(found), { replace: true });
    },
  };
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
