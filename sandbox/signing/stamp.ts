import { createPublicKey, ECDH, verify, type KeyObject } from "node:crypto";
import { STAMP_TIMESTAMP_WINDOW_MS } from "../../sdk/nodejs/contract/signingProvider.ts";

/** Header carrying the request's API-key stamp, as sent by `@turnkey/api-key-stamper`. */
export const STAMP_HEADER = "x-stamp";

/** The only scheme Turnkey API keys (P-256) stamp with. */
export const API_KEY_STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";

/** A decoded `X-Stamp` header: base64url of the JSON `{ publicKey, scheme, signature }`. */
export interface ApiKeyStamp {
  /** Compressed P-256 public key, hex, as registered for the organization. */
  publicKey: string;
  scheme: string;
  /** ECDSA P-256 / SHA-256 signature over the exact request body bytes, DER, hex. */
  signature: string;
}

/** Why a stamp was refused. The message is safe to send back: it never quotes the signature. */
export class StampError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StampError";
  }
}

const COMPRESSED_P256_PUBLIC_KEY = /^0[23][0-9a-f]{64}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;

/** Decodes and checks the shape of an `X-Stamp` header value; throws `StampError` on anything odd. */
export function parseStamp(headerValue: string | undefined): ApiKeyStamp {
  if (headerValue === undefined || headerValue.trim() === "")
    throw new StampError("the request carries no X-Stamp header; sign it with an API key");
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(headerValue.trim()))
    throw new StampError("the X-Stamp header is not base64url");
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(headerValue.trim(), "base64url").toString("utf8"));
  } catch {
    throw new StampError("the X-Stamp header does not decode to JSON");
  }
  if (typeof decoded !== "object" || decoded === null)
    throw new StampError("the X-Stamp header is not a JSON object");
  const { publicKey, scheme, signature } = decoded as Record<string, unknown>;
  if (typeof publicKey !== "string" || typeof scheme !== "string" || typeof signature !== "string")
    throw new StampError("the X-Stamp header must hold string fields publicKey, scheme and signature");
  if (scheme !== API_KEY_STAMP_SCHEME)
    throw new StampError(
      `the stamp scheme must be ${API_KEY_STAMP_SCHEME}, got ${JSON.stringify(scheme.slice(0, 64))}`,
    );
  const normalizedKey = publicKey.toLowerCase();
  if (!COMPRESSED_P256_PUBLIC_KEY.test(normalizedKey))
    throw new StampError("the stamp's publicKey is not a compressed P-256 public key (66 hex characters)");
  const normalizedSignature = signature.toLowerCase();
  if (!HEX.test(normalizedSignature) || normalizedSignature.length > 2 * 80)
    throw new StampError("the stamp's signature is not a hex DER ECDSA signature");
  return { publicKey: normalizedKey, scheme, signature: normalizedSignature };
}

/**
 * The KeyObject of a compressed P-256 public key (hex). Throws `StampError` when the bytes are not
 * a point on the curve.
 */
export function publicKeyFromCompressedHex(compressedHex: string): KeyObject {
  let uncompressed: Buffer;
  try {
    uncompressed = ECDH.convertKey(compressedHex, "prime256v1", "hex", undefined, "uncompressed") as Buffer;
  } catch {
    throw new StampError("the stamp's publicKey is not a point on the P-256 curve");
  }
  // 0x04 || X (32 bytes) || Y (32 bytes)
  return createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: uncompressed.subarray(1, 33).toString("base64url"),
      y: uncompressed.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
}

/**
 * True when `stamp.signature` is a valid ECDSA P-256 / SHA-256 signature by `stamp.publicKey` over
 * exactly `body`. The body must be the raw bytes received, before any JSON parsing: re-serializing
 * parsed JSON could change key order or spacing and the signature would no longer match.
 */
export function isStampValidFor(stamp: ApiKeyStamp, body: Uint8Array): boolean {
  let key: KeyObject;
  try {
    key = publicKeyFromCompressedHex(stamp.publicKey);
  } catch {
    return false;
  }
  try {
    return verify("sha256", body, { key, dsaEncoding: "der" }, Buffer.from(stamp.signature, "hex"));
  } catch {
    // A signature that is not DER at all: not valid, rather than a server error.
    return false;
  }
}

/**
 * What every stamp that does not verify is told, whatever failed: a signature that does not match
 * the body, a key no organization registered, or one registered by another organization than the
 * body names. One answer, so that a stamp cannot be used to learn which organization a key is of.
 */
export const STAMP_DOES_NOT_VERIFY =
  "it must be a signature of the exact body bytes by an API key registered for the organization the body names";

/**
 * Verifies a decoded stamp over the raw `body` bytes and requires its key to be one the
 * organization registered (`isRegistered`). The signature is checked first, whatever the key, so
 * that a key of another organization costs what any bad stamp costs. Throws `StampError` with
 * `STAMP_DOES_NOT_VERIFY` on any failure.
 */
export function verifyStamp(
  stamp: ApiKeyStamp,
  body: Uint8Array,
  isRegistered: (publicKey: string) => boolean,
): ApiKeyStamp {
  const signed = isStampValidFor(stamp, body);
  if (!signed || !isRegistered(stamp.publicKey)) throw new StampError(STAMP_DOES_NOT_VERIFY);
  return stamp;
}

/** The stamp check, whole: `parseStamp` then `verifyStamp`. */
export function authenticateStamp(
  headerValue: string | undefined,
  body: Uint8Array,
  isRegistered: (publicKey: string) => boolean,
): ApiKeyStamp {
  return verifyStamp(parseStamp(headerValue), body, isRegistered);
}

/**
 * Why an activity's `timestampMs` is refused, or null when it is within the window of `nowMs`.
 * `nowMs` is real time (`Date.now()`), never the sandbox clock: the approver stamps with its own
 * real clock, and the admin API may have moved the sandbox's by days.
 */
export function activityTimestampProblem(timestampMs: string, nowMs: number): string | null {
  const skewMs = Number(timestampMs) - nowMs;
  if (Math.abs(skewMs) <= STAMP_TIMESTAMP_WINDOW_MS) return null;
  return `the activity's timestampMs ${timestampMs.slice(0, 20)} is ${Math.round(Math.abs(skewMs) / 1000)} s ${skewMs < 0 ? "old" : "ahead"}; stamp activities with the current time (at most ${STAMP_TIMESTAMP_WINDOW_MS / 60_000} minutes either way)`;
}
