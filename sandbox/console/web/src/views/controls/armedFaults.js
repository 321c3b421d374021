// @ts-check
// The faults armed for the organization (GET /_sandbox/faults): HTTP faults and planned leg and
// strategy-update failures, each with every field it has (new kinds and fields show without a
// change here) and a Disarm button (DELETE /_sandbox/faults/{id}); and Clear all.
import { request } from "../../api.js";
import { fillIfChanged, h } from "../../dom.js";
import { requestLog, runLogged } from "../../requestLog.js";
import { sandboxPaths } from "../../paths.js";

/** Fields every fault has, shown in its title or its "Fires" sentence rather than among its details. */
const SHOWN_ELSEWHERE = new Set([
  "id",
  "organizationId",
  "kind",
  "method",
  "path",
  "times",
  "after",
  "remaining",
  "passesLeft",
]);

/**
 * A fault's fields in the words of the form that arms them; a field a newer sandbox adds shows
 * under its own name rather than not at all.
 * @type {Record<string, string>}
 */
const FIELD_WORDS = {
  walletId: "Wallet",
  legKey: "Leg",
  reason: "Reason",
  status: "Answer status",
  action: "Answer",
  delayMs: "Delay (ms)",
  retryAfterSeconds: "Retry-After (s)",
  maxInFlight: "At most in flight",
};

/** @param {number} count @param {string} one @param {string} many */
const counted = (count, one, many) => `${count} ${count === 1 ? one : many}`;

/**
 * When an HTTP fault applies, in words: `passesLeft` matching requests still pass untouched
 * first, then it answers the next `remaining` ones and disarms itself (faults.ts).
 * @param {import("../../payloads.js").ArmedFault} fault
 */
function firesWhen(fault) {
  if (!("remaining" in fault) || typeof fault.remaining !== "number") return null;
  const passes = typeof fault.passesLeft === "number" ? fault.passesLeft : 0;
  const first =
    passes === 0
      ? "Fires on the next matching request"
      : `Lets the next ${counted(passes, "matching request", "matching requests")} pass, then fires`;
  const then =
    fault.remaining === 1
      ? "once, then disarms itself"
      : `on ${counted(fault.remaining, "request", "requests")} in a row, then disarms itself`;
  return `${first} ${then}.`;
}

/** @param {import("../../payloads.js").ArmedFault} fault */
function describe(fault) {
  if (fault.kind === "withdrawal-leg") return `The ${fault.legKey} leg of the next withdrawal fails`;
  if (fault.kind === "strategy-update") return "The next strategy update fails";
  return `${fault.method} ${fault.path} → ${fault.kind}`;
}

/**
 * @param {() => void} after reads the page again
 * @param {() => Map<string, string>} walletNames wallet id → name, for planned failures
 */
export function armedFaults(after, walletNames) {
  const list = h("div", { class: "region", "aria-live": "polite" });
  const log = requestLog("Disarm result");
  const clearButton = h("button", { type: "button", class: "button" }, "Clear all faults");
  clearButton.addEventListener("click", async () => {
    await runLogged(log, async (call) => {
      await call(request("DELETE", sandboxPaths.faults, { admin: true }));
      return "Every fault of your organization is cleared, planned leg and strategy failures included.";
    });
    await refresh();
    after();
  });

  /** @param {import("../../payloads.js").ArmedFault} fault */
  async function disarm(fault) {
    await runLogged(log, async (call) => {
      await call(request("DELETE", sandboxPaths.fault(fault.id), { admin: true }));
      return `Disarmed: ${describe(fault)}.`;
    });
    await refresh();
  }

  async function refresh() {
    let body;
    try {
      ({ body } = await request("GET", sandboxPaths.faults, { admin: true }));
    } catch {
      fillIfChanged(list, "refused", () =>
        h("p", { class: "muted" }, "Armed faults are listed once the sandbox accepts the admin token."),
      );
      return;
    }
    /** @type {import("../../payloads.js").ArmedFault[]} */
    const all = [
      ...(Array.isArray(body?.faults) ? body.faults : []),
      ...(Array.isArray(body?.planned) ? body.planned : []),
    ];
    const names = walletNames();
    // The wallets' names are part of what is shown: the list may first render before the page has
    // read the wallets, and must render again once it knows their names.
    fillIfChanged(list, JSON.stringify([all, [...names]]), () =>
      all.length === 0
        ? h("p", { class: "muted" }, "None armed.")
        : h(
            "ul",
            { class: "armed-faults" },
            all.map((fault) =>
              h(
                "li",
                { "data-fault-id": fault.id, "data-fault-kind": fault.kind },
                h(
                  "div",
                  { class: "armed-fault-head" },
                  h("code", { class: "break" }, describe(fault)),
                  h(
                    "button",
                    {
                      type: "button",
                      class: "button small",
                      "aria-label": `Disarm: ${describe(fault)}`,
                      onClick: () => void disarm(fault),
                    },
                    "Disarm",
                  ),
                ),
                firesWhen(fault) === null ? null : h("p", { class: "fault-fires" }, firesWhen(fault)),
                h(
                  "dl",
                  { class: "fault-fields" },
                  Object.entries(fault)
                    .filter(([name]) => !SHOWN_ELSEWHERE.has(name))
                    .map(([name, value]) =>
                      h(
                        "div",
                        {},
                        h("dt", {}, FIELD_WORDS[name] ?? name),
                        h(
                          "dd",
                          {},
                          name === "walletId" && names.has(String(value))
                            ? `${names.get(String(value))} (${String(value)})`
                            : typeof value === "object"
                              ? JSON.stringify(value)
                              : String(value),
                        ),
                      ),
                    ),
                ),
              ),
            ),
          ),
    );
  }

  const element = h(
    "div",
    {},
    h("div", { class: "subsection-head" }, h("h3", {}, "Armed faults"), clearButton),
    list,
    log.element,
  );
  return { element, refresh };
}
