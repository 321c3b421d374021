// @ts-check
// Sign-in: an API token decides the organization the console shows; an admin token, optional,
// is for the sandbox controls. Both are checked against the sandbox before anything is kept.
import { ApiError, request } from "../api.js";
import { fieldValue, h } from "../dom.js";
import { adminScopeOf, setAdminToken, signIn, signOut } from "../session.js";
import { pageHeader } from "./common.js";
import { consolePaths, sandboxPaths } from "../paths.js";

/** The API token `portfolio-wallet sandbox` accepts when SANDBOX_TOKENS is not set (docs/sandbox.md). */
const DEFAULT_TOKEN = "sandbox-token";

/**
 * Marks the token field a refusal is about, with the refusal tied to it; or clears every mark.
 * @param {HTMLFormElement} form
 * @param {"apiToken" | "adminToken" | null} name
 */
function markTokenField(form, name) {
  for (const input of form.querySelectorAll("input")) {
    const refused = input.name === name;
    if (refused) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    const hint = `${input.id}-hint`;
    input.setAttribute("aria-describedby", refused ? `${hint} sign-in-error` : hint);
  }
}

/** @type {import("./common.js").ViewFactory} */
export function signInView(main, ctx, _params, query) {
  const error = h("div", { id: "sign-in-error", role: "alert", class: "form-error" });
  const submit = h("button", { type: "submit", class: "button primary" }, "Sign in");
  const form = h(
    "form",
    { class: "stack", novalidate: true, "aria-describedby": "sign-in-about" },
    h(
      "div",
      { class: "field" },
      h("label", { for: "api-token" }, "API token"),
      h("input", {
        id: "api-token",
        name: "apiToken",
        type: "password",
        autocomplete: "off",
        spellcheck: "false",
        required: true,
        "aria-describedby": "api-token-hint",
      }),
      h(
        "p",
        { id: "api-token-hint", class: "hint" },
        "A token of this sandbox's SANDBOX_TOKENS. Without that setting, ",
        h("code", {}, "portfolio-wallet sandbox"),
        " accepts ",
        h("code", {}, DEFAULT_TOKEN),
        " (docs/sandbox.md).",
      ),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "admin-token" }, "Admin token ", h("span", { class: "muted" }, "(optional)")),
      h("input", {
        id: "admin-token",
        name: "adminToken",
        type: "password",
        autocomplete: "off",
        spellcheck: "false",
        "aria-describedby": "admin-token-hint",
      }),
      h(
        "p",
        { id: "admin-token-hint", class: "hint" },
        "For the sandbox controls (deposits, clock, rates, faults, approver keys): the token the sandbox was started with, ",
        h("code", {}, "--admin-token"),
        " or SANDBOX_ADMIN_TOKEN. You can also give it later, on the controls page.",
      ),
    ),
    error,
    h("div", { class: "form-actions" }, submit),
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    markTokenField(form, null);
    const apiToken = fieldValue(form, "apiToken");
    const adminToken = fieldValue(form, "adminToken");
    if (apiToken === "") {
      error.textContent = "Enter an API token: the console shows the organization it belongs to.";
      form.querySelector("input")?.focus();
      return;
    }
    submit.disabled = true;
    /** @type {"apiToken" | "adminToken" | null} the field a refusal is about (none when the sandbox did not answer) */
    let refused = null;
    try {
      let body;
      try {
        ({ body } = await request("GET", consolePaths.session, { token: apiToken }));
      } catch (refusal) {
        if (!(refusal instanceof ApiError) || refusal.status !== 401) throw refusal;
        refused = "apiToken";
        throw new Error(
          `${refusal.message.replace(/\.?$/, ".")} Use one of its SANDBOX_TOKENS, or ${DEFAULT_TOKEN} when it runs without that setting.`,
        );
      }
      signIn({
        apiToken,
        adminToken: adminToken === "" ? null : adminToken,
        organizationId: String(body.organizationId),
        adminApi: body.adminApi === "open" || body.adminApi === "off" ? body.adminApi : "token",
        adminScope: null,
      });
      if (adminToken !== "" && body.adminApi === "token") {
        try {
          const { body: scope } = await request("GET", sandboxPaths.adminScope, { admin: true });
          setAdminToken(adminToken, adminScopeOf(scope?.scope));
        } catch (adminError) {
          signOut();
          if (adminError instanceof ApiError) refused = "adminToken";
          throw new Error(
            `The sandbox accepted the API token but not the admin token. ${adminError instanceof Error ? adminError.message : String(adminError)}`,
          );
        }
      }
      for (const input of form.querySelectorAll("input")) input.value = "";
      const next = query.get("next");
      ctx.navigate(next !== null && next.startsWith("/") && !next.startsWith("//") ? next : "/wallets", {
        replace: true,
      });
    } catch (caught) {
      error.textContent = caught instanceof Error ? caught.message : String(caught);
      markTokenField(form, refused);
    } finally {
      submit.disabled = false;
    }
  });

  main.replaceChildren(
    h(
      "div",
      { class: "sign-in" },
      pageHeader("Sign in", { kicker: "Sandbox console" }),
      h(
        "section",
        { class: "card", "aria-label": "Sign in" },
        h(
          "p",
          { id: "sign-in-about" },
          "The console shows one organization: the one your API token belongs to, exactly as the API does.",
        ),
        query.get("reason") === "expired"
          ? h(
              "p",
              { class: "notice notice-bad", role: "alert" },
              "The sandbox no longer accepts the token this tab signed in with. Sign in again.",
            )
          : null,
        form,
        h(
          "p",
          { class: "hint" },
          "Tokens stay in this tab: in its memory and its session storage, for this sandbox's address only. They never go into the address bar, the page or the sandbox's logs.",
        ),
      ),
    ),
  );
  return { title: "Sign in", refresh: async () => {} };
}
