// @ts-check
// What an action sent and what came back, shown under the action: the page teaches the API.
import { followUpTimedOutAction } from "./actionFollowUp.js";
import { ApiError, requestText } from "./api.js";
import { codeForms } from "./copyAsCode.js";
import { copyButton } from "./copy.js";
import { announce, fill, h } from "./dom.js";
import {
  clearFieldErrors,
  hasFieldErrors,
  refusalDetails,
  refusalInFormWords,
  showFieldErrors,
} from "./fieldErrors.js";

/** @typedef {import("./api.js").Answer} Answer */
/** @typedef {import("./api.js").SentRequest} SentRequest */

const STATUS_TEXT = /** @type {Record<number, string>} */ ({
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
});

/**
 * @param {number} status
 */
const statusLine = (status) => (status === 0 ? "no answer" : `${status} ${STATUS_TEXT[status] ?? ""}`.trim());

/**
 * @param {unknown} body
 */
const bodyText = (body) =>
  body === null || body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body, null, 2);

/**
 * A region that shows the outcome of an action: a sentence, then each request sent with its answer.
 * @param {string} [label] what the region is called for assistive technology
 */
export function requestLog(label = "Result") {
  const element = h("div", { class: "request-log", "aria-label": label, role: "group", hidden: true });
  /** Outcomes shown or cleared so far: a follow-up belongs to the outcome it follows. */
  let outcomesShown = 0;
  return {
    element,
    outcomesShown: () => outcomesShown,
    clear() {
      outcomesShown += 1;
      element.hidden = true;
      delete element.dataset["outcome"];
      fill(element);
    },
    /** Whether it shows a failure now. */
    showsFailure() {
      return element.dataset["outcome"] === "failed";
    },
    /**
     * @param {{ ok: boolean, message: string, exchanges: { sent: SentRequest, status: number, body: unknown }[] }} outcome
     */
    show(outcome) {
      outcomesShown += 1;
      element.hidden = false;
      element.dataset["outcome"] = outcome.ok ? "succeeded" : "failed";
      fill(
        element,
        h(
          "p",
          {
            class: outcome.ok ? "notice notice-good" : "notice notice-bad",
            role: outcome.ok ? "status" : "alert",
          },
          outcome.message,
        ),
        outcome.exchanges.map((exchange, index) =>
          h(
            "details",
            { class: "exchange", open: index === outcome.exchanges.length - 1 },
            h(
              "summary",
              {},
              h("span", { class: "method" }, exchange.sent.method),
              " ",
              h("code", {}, exchange.sent.path),
              " → ",
              h(
                "span",
                { class: exchange.status >= 200 && exchange.status < 300 ? "ok" : "bad" },
                statusLine(exchange.status),
              ),
            ),
            h("p", { class: "exchange-label" }, "Request sent"),
            // Focusable: a long line scrolls the block sideways, and a keyboard must reach it too.
            h("pre", { class: "code", tabindex: 0 }, h("code", {}, requestText(exchange.sent))),
            copyAsCode(exchange.sent),
            exchange.status === 0
              ? null
              : [
                  h("p", { class: "exchange-label" }, `Answer: ${statusLine(exchange.status)}`),
                  bodyText(exchange.body) === ""
                    ? null
                    : h("pre", { class: "code", tabindex: 0 }, h("code", {}, bodyText(exchange.body))),
                ],
          ),
        ),
      );
    },
    /**
     * What became of the action shown, learned after it (actionFollowUp.js), under its first sentence.
     * @param {import("./actionFollowUp.js").FollowUp} followUp
     */
    follow(followUp) {
      if (followUp.kind === "applied") element.dataset["outcome"] = "succeeded";
      element.firstElementChild?.after(
        h(
          "p",
          {
            class: followUp.kind === "applied" ? "notice notice-good" : "notice",
            role: "status",
            "data-follow-up": followUp.kind,
          },
          followUp.message,
        ),
      );
    },
  };
}

/**
 * The request as code a user can run (copyAsCode.js), folded under "Copy as code", each form with
 * its own Copy button.
 * @param {SentRequest} sent
 */
