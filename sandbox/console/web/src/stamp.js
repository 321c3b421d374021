// @ts-check
// An approver key for this browser tab, and Turnkey API-key stamps made with it (docs/approvals.md):
// ECDSA P-256 / SHA-256 over the exact body bytes, the signature DER-encoded as hex, the header
// base64url JSON `{ publicKey, scheme, signature }`. The private key is made by WebCrypto as
// non-extractable: no script, this one included, can read its bytes, and it is gone with the page.

export const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";

/**
 * @typedef {object} ApproverKey
 * @property {CryptoKey} privateKey non-extractable
 * @property {string} publicKey compressed P-256 point, hex (66 characters), as the signing provider names keys
 */

/** @param {Uint8Array} bytes */
const hex = (bytes) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");

/** @returns {Promise<ApproverKey>} */
export async function createApproverKey() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
    "sign",
    "verify",
  ]);
  // The public key always exports: 0x04 || X (32 bytes) || Y (32 bytes).
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const yIsOdd = ((raw[64] ?? 0) & 1) === 1;
  return { privateKey: pair.privateKey, publicKey: `${yIsOdd ? "03" : "02"}${hex(raw.subarray(1, 33))}` };
}

/**
 * One INTEGER of a DER signature: minimal bytes, with a 0x00 in front when the top bit is set.
 * @param {Uint8Array} bytes
 */
function derInteger(bytes) {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const trimmed = bytes.subarray(start);
  const body = (trimmed[0] ?? 0) & 0x80 ? [0, ...trimmed] : [...trimmed];
  return [0x02, body.length, ...body];
}

/**
 * WebCrypto signs ECDSA as r || s (32 bytes each); the stamp carries SEQUENCE { INTEGER r, INTEGER s }.
 * @param {Uint8Array} signature
 */
function toDer(signature) {
  const content = [...derInteger(signature.subarray(0, 32)), ...derInteger(signature.subarray(32, 64))];
  return new Uint8Array([0x30, content.length, ...content]);
}

/** @param {string} text */
function base64url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * The X-Stamp header value for `bodyText`, which must be sent byte for byte as signed.
 * @param {ApproverKey} key
 * @param {string} bodyText
 */
export async function stampBody(key, bodyText) {
  const signature = new Uint8Array(
    await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      key.privateKey,
      new TextEncoder().encode(bodyText),
    ),
  );
  return base64url(
    JSON.stringify({ publicKey: key.publicKey, scheme: STAMP_SCHEME, signature: hex(toDer(signature)) }),
  );
}
