/**
 * The arguments of one `pulumi config set-all` that sets every key given, the secrets encrypted as
 * `pulumi config set --secret` does: one start of the CLI (about 0.3 s of CPU here) instead of one
 * per key. A key is `namespace:name` or a project key; a value may hold `=` (only the first splits).
 */
export function configSetAll(plain: Record<string, string>, secret: Record<string, string> = {}): string[] {
  return [
    "config",
    "set-all",
    ...Object.entries(plain).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
    ...Object.entries(secret).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
  ];
}
