// @ts-check
// Creating a wallet: a label and a target allocation over the catalog's yield sources.
import { TOTAL_WEIGHT_BPS } from "../../../../../sdk/nodejs/contract/basisPoints.ts";
import { newRequestId, request } from "../api.js";
import { announce, fieldValue, fill, h } from "../dom.js";
import { servicePaths } from "../paths.js";
import { requestLog, runLogged } from "../requestLog.js";
import { weightEditor } from "../weights.js";
import { failure, link, loading, pageHeader } from "./common.js";

/**
 * Weights spread evenly over the sources, the remainder on the first, so a new wallet starts valid.
 * @param {{ positionKey: string }[]} catalog
 */
function evenWeights(catalog) {
  /** @type {Record<string, number>} */
  const weights = {};
  const share = Math.floor(TOTAL_WEIGHT_BPS / Math.max(1, catalog.length));
  catalog.forEach((source, index) => {
    weights[source.positionKey] = share + (index === 0 ? TOTAL_WEIGHT_BPS - share * catalog.length : 0);
  });
  return weights;
}

/** @type {import("./common.js").ViewFactory} */
export function newWalletView(main, ctx) {
  const body = h("div", {}, loading("Reading the yield-source catalog…"));
  main.replaceChildren(
    pageHeader("Create a wallet", {
      kicker: link("/wallets", "Wallets"),
      sub: "A portfolio wallet gets a deposit address on every chain and invests what it receives by these target weights.",
    }),
    h("section", { class: "card", "aria-label": "New wallet" }, body),
  );

  void (async () => {
    let catalog;
    try {
      const { body: answer } = await request("GET", servicePaths.strategies);
      catalog = Array.isArray(answer?.strategies) ? answer.strategies : [];
    } catch (error) {
      fill(body, failure(error));
      return;
    }
    const editor = weightEditor(catalog, evenWeights(catalog), "new-wallet");
    const log = requestLog("Create wallet result");
    const submit = h("button", { type: "submit", class: "button primary" }, "Create wallet");
    const form = h(
      "form",
      { class: "stack", id: "new-wallet-form" },
      h(
        "div",
        { class: "field" },
        h("label", { for: "wallet-label" }, "Label ", h("span", { class: "muted" }, "(optional)")),
        h("input", {
          id: "wallet-label",
          name: "label",
          type: "text",
          maxlength: 200,
          autocomplete: "off",
          "data-api-field": "label",
        }),
      ),
      h("fieldset", {}, h("legend", {}, "Target allocation"), editor.element),
      h("div", { class: "form-actions" }, submit),
      log.element,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      const label = fieldValue(form, "label");
      /** @type {string | null} */
      let createdId = null;
      await runLogged(
        log,
        async (call) => {
          const { body: wallet } = await call(
            request("POST", servicePaths.createWallet, {
              body: {
                requestId: newRequestId(),
                ...(label === "" ? {} : { label }),
                positions: editor.positions(),
              },
            }),
          );
          createdId = String(wallet.id);
          return "Wallet created.";
        },
        { form },
      );
      submit.disabled = false;
      if (createdId !== null) {
        announce("Wallet created");
        ctx.navigate(`/wallets/${createdId}`);
      }
    });
    fill(body, form);
  })();

  return { title: "Create a wallet", refresh: async () => {} };
}
