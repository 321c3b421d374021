// @ts-check
// This tab's approver: a key made in the page (stamp.js), registered with the sandbox as an
// approver of the organization, and the signing-provider calls it stamps (docs/approvals.md).
import { request } from "./api.js";
import { session } from "./session.js";
import { createApproverKey, stampBody } from "./stamp.js";

/** @typedef {import("./api.js").Answer} Answer */

/**
 * @typedef {object} Approver
 * @property {import("./stamp.js").ApproverKey} key
 * @property {string} userName
 */

/** @type {Approver | null} */
let current = null;

/** The approver of this tab, if one was made (kept in this page's memory only). */
export function approver() {
  return current;
}

/**
 * Makes a new key and registers its public key as an approver of the organization: an admin
 * call (POST /_sandbox/signing/api-keys). The key replaces this tab's previous one only once
 * the sandbox accepted it.
 * @param {(answer: Promise<Answer>) => Promise<Answer>} call
 */
export async function registerNewApprover(call) {
  const key = await createApproverKey();
  const userName = `console approver ${key.publicKey.slice(2, 10)}`;
  await call(
    request("POST", "/_sandbox/signing/api-keys", {
      admin: true,
      body: { publicKey: key.publicKey, userName },
    }),
  );
  current = { key, userName };
  return current;
}

/**
 * A signing-provider request stamped with this tab's key: no bearer token, the stamp is the
 * authentication, over exactly the bytes sent.
 * @param {Approver} signer
 * @param {string} path
 * @param {Record<string, unknown>} body
 */
async function stamped(signer, path, body) {
  const bodyText = JSON.stringify(body);
  const stamp = await stampBody(signer.key, bodyText);
  return request("POST", path, {
    token: null,
    signing: true,
    bodyText,
    extraHeaders: [
      ["X-Stamp", stamp, `${stamp.slice(0, 40)}… (base64url of { publicKey, scheme, signature })`],
    ],
  });
}

/**
 * Votes on a signing activity as a Turnkey client does: fetch the activity to read its
 * fingerprint, then submit the approval or rejection naming that fingerprint.
 * @param {Approver} signer
 * @param {string} activityId
 * @param {"approve" | "reject"} decision
 * @param {(answer: Promise<Answer>) => Promise<Answer>} call
 * @returns {Promise<any>} the activity after the vote
 */
export async function vote(signer, activityId, decision, call) {
  const organizationId = session()?.organizationId ?? "";
  const { body: fetched } = await call(
    stamped(signer, "/public/v1/query/get_activity", { organizationId, activityId }),
  );
  const fingerprint = fetched?.activity?.fingerprint;
  if (typeof fingerprint !== "string" || fingerprint === "")
    throw new Error(
      "The signing provider's activity carries no fingerprint, so nothing was voted (docs/approvals.md).",
    );
  const { body: decided } = await call(
    stamped(signer, `/public/v1/submit/${decision}_activity`, {
      type: decision === "approve" ? "ACTIVITY_TYPE_APPROVE_ACTIVITY" : "ACTIVITY_TYPE_REJECT_ACTIVITY",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { fingerprint },
    }),
  );
  return decided?.activity;
}
