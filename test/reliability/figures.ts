/** What the reliability suite counts, per group of cases, for the figures table it prints. */
export interface GroupFigures {
  cases: number;
  /** Answers by status code ("hang" for none within the time allowed, "dropped" for a cut connection). */
  statuses: Map<string, number>;
  serverErrors: number;
  hangs: number;
  /** Answers that showed another organization's data, or echoed a huge input. */
  leaks: number;
  /** Writes the sandbox acknowledged and then did not have. */
  lostWrites: number;
  /** Free-form figures (p95s, insert costs) printed after the table. */
  notes: string[];
}

export class Figures {
  private readonly groups = new Map<string, GroupFigures>();

  group(name: string): GroupFigures {
    let figures = this.groups.get(name);
    if (figures === undefined) {
      figures = {
        cases: 0,
        statuses: new Map(),
        serverErrors: 0,
        hangs: 0,
        leaks: 0,
        lostWrites: 0,
        notes: [],
      };
      this.groups.set(name, figures);
    }
    return figures;
  }

  /** Counts one answer (or its absence) in `group`. */
  record(group: string, status: number | "hang" | "dropped"): void {
    const figures = this.group(group);
    figures.cases += 1;
    const key = String(status);
    figures.statuses.set(key, (figures.statuses.get(key) ?? 0) + 1);
    if (typeof status === "number" && status >= 500) figures.serverErrors += 1;
    if (status === "hang") figures.hangs += 1;
  }

  /** The table, one row per group and a total. */
  table(): string {
    const rows = [...this.groups.entries()].map(([name, f]) => [
      name,
      String(f.cases),
      [...f.statuses.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([status, n]) => `${status}×${n}`)
        .join(" "),
      String(f.serverErrors),
      String(f.hangs),
      String(f.leaks),
      String(f.lostWrites),
    ]);
    const total = (pick: (f: GroupFigures) => number) =>
      String([...this.groups.values()].reduce((sum, f) => sum + pick(f), 0));
    rows.push([
      "total",
      total((f) => f.cases),
      "",
      total((f) => f.serverErrors),
      total((f) => f.hangs),
      total((f) => f.leaks),
      total((f) => f.lostWrites),
    ]);
    const header = ["group", "cases", "statuses", "5xx", "hangs", "leaks", "lost writes"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
    const notes = [...this.groups.entries()].flatMap(([name, f]) =>
      f.notes.map((note) => `- ${name}: ${note}`),
    );
    return [
      line(header),
      `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`,
      ...rows.map(line),
      ...(notes.length > 0 ? ["", ...notes] : []),
    ].join("\n");
  }
}
