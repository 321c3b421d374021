// @ts-check
// This tab's approver: a key made in the page (stamp.js), registered with the sandbox as an
// approver of the organization, and the signing-provider calls it stamps (docs/approvals.md).
import { ApiError, request } from "./api.js";
import { deleteKey, listKeys, saveKey } from "./keyStore.js";
import { session } from "./session.js";
import { createApproverKey, stampBody } from "./stamp.js";
import { sandboxPaths, signingPaths } from "./paths.js";

/** @typedef {import("./api.js").Answer} Answer */

/**
 * @typedef {object} Approver
 * @property {import("./stamp.js").ApproverKey} key
 * @property {string} userName
 */

/** @type {Approver | null} */
let current = null;

/** The approver this tab votes with, if one was made or chosen. */
export function approver() {
  return current;
}

/**
 * Votes with a key this browser keeps (keyStore.js), or with none.
 * @param {import("./keyStore.js").StoredKey | null} stored
 */
export function useKey(stored) {
  current =
    stored === null
      ? null
      : { key: { privateKey: stored.privateKey, publicKey: stored.publicKey }, userName: stored.userName };
}

/**
 * This browser's keys for the organization, and which of them the sandbox has registered (a
 * sandbox started afresh knows none of them). The tab votes with the newest registered one
 * unless it already chose.
 * @returns {Promise<{ kept: import("./keyStore.js").StoredKey[], registered: any[] }>}
 */
export async function loadKeys() {
  const organizationId = session()?.organizationId ?? "";
  const kept = await listKeys(organizationId);
  const { body } = await request("GET", sandboxPaths.signingApiKeys, { admin: true });
  const registered = Array.isArray(body?.data) ? body.data : [];
  const known = new Set(registered.map((/** @type {any} */ key) => key.publicKey));
  if (current !== null && !known.has(current.key.publicKey)) current = null;
  if (current === null) useKey(kept.find((key) => known.has(key.publicKey)) ?? null);
  return { kept, registered };
}

/**
 * Removes an approver: the sandbox forgets its public key (DELETE /_sandbox/signing/api-keys/…,
 * an admin call), and this browser its private key, if it kept it.
 * @param {string} publicKey
 * @param {(answer: Promise<Answer>) => Promise<Answer>} call
 */
export async function removeApprover(publicKey, call) {
  try {
    await call(request("DELETE", sandboxPaths.signingApiKey(publicKey), { admin: true }));
  } catch (error) {
    // Not registered (any more): forgetting it here is still what was asked.
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  await deleteKey(publicKey);
  if (current?.key.publicKey === publicKey) current = null;
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
  const { body: registered } = await call(
    request("POST", sandboxPaths.signingApiKeys, {
      admin: true,
      body: { publicKey: key.publicKey, userName },
    }),
  );
  current = { key, userName };
  await saveKey({
    publicKey: key.publicKey,
    organizationId: session()?.organizationId ?? "",
    userName,
    privateKey: key.privateKey,
    // The sandbox's clock for this organization, as every other time the console shows: it may be
    // days ahead of the wall clock once advanced.
    createdAt: typeof registered?.createdAt === "string" ? registered.createdAt : new Date().toISOString(),
  });
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
    stamped(signer, signingPaths.getActivity, { organizationId, activityId }),
  );
  const fingerprint = fetched?.activity?.fingerprint;
  if (typeof fingerprint !== "string" || fingerprint === "")
    throw new Error(
      "The signing provider's activity carries no fingerprint, so nothing was voted (docs/approvals.md).",
    );
  const { body: decided } = await call(
    stamped(signer, signingPaths.vote(decision), {
      type: decision === "approve" ? "ACTIVITY_TYPE_APPROVE_ACTIVITY" : "ACTIVITY_TYPE_REJECT_ACTIVITY",
      timestampMs: String(Date.now()),
      organizationId,
      parameters: { fingerprint },
    }),
  );
  return decided?.activity;
}
