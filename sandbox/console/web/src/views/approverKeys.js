// @ts-check
// The approvals page's card of approver keys: the key this tab votes with, the keys kept in this
// browser and the approvers registered for the organization, each removable.
import { approver, loadKeys, registerNewApprover, removeApprover, useKey } from "../approver.js";
import { confirmAction } from "../confirm.js";
import { facts, fill, h, table, timeOf } from "../dom.js";
import { wholeId } from "./ids.js";
import { listKeys } from "../keyStore.js";
import { sandboxPaths } from "../paths.js";
import { requestLog, runLogged } from "../requestLog.js";
import { session } from "../session.js";

/**
 * The card's parts and how the page reaches into it: `drawn` settles once the card is drawn, and
 * `focusKeyButton` points the user at the key button when a vote needs a key first.
 * @param {{ decisionLog: ReturnType<typeof requestLog> }} page the page's vote log, cleared when a
 *   new key answers its "create an approver key first"
 */
export function approverKeys({ decisionLog }) {
  const keyRegion = h("div", { class: "region" });
  const keyLog = requestLog("Approver key result");
  /** @type {HTMLButtonElement | null} */
  let keyButton = null;
  const keyLists = h("div", { class: "region" });

  /**
   * @param {string} publicKey
   * @param {string} name
   */
  async function remove(publicKey, name) {
    const confirmed = await confirmAction({
      title: `Remove ${name}?`,
      message: h(
        "p",
        {},
        "The sandbox forgets this approver's public key, so its votes are refused from now on; this browser forgets its private key, if it kept it. Votes already counted stay counted.",
      ),
      confirmLabel: "Remove",
      danger: true,
    });
    if (confirmed === null) return;
    await runLogged(keyLog, async (call) => {
      await removeApprover(publicKey, call);
      return `Removed ${name}.`;
    });
    await renderKey();
  }

  /** @param {import("../keyStore.js").StoredKey} key */
  function useKeptKey(key) {
    useKey(key);
    void renderKey();
  }

  async function renderKey() {
    /** @type {{ kept: import("../keyStore.js").StoredKey[], registered: any[] | null }} */
    let keys = { kept: [], registered: null };
    try {
      keys = await loadKeys();
    } catch {
      // Without the admin token the registered approvers cannot be read; the kept keys still can.
      keys = { kept: await listKeys(session()?.organizationId ?? "").catch(() => []), registered: null };
      if (approver() === null) useKey(keys.kept[0] ?? null);
    }
    const signer = approver();
    const button = h(
      "button",
      { type: "button", class: signer === null ? "button primary" : "button" },
      signer === null ? "Create and register an approver key" : "Use a new key (another approver)",
    );
    keyButton = button;
    button.addEventListener("click", async () => {
      button.disabled = true;
      await runLogged(keyLog, async (call) => {
        const made = await registerNewApprover(call);
        // "Create an approver key first" no longer holds.
        if (decisionLog.showsFailure()) decisionLog.clear();
        return `Registered ${made.userName}. Its private key stays in this browser (IndexedDB, not extractable) and cannot be read out.`;
      });
      await renderKey();
    });
    fill(
      keyRegion,
      signer === null
        ? h(
            "p",
            {},
            "Approvers vote at the signing provider with a P-256 key, each request stamped with it. This browser makes one (WebCrypto, not extractable), keeps it across reloads, and registers its public key with the sandbox, an admin call that needs the admin token.",
          )
        : facts([
            ["Voting as", h("span", { "data-current-approver": signer.key.publicKey }, signer.userName)],
            ["Public key", wholeId(signer.key.publicKey, "approver public key")],
          ]),
      h("div", { class: "form-actions" }, button),
    );
    const registered = keys.registered;
    const registeredKeys = new Set((registered ?? []).map((key) => String(key.publicKey)));
    const keptKeys = new Set(keys.kept.map((key) => key.publicKey));
    fill(
      keyLists,
      h("h3", {}, "Keys kept in this browser"),
      keys.kept.length === 0
        ? h("p", { class: "muted" }, "None yet.")
        : table({
            caption: "Approver keys kept in this browser",
            captionHidden: true,
            className: "data-table compact",
            columns: ["Approver", "Public key", "Registered", "Created", ""],
            rows: keys.kept.map((key) => [
              key.userName,
              wholeId(key.publicKey, "approver public key"),
              registered === null
                ? "unknown (no admin token)"
                : registeredKeys.has(key.publicKey)
                  ? "yes"
                  : "no",
              timeOf(key.createdAt),
              h(
                "span",
                { class: "button-row" },
                signer?.key.publicKey !== key.publicKey &&
                  (registered === null || registeredKeys.has(key.publicKey))
                  ? h(
                      "button",
                      {
                        type: "button",
                        class: "button small",
                        "aria-label": `Vote as ${key.userName}`,
                        onClick: () => useKeptKey(key),
                      },
                      "Use",
                    )
                  : null,
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small danger",
                    "aria-label": `Remove ${key.userName}`,
                    onClick: () => void remove(key.publicKey, key.userName),
                  },
                  "Remove",
                ),
              ),
            ]),
            rowAttrs: (index) => ({ "data-kept-key": keys.kept[index]?.publicKey }),
          }),
      h("h3", {}, "Registered approvers of the organization"),
      registered === null
        ? h(
            "p",
            { class: "muted" },
            `Listed once an admin token is given (GET ${sandboxPaths.signingApiKeys} is an admin call).`,
          )
        : registered.length === 0
          ? h("p", { class: "muted" }, "None.")
          : table({
              caption: "Approver keys registered for the organization",
              captionHidden: true,
              className: "data-table compact",
              columns: ["Approver", "Public key", "Kept in this browser", ""],
              rows: registered.map((key) => [
                String(key.userName ?? "—"),
                wholeId(String(key.publicKey), "approver public key"),
                keptKeys.has(String(key.publicKey)) ? "yes" : "no",
                h(
                  "button",
                  {
                    type: "button",
                    class: "button small danger",
                    "aria-label": `Remove ${String(key.userName ?? key.publicKey)}`,
                    onClick: () => void remove(String(key.publicKey), String(key.userName ?? key.publicKey)),
                  },
                  "Remove",
                ),
              ]),
              rowAttrs: (index) => ({ "data-registered-key": registered[index]?.publicKey }),
            }),
    );
  }
  return {
    parts: [keyRegion, keyLog.element, keyLists],
    drawn: renderKey(),
    focusKeyButton: () => keyButton?.focus(),
  };
}
