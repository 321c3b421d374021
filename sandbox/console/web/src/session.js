// @ts-check
// Who the console is signed in as. The API token and the admin token live in this page's memory
// and in sessionStorage of the sandbox's own origin (this tab only, gone when the tab closes):
// never in localStorage, a cookie, a URL or the page's markup (docs/console.md "What is stored where").

const STORAGE_KEY = "portfolio-wallet-console.session";

/**
 * @typedef {object} Session
 * @property {string} apiToken the bearer token; it decides the organization
 * @property {string | null} adminToken sent as X-Sandbox-Admin-Token on sandbox controls
 * @property {string} organizationId
 * @property {"open" | "token" | "off"} adminApi how this sandbox's admin API is guarded
 * @property {"sandbox" | "organization" | null} adminScope what the admin token acts on: the
 *   whole sandbox, or this organization only (null: not checked yet, or no token)
 */

/** @type {Session | null} */
let current = null;

/** @returns {Session | null} */
export function session() {
  if (current !== null) return current;
  try {
    const stored = window.sessionStorage.getItem(STORAGE_KEY);
    if (stored === null) return null;
    const value = JSON.parse(stored);
    if (typeof value?.apiToken === "string" && typeof value?.organizationId === "string") {
      current = {
        apiToken: value.apiToken,
        adminToken: typeof value.adminToken === "string" ? value.adminToken : null,
        organizationId: value.organizationId,
        adminApi: value.adminApi === "open" || value.adminApi === "off" ? value.adminApi : "token",
        adminScope: adminScopeOf(value.adminScope),
      };
    }
  } catch {
    // Storage refused or unreadable: signed out.
  }
  return current;
}

/** @param {Session} value */
export function signIn(value) {
  current = value;
  persist();
}

export function signOut() {
  current = null;
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

/**
 * A scope as the sandbox answers it (GET /_sandbox/admin-scope), or null for anything else.
 * @param {unknown} value
 * @returns {"sandbox" | "organization" | null}
 */
export function adminScopeOf(value) {
  return value === "sandbox" || value === "organization" ? value : null;
}

/**
 * @param {string | null} adminToken
 * @param {"sandbox" | "organization" | null} [adminScope] what it acts on, once the sandbox said
 */
export function setAdminToken(adminToken, adminScope = null) {
  if (current === null) return;
  current = { ...current, adminToken, adminScope: adminToken === null ? null : adminScope };
  persist();
}

/** @param {"open" | "token" | "off"} adminApi */
export function setAdminApi(adminApi) {
  if (current === null || current.adminApi === adminApi) return;
  current = { ...current, adminApi };
  persist();
}

function persist() {
  try {
    if (current !== null) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  } catch {
    // Without storage the session lasts as long as the page: still usable.
  }
}
