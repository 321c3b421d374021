import { createECDH } from "node:crypto";
import { HttpUrlSchema } from "../contract/common.ts";
import { CONFIG_NAMESPACE, type ApproverSettings } from "../stackSettings.ts";
import { InvalidApproverSettingsError } from "./errors.ts";

const COMPRESSED_P256_PUBLIC_KEY = /^0[23][0-9a-fA-F]{64}$/;
const P256_PRIVATE_KEY = /^[0-9a-fA-F]{1,64}$/;

/**
 * Checks the approver settings before any request, and reports every problem at once. Turnkey API
 * keys are P-256: the public key as 33-byte compressed hex, the private key as a 32-byte hex scalar.
 * Also checks that the public key belongs to the private key, which the signing provider would
 * otherwise report only as a stamp it cannot verify. No message quotes either key.
 */
export function validateApproverSettings(
  settings: ApproverSettings,
  signingActivityId: string | undefined,
): void {
  const problems: string[] = [];
  const name = (setting: string) => `${CONFIG_NAMESPACE}:${setting}`;

  if (!HttpUrlSchema.safeParse(settings.apiBaseUrl).success)
    problems.push(`${name("turnkeyApiBaseUrl")} must be an absolute http(s) URL`);
  if (typeof settings.organizationId !== "string" || settings.organizationId.trim() === "")
    problems.push(`${name("turnkeyOrganizationId")} is empty`);

  const publicKeyOk =
    typeof settings.apiPublicKey === "string" && COMPRESSED_P256_PUBLIC_KEY.test(settings.apiPublicKey);
  if (!publicKeyOk)
    problems.push(
      `${name("turnkeyApiPublicKey")} must be a compressed P-256 public key: 66 hex characters starting with 02 or 03`,
    );
  const privateKeyOk =
    typeof settings.apiPrivateKey === "string" && P256_PRIVATE_KEY.test(settings.apiPrivateKey);
  if (!privateKeyOk)
    problems.push(`${name("turnkeyApiPrivateKey")} must be a P-256 private key: 64 hex characters`);

  if (publicKeyOk && privateKeyOk) {
    const derived = compressedPublicKeyOf(settings.apiPrivateKey);
    if (derived === undefined)
      problems.push(`${name("turnkeyApiPrivateKey")} is not a valid P-256 private key`);
    else if (derived !== settings.apiPublicKey.toLowerCase())
      problems.push(
        `${name("turnkeyApiPublicKey")} does not belong to ${name("turnkeyApiPrivateKey")} (were the two swapped, or taken from different key pairs?)`,
      );
  }
  if (problems.length > 0) throw new InvalidApproverSettingsError(problems, signingActivityId);
}

/** The compressed public key of a private key, or undefined when the scalar is out of range. */
function compressedPublicKeyOf(privateKeyHex: string): string | undefined {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(privateKeyHex.padStart(64, "0"), "hex"));
    return ecdh.getPublicKey("hex", "compressed");
  } catch {
    // The library's message is not used: it could in principle quote the key.
    return undefined;
  }
}
