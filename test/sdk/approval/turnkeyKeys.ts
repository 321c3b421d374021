import { generateKeyPairSync } from "node:crypto";

/** A Turnkey API key pair in the formats Turnkey uses. */
export interface TurnkeyApiKeyPair {
  /** Compressed P-256 public key, 33 bytes as hex. */
  apiPublicKey: string;
  /** P-256 private scalar, 32 bytes as hex. */
  apiPrivateKey: string;
}

/** Generates a fresh P-256 key pair with node:crypto and exports it to Turnkey's hex formats. */
export function generateTurnkeyApiKeyPair(): TurnkeyApiKeyPair {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = privateKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  const d = Buffer.from(jwk.d!, "base64url");
  const prefix = (y[y.length - 1]! & 1) === 0 ? "02" : "03";
  return {
    apiPublicKey: prefix + x.toString("hex").padStart(64, "0"),
    apiPrivateKey: d.toString("hex").padStart(64, "0"),
  };
}
