// @ts-check
// The admin token of this tab: what the sandbox controls send as X-Sandbox-Admin-Token, checked
// with a harmless admin call (GET /_sandbox/admin-scope) before it is kept, which also says what
// it acts on: the whole sandbox, or this organization only. When the sandbox's admin API is open
// or off, a notice says so instead.
import { request } from "../../api.js";
import { fieldValue, fill, h } from "../../dom.js";
import { requestLog, runLogged } from "../../requestLog.js";
import { adminScopeOf, session, setAdminToken } from "../../session.js";
import { field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

/** The admin token control, redrawn when the token is given or forgotten. */
export function adminTokenControl() {
  const region = h("div", { class: "region" });

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
      else render();
    });
    fill(
      region,
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
  return region;
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
