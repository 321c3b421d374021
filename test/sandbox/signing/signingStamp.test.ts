import { describe, expect, test } from "vitest";
import { ApiKeyStamper } from "@turnkey/sdk-server";
import {
  API_KEY_STAMP_SCHEME,
  authenticateStamp,
  STAMP_DOES_NOT_VERIFY,
  StampError,
} from "../../../sandbox/signing/stamp.ts";
import { generateTurnkeyApiKeyPair, type TurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";

async function stampWith(keys: TurnkeyApiKeyPair, body: string): Promise<string> {
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ ...keys }).stamp(body);
  expect(stampHeaderName).toBe("X-Stamp");
  return stampHeaderValue;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const decode = (header: string) => JSON.parse(Buffer.from(header, "base64url").toString("utf8"));
const only =
  (...keys: TurnkeyApiKeyPair[]) =>
  (publicKey: string) =>
    keys.some((k) => k.apiPublicKey === publicKey);

describe("authenticateStamp", () => {
  const body = JSON.stringify({ organizationId: "org", activityId: "a1" });

  test("accepts the Turnkey stamper's stamp over the exact body bytes, and no other bytes", async () => {
    const keys = generateTurnkeyApiKeyPair();
    const header = await stampWith(keys, body);
    const stamp = authenticateStamp(header, Buffer.from(body), only(keys));
    expect(stamp).toMatchObject({ publicKey: keys.apiPublicKey, scheme: API_KEY_STAMP_SCHEME });
    expect(() => authenticateStamp(header, Buffer.from(body.replace("a1", "a2")), only(keys))).toThrow(
      StampError,
    );
    // Same JSON value, other bytes: the signature covers the bytes sent, not the parsed value.
    expect(() =>
      authenticateStamp(header, Buffer.from(JSON.stringify(JSON.parse(body), null, 1)), only(keys)),
    ).toThrow(STAMP_DOES_NOT_VERIFY);
  });

  test("refuses a stamp that names a registered key but was signed by another key", async () => {
    const registered = generateTurnkeyApiKeyPair();
    const attacker = generateTurnkeyApiKeyPair();
    const forged = encode({ ...decode(await stampWith(attacker, body)), publicKey: registered.apiPublicKey });
    expect(() => authenticateStamp(forged, Buffer.from(body), only(registered))).toThrow(
      STAMP_DOES_NOT_VERIFY,
    );
  });

  test("refuses a valid stamp by a key the organization did not register", async () => {
    const registered = generateTurnkeyApiKeyPair();
    const stranger = generateTurnkeyApiKeyPair();
    const header = await stampWith(stranger, body);
    expect(() => authenticateStamp(header, Buffer.from(body), only(registered))).toThrow(
      STAMP_DOES_NOT_VERIFY,
    );
  });

  test("refuses missing, non-base64url, non-JSON, incomplete and wrong-scheme headers", async () => {
    const keys = generateTurnkeyApiKeyPair();
    const genuine = decode(await stampWith(keys, body));
    const bad: (string | undefined)[] = [
      undefined,
      "",
      "not base64!",
      Buffer.from("not json").toString("base64url"),
      encode("a string"),
      encode({ publicKey: keys.apiPublicKey, scheme: API_KEY_STAMP_SCHEME }),
      encode({ ...genuine, scheme: "SIGNATURE_SCHEME_TK_API_SECP256K1" }),
      encode({ ...genuine, publicKey: "04" + "ab".repeat(64) }),
      encode({ ...genuine, signature: "zz" }),
    ];
    for (const header of bad) {
      expect(() => authenticateStamp(header, Buffer.from(body), () => true), String(header)).toThrow(
        StampError,
      );
    }
  });

  test("a garbage signature or a public key off the curve is refused, not a crash", () => {
    const keys = generateTurnkeyApiKeyPair();
    const stamp = (publicKey: string, signature: string) =>
      encode({ publicKey, scheme: API_KEY_STAMP_SCHEME, signature });
    expect(() =>
      authenticateStamp(stamp(keys.apiPublicKey, "3006020101020101"), Buffer.from(body), () => true),
    ).toThrow(StampError);
    expect(() => authenticateStamp(stamp(keys.apiPublicKey, "00ff"), Buffer.from(body), () => true)).toThrow(
      StampError,
    );
    // An x coordinate above the field prime is never on the curve.
    expect(() =>
      authenticateStamp(stamp("02" + "ff".repeat(32), "3006020101020101"), Buffer.from(body), () => true),
    ).toThrow(StampError);
  });
});
