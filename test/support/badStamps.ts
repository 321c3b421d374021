import { ApiKeyStamper } from "@turnkey/sdk-server";
import { generateTurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";

/**
 * Requests to the sandbox's signing provider with a bad stamp, small and about 1 MB large: what
 * test/sandbox/signing/badStamp.test.ts checks the answers of and test/bench/signingCost.ts measures the
 * sandbox's CPU time of.
 */

/** A JSON body of about `bytes` bytes: many small objects, which cost a parser what they weigh. */
function bodyOf(organizationId: string, bytes: number): string {
  const item = '{"k":[1,{"v":"x"}]},';
  const pad = item.repeat(Math.max(0, Math.floor((bytes - 60) / item.length)));
  return `{"organizationId":"${organizationId}","activityId":"a","pad":[${pad}0]}`;
}

export interface BadStampRequests {
  /** A body of about 200 bytes. */
  small: string;
  /** A body of about 1 MB. */
  large: string;
  /** Each way a stamp can be bad, by what it is: none, an unregistered key's, a registered key's that matches no body. */
  stamps: ReadonlyArray<readonly [what: string, stamp: string | null]>;
}

/** Registers an API key for the token's organization and makes the bodies and bad stamps. */
export async function badStampRequests(
  url: string,
  token: string,
  organizationId: string,
): Promise<BadStampRequests> {
  const keys = generateTurnkeyApiKeyPair();
  const registered = await fetch(`${url}/_sandbox/signing/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ publicKey: keys.apiPublicKey, userName: "cost" }),
  });
  if (registered.status !== 201) throw new Error(`registering the API key answered ${registered.status}`);
  const small = bodyOf(organizationId, 200);
  const large = bodyOf(organizationId, 1000 * 1000);
  // A stamp by the registered key, but over other bytes: its signature does not match any body sent.
  const junkSignature = (await new ApiKeyStamper({ ...keys }).stamp("other bytes")).stampHeaderValue;
  const unregistered = (await new ApiKeyStamper({ ...generateTurnkeyApiKeyPair() }).stamp(small))
    .stampHeaderValue;
  return {
    small,
    large,
    stamps: [
      ["no stamp", null],
      ["a stamp by an unregistered key", unregistered],
      ["a registered key's stamp that does not match", junkSignature],
    ],
  };
}

/** The statuses of 20 concurrent requests to get_activity, each with `body` and `stamp` (0: the connection closed). */
export async function twentyRequests(url: string, body: string, stamp: string | null): Promise<number[]> {
  return Promise.all(
    Array.from({ length: 20 }, async () => {
      try {
        const res = await fetch(`${url}/public/v1/query/get_activity`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(stamp === null ? {} : { "X-Stamp": stamp }) },
          body,
        });
        await res.arrayBuffer();
        return res.status;
      } catch (error) {
        // A 413 closes the connection without reading the rest of the body; a client still sending
        // it may see the close before the answer.
        if ((error as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET") return 0;
        throw error;
      }
    }),
  );
}
