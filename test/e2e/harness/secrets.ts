import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/** A secret and the encodings of it a careless layer might write instead of the plain text. */
export interface SecretForms {
  name: string;
  forms: string[];
}

/** The token as text, and base64 of it (a value embedded in a JSON or YAML blob without encryption). */
export function textSecret(name: string, value: string): SecretForms {
  const bytes = Buffer.from(value, "utf8");
  return { name, forms: [value, bytes.toString("base64"), bytes.toString("base64url")] };
}

/** A hex key (such as a P-256 private scalar): hex in either case, and its bytes in base64 and base64url (the JWK `d`). */
export function hexKeySecret(name: string, hex: string): SecretForms {
  const bytes = Buffer.from(hex, "hex");
  return {
    name,
    forms: [hex.toLowerCase(), hex.toUpperCase(), bytes.toString("base64"), bytes.toString("base64url")],
  };
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile());
}

/** `file: secret name` for every file holding any form of a secret. */
export function secretFindings(files: string[], secrets: SecretForms[]): string[] {
  const findings: string[] = [];
  for (const file of files) {
    const raw = readFileSync(file);
    // The file backend may gzip state (PULUMI_DIY_BACKEND_GZIP): look inside as well.
    const text = (file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("latin1");
    for (const secret of secrets) {
      if (secret.forms.some((form) => text.includes(form))) findings.push(`${file}: ${secret.name}`);
    }
  }
  return findings;
}
