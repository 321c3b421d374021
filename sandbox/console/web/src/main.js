// @ts-check
// The console's entry point: routes a path under /_console to a page, draws the header and the
// navigation, and keeps the page current by polling (live.js).
import { ApiError, request, unansweredRead } from "./api.js";
import { announce, fill, h } from "./dom.js";
import { when, whenUtc } from "./format.js";
import { startPolling } from "./live.js";
import { session, setAdminApi, signOut } from "./session.js";
import { approvalsView } from "./views/approvals.js";
import { BASE, link, notFoundView } from "./views/common.js";
import { controlsView } from "./views/controls.js";
import { signInView } from "./views/signIn.js";
import { walletView } from "./views/wallet.js";
import { newWalletView } from "./views/walletNew.js";
import { walletsView } from "./views/wallets.js";
import { headerClock } from "./views/controls/clock.js";
import { webhooksView } from "./views/webhooks.js";
import { inboxView } from "./views/webhookInboxes.js";
import { eventsView } from "./views/events.js";
import { objectPageView } from "./views/objectPage.js";
import { consolePaths } from "./paths.js";

/** @typedef {import("./views/common.js").View} View */
/** @typedef {import("./views/common.js").ViewFactory} ViewFactory */

/** @type {{ pattern: RegExp, view: ViewFactory, section: string }[]} */
const ROUTES = [
  { pattern: /^\/wallets$/, view: walletsView, section: "wallets" },
  { pattern: /^\/wallets\/new$/, view: newWalletView, section: "wallets" },
  // A wallet, a section of it, an item of that section (itemLinks.js).
  { pattern: /^\/wallets\/([^/]+)(?:\/([^/]+)(?:\/([^/]+))?)?$/, view: walletView, section: "wallets" },
  { pattern: /^\/approvals(?:\/([^/]+))?$/, view: approvalsView, section: "approvals" },
  { pattern: /^\/webhooks(?:\/deliveries\/([^/]+))?$/, view: webhooksView, section: "webhooks" },
  { pattern: /^\/webhooks\/inboxes\/([^/]+)$/, view: inboxView, section: "webhooks" },
  { pattern: /^\/ids\/([^/]+)$/, view: objectPageView, section: "events" },
  { pattern: /^\/events$/, view: eventsView, section: "events" },
  { pattern: /^\/controls$/, view: controlsView, section: "controls" },
];

const SECTIONS = [
  { key: "wallets", path: "/wallets", title: "Wallets" },
  { key: "approvals", path: "/approvals", title: "Approvals" },
  { key: "webhooks", path: "/webhooks", title: "Webhooks" },
  { key: "events", path: "/events", title: "Events" },
  { key: "controls", path: "/controls", title: "Sandbox controls" },
];

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const nav = /** @type {HTMLElement} */ (document.getElementById("console-nav"));
const sessionBar = /** @type {HTMLElement} */ (document.getElementById("session-bar"));
// The banner sits in the content column above the page, never as an item of the page's grid.
const banner = /** @type {HTMLElement} */ (document.getElementById("live-banner"));
// In a narrow window the navigation folds under a Menu button (the stylesheet hides it there).
const menuToggle = /** @type {HTMLButtonElement} */ (document.getElementById("menu-toggle"));
/** @param {boolean} open */
function setMenu(open) {
  menuToggle.setAttribute("aria-expanded", String(open));
  nav.classList.toggle("open", open);
}
menuToggle.addEventListener("click", () => setMenu(menuToggle.getAttribute("aria-expanded") !== "true"));

/** @type {View | null} */
let view = null;
let section = "";
/** @type {string | null} */
let sandboxNow = null;
/** Whether the last round of reads got no answer: sandboxNow is then the last one known. */
let sandboxSilent = false;
let pendingApprovals = 0;
let firstRender = true;

