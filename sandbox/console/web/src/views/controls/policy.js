// @ts-check
// The organization's approval policy (GET and PUT /_sandbox/policy): how many approvers must sign
// a strategy update or a withdrawal before it proceeds.
import { request } from "../../api.js";
import { fieldValue, h } from "../../dom.js";
import { actionForm, field } from "./forms.js";
import { sandboxPaths } from "../../paths.js";

/** @param {string} name */
const approvalsInput = (name) => h("input", { name, type: "number", min: 0, max: 10, step: 1, value: 0 });

/**
 * The policy form, filled with the current policy once the sandbox answers.
 * @param {() => void} after called after each submission
 */
export function policyControl(after) {
  const strategy = approvalsInput("strategyUpdateApprovals");
  const withdrawal = approvalsInput("withdrawalApprovals");
  const form = actionForm(
    "Save policy",
    [
      field("policy-strategy", "Approvals per strategy update", strategy),
      field("policy-withdrawal", "Approvals per withdrawal", withdrawal),
    ],
    async (current, call) => {
      const { body } = await call(
        request("PUT", sandboxPaths.policy, {
          admin: true,
          body: {
            strategyUpdateApprovals: Number(fieldValue(current, "strategyUpdateApprovals")),
            withdrawalApprovals: Number(fieldValue(current, "withdrawalApprovals")),
          },
        }),
      );
      return `Policy saved: ${body?.strategyUpdateApprovals} approval(s) per strategy update, ${body?.withdrawalApprovals} per withdrawal. It applies to operations requested from now on.`;
    },
    after,
  );
  request("GET", sandboxPaths.policy, { admin: true })
    .then(({ body }) => {
      strategy.value = String(body?.strategyUpdateApprovals ?? 0);
      withdrawal.value = String(body?.withdrawalApprovals ?? 0);
    })
    .catch(() => {
      // Without the admin token the current policy is unknown; saving shows the refusal.
    });
  return [
    h(
      "p",
      { class: "hint" },
      "How many approvers must sign before a strategy update or a withdrawal of your organization proceeds (0: none).",
    ),
    form,
  ];
}
