/**
 * A YAML program's text with other target weights: the `positions:` list of its one allocation
 * resource rewritten, and optionally the webhook's `enabled:` flag. What a pull request changes.
 */
export function yamlWithPositions(
  program: string,
  weights: Record<string, number>,
  options: { webhookEnabled?: boolean } = {},
): string {
  const match = /^( *)positions:\n(?:\1 +.*\n)*/m.exec(program);
  if (match === null) throw new Error("the program has no positions: list");
  const indent = `${match[1]!}  `;
  const list = Object.entries(weights)
    .map(([key, bps]) => `${indent}- positionKey: ${key}\n${indent}  targetWeightBps: ${bps}\n`)
    .join("");
  const rewritten = program.replace(match[0], `${match[1]!}positions:\n${list}`);
  return options.webhookEnabled === undefined
    ? rewritten
    : rewritten.replace(/enabled: (true|false)/, `enabled: ${options.webhookEnabled}`);
}