/** The path under /_console, without a trailing slash: "/wallets", or "/" for the console's root. */
function consolePath() {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : "/";
  const trimmed = path.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/**
 * @param {string} path a console path, such as /wallets/…; may carry a query
 * @param {{ replace?: boolean }} [options]
 */
function navigate(path, options = {}) {
  setMenu(false);
  const url = `${BASE}${path}`;
  if (options.replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
  render();
}

/** @type {import("./views/common.js").ViewContext} */
const ctx = {
  navigate,
  refreshNow: () => poller.now(),
  now: () => sandboxNow,
  pendingApprovals: () => pendingApprovals,
};

function drawChrome() {
  const current = session();
  document.body.classList.toggle("signed-out", current === null);
  if (current === null) {
    nav.hidden = true;
    menuToggle.hidden = true;
    sessionBar.hidden = true;
    return;
  }
  sessionBar.hidden = false;
  nav.hidden = false;
  menuToggle.hidden = false;
  fill(
    nav,
    h(
      "ul",
      {},
      SECTIONS.map((item) =>
        h(
          "li",
          {},
          link(
            item.path,
            [
              item.title,
              item.key === "approvals" && pendingApprovals > 0
                ? h(
                    "span",
                    { class: "badge" },
                    String(pendingApprovals),
                    h("span", { class: "visually-hidden" }, " waiting"),
                  )
                : null,
            ],
            { "aria-current": item.key === section ? "page" : null },
          ),
        ),
      ),
    ),
  );
  drawSessionBar(current);
}

// The session bar is built once and updated in place: a poll every two seconds must not close
// the clock menu or take focus from its buttons.
const organizationValue = h("strong", {});
const sandboxTime = h("span", { class: "session-item" });
const sandboxTimeValue = h("span", {});
sandboxTime.append(h("span", { class: "muted session-label" }, "Sandbox time "), sandboxTimeValue);
const clockMenu = headerClock(() => poller.now());
const signOutButton = h("button", { type: "button", class: "button small" }, "Sign out");
signOutButton.addEventListener("click", () => {
  signOut();
  announce("Signed out");
  navigate("/sign-in", { replace: true });
});
fill(
  sessionBar,
  h(
    "span",
    { class: "session-item" },
    h("span", { class: "muted session-label" }, "Organization "),
    organizationValue,
  ),
  sandboxTime,
  clockMenu,
  signOutButton,
);

/**
 * @param {NonNullable<ReturnType<typeof session>>} current
 */
function drawSessionBar(current) {
  if (organizationValue.textContent !== current.organizationId) {
    organizationValue.textContent = current.organizationId;
    organizationValue.dataset["organization"] = current.organizationId;
  }
  // The last time read, said as such while the sandbox does not answer: a frozen clock shown as
  // current would say time stands still.
  const shown =
    sandboxNow === null ? "…" : sandboxSilent ? `as of ${when(sandboxNow)}, not answering` : when(sandboxNow);
  sandboxTime.classList.toggle("stale", sandboxSilent);
  if (sandboxSilent) sandboxTime.dataset["stale"] = "";
  else delete sandboxTime.dataset["stale"];
  if (sandboxTimeValue.textContent !== shown) {
    sandboxTimeValue.textContent = shown;
    // The same moment in UTC on hover.
    sandboxTimeValue.title = sandboxNow === null ? "" : whenUtc(sandboxNow);
  }
  sandboxTime.dataset["sandboxNow"] = sandboxNow ?? "";
  // Time moves from the header where admin calls can succeed: an open admin API, or a token given.
  clockMenu.hidden = !(
    current.adminApi === "open" ||
    (current.adminApi === "token" && current.adminToken !== null)
  );
}

/** @param {boolean} silent whether the sandbox's last round went unanswered */
function markSandboxSilent(silent) {
  if (sandboxSilent === silent) return;
  sandboxSilent = silent;
  const current = session();
  if (current !== null) drawSessionBar(current);
}

// The banner's own way to read again at once, rather than wait for the next round.
const bannerMessage = h("span", {});
const retryNow = h("button", { type: "button", class: "button small" }, "Retry now");
retryNow.addEventListener("click", () => poller.now());
banner.append(bannerMessage, " ", retryNow);
/** @param {string} message */
function showBanner(message) {
  if (bannerMessage.textContent !== message) bannerMessage.textContent = message;
  banner.hidden = message === "";
}

/** One round of reads: the session (sandbox time, pending approvals), then the page's own. */
async function refreshRound() {
  if (session() === null || view === null) return;
  const [{ body: about }, { body: waiting }] = await Promise.all([
    request("GET", consolePaths.session),
    request("GET", consolePaths.signingActivities({ status: "pending", limit: 100 })),
  ]);
  sandboxNow = typeof about?.now === "string" ? about.now : null;
  if (about?.adminApi === "open" || about?.adminApi === "off" || about?.adminApi === "token")
    setAdminApi(about.adminApi);
  pendingApprovals = Array.isArray(waiting?.data) ? waiting.data.length : 0;
  drawChrome();
  await view.refresh();
}

const poller = startPolling(refreshRound, {
  intervalMs: 2000,
  onSuccess: () => {
    showBanner("");
    markSandboxSilent(false);
  },
  onError: (error) => {
    if (error instanceof ApiError && error.status === 401) {
      signOut();
      navigate("/sign-in?reason=expired", { replace: true });
      return;
    }
    // A round's reads include POSTs that change nothing (the yield report): no answer to any of
    // them is the same outage, said as a read's.
    const said =
      error instanceof ApiError && error.status === 0
        ? unansweredRead(error.timedOut)
        : error instanceof Error
          ? error.message
          : String(error);
    markSandboxSilent(error instanceof ApiError && error.status === 0);
    showBanner(`Could not refresh this page: ${said}`);
  },
});

/** The path and query last rendered: a change of the fragment alone (the skip link) is no new page. */
let rendered = "";

function render() {
  rendered = `${window.location.pathname}${window.location.search}`;
  const path = consolePath();
  const query = new URLSearchParams(window.location.search);
  const signedIn = session() !== null;
  if (path === "/sign-in") {
    if (signedIn) return navigate("/wallets", { replace: true });
    section = "";
    view = null;
    drawChrome();
    show(signInView(main, ctx, [], query));
    return;
  }
  if (!signedIn) {
    const next = `${path}${window.location.search}`;
    return navigate(`/sign-in${path === "/" ? "" : `?next=${encodeURIComponent(next)}`}`, { replace: true });
  }
  if (path === "/") return navigate("/wallets", { replace: true });
  const route = ROUTES.find((candidate) => candidate.pattern.test(path));
  section = route?.section ?? "";
  drawChrome();
  if (route === undefined) {
    show(notFoundView(main, "Page not found", `The console has no page ${path}.`));
    return;
  }
  const params = (route.pattern.exec(path) ?? [])
    .slice(1)
    .map((part) => (part === undefined ? "" : decodeURIComponent(part)));
  show(route.view(main, ctx, params, query));
  poller.now();
}

/** @param {View} next */
function show(next) {
  view = next;
  document.title = `${next.title} · Sandbox console`;
  if (!firstRender) {
    window.scrollTo(0, 0);
    main.focus();
    announce(next.title);
  }
  firstRender = false;
}

document.addEventListener("click", (event) => {
  const target = event.target instanceof Element ? event.target.closest("a[data-console-link]") : null;
  if (!(target instanceof HTMLAnchorElement)) return;
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const url = new URL(target.href);
  if (url.origin !== window.location.origin || !url.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(`${url.pathname.slice(BASE.length)}${url.search}`);
});
window.addEventListener("popstate", () => {
  if (`${window.location.pathname}${window.location.search}` !== rendered) render();
});
render();
