import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A counting semaphore shared by processes: `slots` directories under `dir`, each held by the
 * process that made it (its pid written inside). Taking one is `mkdir`, which the file system does
 * atomically, so two processes never hold the same slot. A slot whose holder has died (a worker
 * killed on a timeout never reaches its release) is taken over by the next process that finds it.
 */
export async function acquireSlot(
  dir: string,
  slots: number,
  options: { pollMs?: number } = {},
): Promise<{ release(): void }> {
  mkdirSync(dir, { recursive: true });
  for (;;) {
    for (let index = 0; index < slots; index++) {
      const slot = path.join(dir, `slot-${index}`);
      try {
        mkdirSync(slot);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        if (holderHasDied(slot)) rmSync(slot, { recursive: true, force: true });
        continue;
      }
      writeFileSync(path.join(slot, "pid"), String(process.pid));
      return { release: () => rmSync(slot, { recursive: true, force: true }) };
    }
    await sleep(options.pollMs ?? 200);
  }
}

/** Whether the slot's holder is gone: its pid recorded and no such process. */
function holderHasDied(slot: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(slot, "pid"), "utf8"));
  } catch {
    // Made a moment ago, its pid not written yet: held.
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
