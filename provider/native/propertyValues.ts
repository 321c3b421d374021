/**
 * Property values as the engine sends them to a native provider and wants them back. Values come
 * as JSON (google.protobuf.Struct) in which a secret is an object marked with a signature key; a
 * value not known yet (a preview) is a fixed string, which the implementation already understands
 * (provider/check.ts). The implementation works on plain values: secrets are unwrapped on the way
 * in, and every output whose input was secret is wrapped again on the way out, so nothing secret
 * is ever stored in plaintext.
 */

/** The key that marks a special value, and the signature of a secret (the engine's wire format). */
const SIGNATURE_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

type Plain = Record<string, unknown>;

function isSecret(value: unknown): value is { value?: unknown } {
  return value !== null && typeof value === "object" && (value as Plain)[SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** A value with every secret unwrapped, and whether it held any. */
export function unwrapSecrets(value: unknown): { value: unknown; secret: boolean } {
  if (isSecret(value)) return { value: unwrapSecrets(value.value).value, secret: true };
  if (Array.isArray(value)) {
    const items = value.map(unwrapSecrets);
    return { value: items.map((item) => item.value), secret: items.some((item) => item.secret) };
  }
  if (value !== null && typeof value === "object") {
    let secret = false;
    const plain: Plain = {};
    for (const [key, entry] of Object.entries(value as Plain)) {
      const unwrapped = unwrapSecrets(entry);
      plain[key] = unwrapped.value;
      secret ||= unwrapped.secret;
    }
    return { value: plain, secret };
  }
  return { value, secret: false };
}

/** Properties made plain, and the names of those that held a secret anywhere inside. */
export function plainProperties(properties: Plain | undefined): { plain: Plain; secretNames: Set<string> } {
  const plain: Plain = {};
  const secretNames = new Set<string>();
  for (const [name, value] of Object.entries(properties ?? {})) {
    const unwrapped = unwrapSecrets(value);
    plain[name] = unwrapped.value;
    if (unwrapped.secret) secretNames.add(name);
  }
  return { plain, secretNames };
}

export function secret(value: unknown): Plain {
  return { [SIGNATURE_KEY]: SECRET_SIGNATURE, value };
}

/**
 * Properties to hand back to the engine: each one named in `secretNames` (a secret input, or an
 * output that is always secret) wrapped as a secret. `undefined` values are left out (JSON has none).
 */
export function withSecrets(properties: Plain, secretNames: ReadonlySet<string>): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(properties)) {
    if (value === undefined) continue;
    out[name] = secretNames.has(name) && value !== null ? secret(value) : value;
  }
  return out;
}
