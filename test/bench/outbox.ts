// Part of `npm run bench`: what one webhook-delivery insert costs as the sandbox's outbox grows to
// 1M stored deliveries (issue 10), in memory and in a data directory as `--data` keeps it. Reports,
// never asserts; the reliability suite holds the relative bound at 100k rows as an ordinary test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutboxFixture } from "../reliability/outboxInsertCost.ts";

const SIZES = (process.env["BENCH_OUTBOX_ROWS"] ?? "1000,10000,100000,1000000").split(",").map(Number);

function measure(location: string): number[] {
  const outbox = new OutboxFixture(location);
  try {
    return SIZES.map((size) => {
      outbox.fillTo(size);
      return outbox.perInsertMicros();
    });
  } finally {
    outbox.close();
  }
}

const inMemory = measure(":memory:");
const dataDir = mkdtempSync(join(tmpdir(), "pw-bench-outbox-"));
let inFile: number[];
try {
  inFile = measure(dataDir);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
const cell = (micros: number[], index: number) =>
  `${micros[index]!.toFixed(1)} (${(micros[index]! / micros[0]!).toFixed(2)}×)`;
console.log(
  [
    "",
    "## Webhook outbox: one delivery insert (µs, and against the smallest size)",
    "",
    "| deliveries stored | in memory | data directory (WAL) |",
    "|---|---|---|",
    ...SIZES.map(
      (size, index) =>
        `| ${size.toLocaleString("en-US")} | ${cell(inMemory, index)} | ${cell(inFile, index)} |`,
    ),
  ].join("\n"),
);
