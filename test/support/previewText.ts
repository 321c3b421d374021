/** What each line of a preview's "Resources:" summary counts, as `preview --json` names it. */
const SUMMARY_OPERATIONS: Record<string, string> = {
  "to create": "create",
  "to update": "update",
  "to delete": "delete",
  "to replace": "replace",
};

/**
 * The changes a `pulumi preview` printed in its "Resources:" summary, as `pulumi preview --json`'s
 * changeSummary has them without "same": `{ update: 1 }` for "~ 1 to update", `{}` when every
 * resource is unchanged. Read from the text a reviewer reads, so that a check needs no second
 * preview; a summary line this does not know fails rather than being skipped.
 */
export function changesInPreviewText(text: string): Record<string, number> {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === "Resources:");
  if (start < 0) throw new Error(`no "Resources:" summary in the preview's output:\n${text}`);
  const changes: Record<string, number> = {};
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") break;
    const counted = /^\s*(?:\+-|[+~-])?\s*(\d+) (.+?)\s*$/.exec(line);
    const operation = counted && SUMMARY_OPERATIONS[counted[2]!];
    if (counted?.[2] === "unchanged") continue;
    if (!counted || !operation) throw new Error(`a line of the preview's summary not known here: "${line}"`);
    changes[operation] = Number(counted[1]);
  }
  return changes;
}
