// @ts-check
// A wallet's strategy updates: a form to change the target allocation (PATCH .../strategy), and
// every update with its status, approval and failure reason.
import { newRequestId, request } from "../api.js";
import { card, fill, fillIfChanged, h, statusPill, table, timeOf } from "../dom.js";
import { moneyInText, percent, words } from "../format.js";
import { requestLog, runLogged } from "../requestLog.js";
import { weightEditor } from "../weights.js";
import { wholeId } from "./ids.js";
import { failure, link, loading } from "./common.js";
import { objectPath } from "./itemLinks.js";
import { consolePaths, servicePaths } from "../paths.js";

/** A target allocation in words: "tbills 60.00%, syrupUsdc 40.00%". @param {{ positionKey: string, targetWeightBps: number }[]} positions */
export const allocationText = (positions) =>
  positions.map((position) => `${position.positionKey} ${percent(position.targetWeightBps)}`).join(", ");

/**
 * @param {import("./common.js").ViewContext} ctx
 * @param {string} walletId
 * @param {ReturnType<typeof import("./itemLinks.js").itemFocus>} focus the update the address picks out, if any
 * @returns {import("./wallet.js").WalletSection}
 */
export function walletStrategy(ctx, walletId, focus) {
  const formRegion = h("div", { class: "region" }, loading("Reading the catalog…"));
  const list = h("div", { class: "region" }, loading("Reading the strategy updates…"));
  const element = h(
    "div",
    { class: "stack-lg" },
    card("Change the target allocation", formRegion, { id: "reweight-heading" }),
    card("Strategy updates", list, { id: "updates-heading", className: "flush" }),
  );

  let formBuilt = false;
  // The target the wallet holds now: read again on every refresh, since an update that completes
  // (after its approval, or at once) changes it while this page stays open.
  const currentTarget = h("span", { "data-current-target": "" });
  /** @param {import("../payloads.js").PortfolioWallet} wallet */
  async function buildForm(wallet) {
    formBuilt = true;
    let catalog;
    try {
      const { body } = await request("GET", servicePaths.strategies);
      catalog = Array.isArray(body?.strategies) ? body.strategies : [];
    } catch (error) {
      formBuilt = false;
      fill(formRegion, failure(error));
      return;
    }
    /** @type {Record<string, number>} */
    const current = {};
    for (const position of wallet.strategyConfig?.positions ?? [])
      current[position.positionKey] = position.targetWeightBps;
    const editor = weightEditor(catalog, current, "reweight");
    const log = requestLog("Strategy update result");
    const submit = h("button", { type: "submit", class: "button primary" }, "Request strategy update");
    const form = h(
      "form",
      { class: "stack", id: "reweight-form" },
      editor.element,
      h("div", { class: "form-actions" }, submit),
      log.element,
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      submit.disabled = true;
      await runLogged(
        log,
        async (call) => {
          const { body } = await call(
            request("PATCH", servicePaths.walletStrategy(walletId), {
              body: { requestId: newRequestId(), positions: editor.positions() },
            }),
          );
          return body?.status === "pending_approval"
            ? "Strategy update requested. It waits for approval: approve it under Approvals."
            : `Strategy update requested: ${words(body?.status)}. The wallet rebalances once it completes.`;
        },
        { form },
      );
      submit.disabled = false;
      ctx.refreshNow();
    });
    fill(
      formRegion,
      h(
        "p",
        { class: "hint" },
        "Current target: ",
        currentTarget,
        ". With an approval policy, the update waits in pending approval until approvers sign it.",
      ),
      form,
    );
  }

  return {
    element,
    async refresh(wallet) {
      const target = allocationText(wallet.strategyConfig?.positions ?? []);
      if (currentTarget.textContent !== target) currentTarget.textContent = target;
      if (!formBuilt) await buildForm(wallet);
      // An address naming one update reads the most the list gives, so an older one is still found.
      const limit = focus.id === null ? 25 : 100;
      const { body } = await request("GET", consolePaths.walletStrategyUpdates(walletId, { limit }));
      /** @type {import("../payloads.js").StrategyUpdate[]} */
      const updates = Array.isArray(body?.data) ? body.data : [];
      fillIfChanged(list, JSON.stringify(updates), () =>
        updates.length === 0
          ? h("div", { class: "empty" }, h("p", {}, "No strategy updates yet."))
          : table({
              caption: "Strategy updates, newest first",
              captionHidden: true,
              columns: [
                "Requested",
                "Update",
                "Status",
                "Target allocation",
                "Approval",
                "Failure reason",
                "Last change",
              ],
              rows: updates.map((update) => [
                timeOf(update.createdAt),
                wholeId(update.id, "strategy update id", {
                  path: objectPath({ kind: "strategy_update", id: update.id }),
                }),
                statusPill(update.status),
                allocationText(update.positions ?? []),
                update.signingActivityId
                  ? update.status === "pending_approval"
                    ? link("/approvals", "awaiting approval")
                    : words(update.signingActivityStatus)
                  : h("span", { class: "muted" }, "not needed"),
                update.failureReason ? moneyInText(update.failureReason) : h("span", { class: "muted" }, "—"),
                timeOf(update.updatedAt),
              ]),
              rowAttrs: (index) => ({
                "data-update-id": updates[index]?.id,
                "data-status": updates[index]?.status,
              }),
            }),
      );
      await focus.mark(list, limit);
    },
  };
}
