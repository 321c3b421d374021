// @ts-check
// The admin token of this tab: what the sandbox controls send as X-Sandbox-Admin-Token, checked
// with a harmless admin call (GET /_sandbox/admin-scope) before it is kept, which also says what
// it acts on: the whole sandbox, or this organization only. When the sandbox's admin API is open
// or off, a notice says so instead.
import { ApiError, request } from "../../api.js";
import { fieldValue, fill, h } from "../../dom.js";
import { requestLog, runLogged } from "../../requestLog.js";
import { adminScopeOf, session, setAdminToken } from "../../session.js";
import { field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

/** The admin token control, redrawn when the token is given or forgotten. */
export function adminTokenControl() {
  const region = h("div", { class: "region" });
  /** Set when the sandbox refused the token this tab held: said above the form until another is given. */
  let refusedNotice = /** @type {HTMLElement | null} */ (null);

  function render() {
    const mode = session()?.adminApi ?? "token";
    if (mode === "open") {
      fill(
        region,
        h(
          "p",
          { class: "notice" },
          "This sandbox's admin API is open to API tokens (an in-process test sandbox): the controls need no admin token.",
        ),
      );
      return;
    }
    if (mode === "off") {
      fill(
        region,
        h(
          "p",
          { class: "notice notice-bad" },
          "This sandbox's admin API is off, so every control below is refused (403). Start the sandbox with ",
          h("code", {}, "--admin-token <token>"),
          " (or SANDBOX_ADMIN_TOKEN) to use them.",
        ),
      );
      return;
    }
    const has = (session()?.adminToken ?? null) !== null;
    const log = requestLog("Admin token check");
    const input = h("input", {
      name: "adminToken",
      type: "password",
      autocomplete: "off",
      spellcheck: "false",
    });
    const form = h(
      "form",
      { class: "inline-form" },
      field(
        "controls-admin-token",
        has ? "Replace the admin token" : "Admin token",
        input,
        "The token the sandbox was started with: --admin-token or SANDBOX_ADMIN_TOKEN. Sent as X-Sandbox-Admin-Token on the calls below.",
      ),
      h(
        "div",
        { class: "form-actions" },
        h("button", { type: "submit", class: "button primary" }, "Use this token"),
        has
          ? h(
              "button",
              {
                type: "button",
                class: "button",
                onClick: () => {
                  setAdminToken(null);
                  render();
                },
              },
              "Forget the admin token",
            )
          : null,
      ),
      log.element,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const token = fieldValue(form, "adminToken");
      if (token === "") return;
      const previous = session()?.adminToken ?? null;
      const previousScope = session()?.adminScope ?? null;
      setAdminToken(token);
      input.value = "";
      const ok = await runLogged(log, async (call) => {
        const { body } = await call(request("GET", sandboxPaths.adminScope, { admin: true }));
        setAdminToken(token, adminScopeOf(body?.scope));
        return "The sandbox accepted the admin token.";
      });
      if (!ok) setAdminToken(previous, previousScope);
      else {
        refusedNotice = null;
        render();
      }
    });
    fill(
      region,
      refusedNotice,
      h(
        "p",
        { class: has ? "notice notice-good" : "notice" },
        has
          ? describeScope(session()?.adminScope ?? null, session()?.organizationId ?? "")
          : "No admin token yet: the calls below will be refused until you give it.",
      ),
      form,
    );
  }

  render();
  void recheck();
  return region;

  /**
   * The token kept in this tab may be stale: a sandbox started at a shell makes a new admin token
   * each run, so after a restart every control would be refused with a bare 403. Asked once as
   * the page opens; a refused token is forgotten, and the page says why and what to do.
   */
  async function recheck() {
    const kept = session()?.adminToken ?? null;
    if (kept === null || (session()?.adminApi ?? "token") !== "token") return;
    try {
      const { body } = await request("GET", sandboxPaths.adminScope, { admin: true });
      setAdminToken(kept, adminScopeOf(body?.scope));
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 403)) return;
      setAdminToken(null);
      refusedNotice = h(
        "p",
        { class: "notice notice-bad", role: "alert", "data-admin-token-refused": "" },
        "The sandbox no longer accepts the admin token this tab held, so it is forgotten: a sandbox started at a shell makes a new admin token each run (was it restarted?). Paste the admin token it printed at start, or the SANDBOX_ADMIN_TOKEN it runs with, below; until then every control is refused.",
      );
    }
    render();
  }
}

/**
 * What the admin token of this tab may do, in words.
 * @param {"sandbox" | "organization" | null} scope
 * @param {string} organizationId
 */
function describeScope(scope, organizationId) {
  if (scope === "organization")
    return `An admin token is set for this tab: an admin token of organization ${organizationId}. It opens this organization's controls only; what acts on every organization (moving every clock, a rate for all) is refused.`;
  if (scope === "sandbox")
    return "An admin token is set for this tab: the sandbox's own admin token, which acts on every organization.";
  return "An admin token is set for this tab.";
}
