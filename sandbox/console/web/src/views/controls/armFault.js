// @ts-check
// Arming a fault for the organization: a payout leg of a wallet's next withdrawal fails
// (POST /_sandbox/faults/withdrawal-leg), its next strategy update fails
// (POST /_sandbox/faults/strategy-update), or API requests are answered with an error
// (POST /_sandbox/faults). What is armed is listed beside it (armedFaults.js).
import { request } from "../../api.js";
import { fieldValue, fill, h } from "../../dom.js";
import { walletName } from "../../format.js";
import { RefusedInPage } from "../../requestLog.js";
import { actionForm, field } from "./forms.js";
import { sandboxPaths, servicePaths } from "../../paths.js";

/** @typedef {"leg" | "strategy" | "http"} FaultKind */

/** The reason a planned failure gives unless one is typed: each kind's own, as the failure reads. */
const DEFAULT_REASON = {
  leg: "payout failed (injected from the console)",
  strategy: "rebalance failed (injected from the console)",
};

/**
 * The arm-a-fault form: its fields follow the kind chosen.
 * @param {import("../../payloads.js").PortfolioWallet[]} wallets the wallets a leg or strategy fault may name
 * @param {string | null} selected the wallet chosen at first (the page's `?wallet=`)
 * @param {() => void} after called after each submission
 */
export function armFaultControl(wallets, selected, after) {
  const kind = h(
    "select",
    { name: "kind" },
    h("option", { value: "leg" }, "A payout leg of the next withdrawal fails"),
    h("option", { value: "strategy" }, "The next strategy update fails"),
    h("option", { value: "http" }, "API requests are answered with an error"),
  );
  const faultWallet = h(
    "select",
    { name: "wallet", "data-api-field": "walletId" },
    wallets.map((wallet) =>
      h("option", { value: wallet.id, selected: wallet.id === selected }, walletName(wallet)),
    ),
  );
  const legKey = h(
    "select",
    { name: "legKey", "data-api-field": "legKey" },
    h("option", { value: "redeem" }, "redeem (and redeem_*)"),
    h("option", { value: "instant" }, "instant"),
  );
  const reason = h("input", {
    name: "reason",
    type: "text",
    value: DEFAULT_REASON.leg,
    maxlength: 500,
    "data-api-field": "reason",
  });
  const method = h(
    "select",
    { name: "method", "data-api-field": "method" },
    ["*", "GET", "POST", "PATCH", "PUT", "DELETE"].map((m) => h("option", { value: m }, m)),
  );
  const path = h("input", {
    name: "path",
    type: "text",
    value: servicePaths.walletWithdrawPattern,
    class: "mono",
    spellcheck: "false",
    // The sandbox checks the pattern (sandbox/domain/pathPattern.ts); its refusal is marked here.
    "data-api-field": "path",
  });
  const status = h(
    "select",
    { name: "status", "data-api-field": "status" },
    [503, 500, 429, 502, 504].map((code) => h("option", { value: code }, String(code))),
  );
  const times = h("input", {
    name: "times",
    type: "number",
    min: 1,
    max: 1000,
    step: 1,
    value: 1,
    "data-api-field": "times",
  });
  // Built on each change: a control moves into the wrapper its field makes.
  /** @type {Record<FaultKind, () => HTMLElement[]>} */
  const groups = {
    leg: () => [
      field("fault-wallet", "Wallet", faultWallet),
      field("fault-leg", "Leg", legKey),
      h("div", { class: "span-all" }, field("fault-reason", "Reason", reason)),
    ],
    strategy: () => [
      field("fault-wallet", "Wallet", faultWallet),
      h("div", { class: "span-all" }, field("fault-reason", "Reason", reason)),
    ],
    http: () => [
      field("fault-method", "Method", method),
      field("fault-status", "Status", status),
      h(
        "div",
        { class: "span-all" },
        field("fault-path", "Path pattern", path, ":name matches one path segment, * any characters"),
      ),
      field("fault-times", "Times", times),
    ],
  };
  const slot = h("div", { class: "form-grid span-all fault-fields" });
  const showKind = () => {
    // A reason still at a kind's default follows the kind chosen; one typed stays as typed.
    const chosen = /** @type {FaultKind} */ (kind.value);
    if (Object.values(DEFAULT_REASON).includes(reason.value) && chosen !== "http")
      reason.value = DEFAULT_REASON[chosen];
    fill(slot, (groups[chosen] ?? groups.leg)());
  };
  kind.addEventListener("change", showKind);
  showKind();
  return [
    h(
      "p",
      { class: "hint" },
      "Faults act on your organization only, on the requests or operations they name, in the order armed. The console's own reads never trigger them.",
    ),
    actionForm(
      "Arm fault",
      [h("div", { class: "span-all" }, field("fault-kind", "Fault", kind)), slot],
      async (current, call) => {
        const chosen = fieldValue(current, "kind");
        if (chosen === "http") {
          await call(
            request("POST", sandboxPaths.faults, {
              admin: true,
              body: {
                method: fieldValue(current, "method"),
                path: fieldValue(current, "path"),
                kind: "status",
                status: Number(fieldValue(current, "status")),
                times: Number(fieldValue(current, "times")),
              },
            }),
          );
          return "Fault armed: matching API requests of your organization are answered with that error, without being applied.";
        }
        const walletId = fieldValue(current, "wallet");
        // No wallet to name (the organization has none yet): said at the field, and nothing sent.
        if (walletId === "")
          throw new RefusedInPage("Not sent: choose the wallet whose operation should fail.", [
            {
              field: "walletId",
              reason:
                wallets.length === 0
                  ? "no wallet to choose: this organization has none yet. Create one under Wallets first."
                  : "choose a wallet",
            },
          ]);
        if (chosen === "strategy") {
          await call(
            request("POST", sandboxPaths.strategyUpdateFault, {
              admin: true,
              body: { walletId, reason: fieldValue(current, "reason") },
            }),
          );
          return "Fault armed: the wallet's next strategy update fails after its rebalance delay.";
        }
        await call(
          request("POST", sandboxPaths.withdrawalLegFault, {
            admin: true,
            body: {
              walletId,
              legKey: fieldValue(current, "legKey"),
              reason: fieldValue(current, "reason"),
            },
          }),
        );
        return "Fault armed: that leg of the wallet's next withdrawal fails when due, and its money returns to the wallet.";
      },
      after,
    ),
  ];
}
