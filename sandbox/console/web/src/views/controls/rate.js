// @ts-check
// A yield source's rate (PUT /_sandbox/catalog/{positionKey}/rate): accrual follows it from now on.
import { request } from "../../api.js";
import { fieldValue, h } from "../../dom.js";
import { durationLabel, percent, when } from "../../format.js";
import { actionForm, field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

/**
 * The rate form over the catalog; an answer updates the entry, so the next choice shows it.
 * @param {import("../../payloads.js").StrategyCatalogEntry[]} catalog
 * @param {() => void} after called after each submission
 */
export function rateControl(catalog, after) {
  const sourceSelect = h(
    "select",
    { name: "positionKey" },
    catalog.map((source) =>
      h(
        "option",
        { value: source.positionKey },
        `${typeof source["displayName"] === "string" ? source["displayName"] : source.positionKey} (${percent(source.currentRateBps)}, ${durationLabel(source.maxProcessingTime)})`,
      ),
    ),
  );
  const rate = h("input", {
    name: "rate",
    type: "number",
    min: 0,
    step: 1,
    value: catalog[0]?.currentRateBps ?? 0,
    required: true,
    "data-api-field": "currentRateBps",
  });
  const rateField = field("rate-bps", "Rate (bps)", rate, "a yearly rate");
  // The hint reads what is typed, as a yearly percentage.
  const hint = /** @type {HTMLElement} */ (rateField.querySelector(".hint"));
  const showRate = () => {
    hint.textContent =
      rate.value.trim() === ""
        ? "A yearly rate in basis points: 430 bps = 4.30% a year"
        : `${rate.value.trim()} bps = ${percent(Number(rate.value))} a year`;
  };
  const entryOf = (/** @type {string} */ key) => catalog.find((source) => source.positionKey === key);
  sourceSelect.addEventListener("change", () => {
    rate.value = String(entryOf(sourceSelect.value)?.currentRateBps ?? 0);
    showRate();
  });
  rate.addEventListener("input", showRate);
  showRate();
  return [
    h(
      "p",
      { class: "hint" },
      "Accrual follows the new rate from now on. The change applies to this organization's view of the catalog only; other organizations keep their rates.",
    ),
    actionForm(
      "Set rate",
      [field("rate-source", "Yield source", sourceSelect), rateField],
      async (current, call) => {
        const key = fieldValue(current, "positionKey");
        const { body } = await call(
          request("PUT", sandboxPaths.catalogRate(key), {
            admin: true,
            body: { currentRateBps: Number(fieldValue(current, "rate")) },
          }),
        );
        const entry = entryOf(key);
        if (entry && typeof body?.currentRateBps === "number") entry.currentRateBps = body.currentRateBps;
        return `${key} now earns ${percent(body?.currentRateBps)}, from ${when(body?.rateUpdatedAt)}.`;
      },
      after,
    ),
  ];
}
