/**
 * A Pulumi URN, `urn:pulumi:<stack>::<project>::<parent types $-joined>$<type>::<name>`, read in
 * one place: the resource's own type is the last `$`-separated part of the third `::` field, and
 * a name may itself hold `::`.
 */
export function urnParts(urn: string): {
  stack: string | null;
  project: string | null;
  type: string;
  name: string;
} {
  const fields = urn.split("::");
  const stack = fields[0]?.startsWith("urn:pulumi:") ? fields[0].slice("urn:pulumi:".length) : null;
  return {
    stack,
    project: fields[1] ?? null,
    type: fields[2]?.split("$").at(-1) ?? "",
    name: fields.slice(3).join("::"),
  };
}