function copyAsCode(sent) {
  const forms = codeForms(sent, window.location.origin);
  if (forms.length === 0)
    return h(
      "p",
      { class: "exchange-note" },
      "Stamped in this browser with the approver's key, over these exact bytes: no copied command can sign it. From code, approveSigningActivity of @portfolio-wallet/pulumi votes with your own key (docs/approvals.md).",
    );
  return h(
    "details",
    { class: "copy-as-code" },
    h("summary", {}, "Copy as code"),
    forms.flatMap((form) => {
      const code = h("pre", { class: "code", tabindex: 0, "data-code": form.kind }, h("code", {}, form.text));
      return [
        h(
          "div",
          { class: "code-form-head" },
          h("p", { class: "exchange-label" }, form.title),
          copyButton({ text: () => form.text, selectable: code, what: form.what }),
        ),
        code,
      ];
    }),
    h(
      "p",
      { class: "exchange-note" },
      "Set API_TOKEN (and ADMIN_TOKEN for the admin API) in your shell or environment first: the tokens are never written here.",
      sent.body?.includes('"requestId"')
        ? " The body's requestId is this request's: sent again, the sandbox answers with what it made then; change it to make another."
        : "",
    ),
  );
}

/**
 * A request the page refuses before sending it, for the fields it names (`field` as the API names
 * it, the `data-api-field` of its control): shown and marked as the sandbox's own refusals are,
 * with nothing sent.
 */
export class RefusedInPage extends Error {
  /**
   * @param {string} message the sentence shown above the form, naming the fields
   * @param {{ field: string, reason: string }[]} details
   */
  constructor(message, details) {
    super(message);
    this.name = "RefusedInPage";
    this.details = details;
  }
}

/** Forms whose edits already clear their stale messages. */
const watched = new WeakSet();

/**
 * Clears a form's failure once it is stale: editing a field the sandbox refused clears that
 * field's message; once no field is marked, the failure above them goes too. A failure naming no
 * field (the sandbox did not answer, a refusal of the whole request) goes at the first edit.
 * @param {HTMLFormElement} form
 * @param {ReturnType<typeof requestLog>} log
 */
function clearWhenEdited(form, log) {
  if (watched.has(form)) return;
  watched.add(form);
  const onEdit = (/** @type {Event} */ event) => {
    const field = event.target instanceof HTMLElement ? event.target.dataset["apiField"] : undefined;
    if (field !== undefined) clearFieldErrors(form, field);
    // A field judged against this one (an address against its chain): its refusal is stale too.
    const dependent = event.target instanceof HTMLElement ? event.target.dataset["staleField"] : undefined;
    if (dependent !== undefined) clearFieldErrors(form, dependent);
    if (log.showsFailure() && !hasFieldErrors(form)) log.clear();
  };
  form.addEventListener("input", onEdit);
  form.addEventListener("change", onEdit);
}

/**
 * Runs an action made of API calls, and shows what each sent and got in `log`. `run` receives a
 * `call` to make its requests with, and returns the sentence to show on success. With a `form`,
 * the fields a refusal names are marked at their controls (fieldErrors.js).
 * @param {ReturnType<typeof requestLog>} log
 * @param {(call: (answer: Promise<Answer>) => Promise<Answer>) => Promise<string>} run
 * @param {{ form?: HTMLFormElement }} [options]
 * @returns {Promise<boolean>} whether it succeeded
 */
export async function runLogged(log, run, options = {}) {
  const { form } = options;
  if (form !== undefined) {
    clearWhenEdited(form, log);
    clearFieldErrors(form);
  }
  /** @type {{ sent: SentRequest, status: number, body: unknown }[]} */
  const exchanges = [];
  /** @param {Promise<Answer>} pending */
  const call = async (pending) => {
    try {
      const answer = await pending;
      exchanges.push({ sent: answer.sent, status: answer.status, body: answer.body });
      return answer;
    } catch (error) {
      if (error instanceof ApiError)
        exchanges.push({ sent: error.sent, status: error.status, body: error.body });
      throw error;
    }
  };
  try {
    const message = await run(call);
    log.show({ ok: true, message, exchanges });
    return true;
  } catch (error) {
    let message = error instanceof Error ? error.message : String(error);
    if (form !== undefined && error instanceof ApiError) {
      const details = refusalDetails(error.body);
      showFieldErrors(form, details);
      // Said with the form's labels, not the API's field names, when every field is the form's.
      const inWords = refusalInFormWords(form, details);
      if (inWords !== null)
        message = `Refused (${error.status}${error.code === null ? "" : ` ${error.code}`}): ${inWords}. Correct the marked field and try again.`;
    }
    if (form !== undefined && error instanceof RefusedInPage) showFieldErrors(form, error.details);
    log.show({ ok: false, message, exchanges });
    const followUp = followUpTimedOutAction(error);
    if (followUp !== null) {
      const shown = log.outcomesShown();
      // Said where the action was made; if that place shows something else by then, said aloud.
      void followUp.then((known) =>
        log.outcomesShown() === shown ? log.follow(known) : announce(known.message),
      );
    }
    return false;
  }
}
