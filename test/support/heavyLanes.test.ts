import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { acquireSlot } from "./cpuSlots.ts";
import { ENGINE_TESTS } from "../../vitest.config.ts";
import { heavyStartOrder, MEASURED_SECONDS } from "./heavyLanes.ts";

const repositoryRoot = path.resolve(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function slotsDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "cpu-slots-"));
  dirs.push(dir);
  return dir;
}

describe("CPU slots shared by processes", () => {
  test("two slots: a third taker waits until one is released", async () => {
    const dir = slotsDir();
    const first = await acquireSlot(dir, 2, { pollMs: 10 });
    await acquireSlot(dir, 2, { pollMs: 10 });
    let third = false;
    const waiting = acquireSlot(dir, 2, { pollMs: 10 }).then((slot) => {
      third = true;
      return slot;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(third).toBe(false);
    first.release();
    await waiting;
    expect(third).toBe(true);
  });

  test("a slot whose holder died is taken over; one being made (no pid yet) is not", async () => {
    const dir = slotsDir();
    const exited = spawnSync("true");
    mkdirSync(path.join(dir, "slot-0"));
    writeFileSync(path.join(dir, "slot-0", "pid"), String(exited.pid));
    const slot = await acquireSlot(dir, 1, { pollMs: 10 });
    slot.release();
    expect(existsSync(path.join(dir, "slot-0"))).toBe(false);

    mkdirSync(path.join(dir, "slot-0"));
    let taken = false;
    void acquireSlot(dir, 1, { pollMs: 10 }).then(() => (taken = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken).toBe(false);
    writeFileSync(path.join(dir, "slot-0", "pid"), String(exited.pid));
    await expect.poll(() => taken).toBe(true);
  });
});

describe("the heavy tier's start order", () => {
  test("unmeasured files first, then the longest first, CPU-bound and waiting files alternating", () => {
    const order = heavyStartOrder([
      "test/native/python.engine.test.ts",
      "test/e2e/faults.waiting.engine.test.ts",
      "test/new/unmeasured.engine.test.ts",
      "test/docs/newcomerPath.engine.test.ts",
      "test/sandbox/console/webhooks.waiting.engine.test.ts",
      "test/consumer/layouts.engine.test.ts",
    ]);
    expect(order).toEqual([
      "test/new/unmeasured.engine.test.ts",
      "test/docs/newcomerPath.engine.test.ts",
      "test/e2e/faults.waiting.engine.test.ts",
      "test/consumer/layouts.engine.test.ts",
      "test/sandbox/console/webhooks.waiting.engine.test.ts",
      "test/native/python.engine.test.ts",
    ]);
  });

  test("every measured file exists and is a heavy file (a renamed one would lose its place)", () => {
    const named = Object.keys(MEASURED_SECONDS);
    expect(named.filter((file) => !existsSync(path.join(repositoryRoot, file)))).toEqual([]);
    expect(named.filter((file) => !path.matchesGlob(file, ENGINE_TESTS))).toEqual([]);
  });
});
