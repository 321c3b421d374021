/**
 * How commands print: a table for people by default, JSON with `--json` for scripts. Results go to
 * stdout; progress and messages go to stderr, so `--json` output can be piped as it is.
 */

export interface Column<T> {
  title: string;
  value: (row: T) => string | number | boolean | null | undefined;
  /** Right-aligned (numbers). */
  right?: boolean;
}

/** A plain-text table: a header, a rule, aligned columns. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => text(column.value(row))));
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...cells.map((row) => row[index]!.length)),
  );
  const line = (values: string[]) =>
    values
      .map((value, index) =>
        columns[index]!.right ? value.padStart(widths[index]!) : value.padEnd(widths[index]!),
      )
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.title)), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join(
    "\n",
  );
}

function text(value: string | number | boolean | null | undefined): string {
  return value === null || value === undefined ? "-" : String(value);
}

/** Key/value lines for one record: `label: value`. */
export function fields(entries: readonly [string, string | number | boolean | null | undefined][]): string {
  const width = Math.max(...entries.map(([label]) => label.length));
  return entries.map(([label, value]) => `${`${label}:`.padEnd(width + 1)} ${text(value)}`).join("\n");
}

/** Prints a result: JSON when asked, else the human form. */
export function printResult(json: boolean, value: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${human()}\n`);
}
