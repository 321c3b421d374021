// Part of `npm run bench` (also `npm run bench:signing`): what a request with a bad stamp costs the
// sandbox with a 1 MB body against a small one, as the CPU time of a sandbox process of its own
// (test/bench/load/sandboxProcess.ts, spoken to over IPC): the client's work of sending the bodies
// is not counted, and CPU time does not stretch when the machine is busy the way wall time does.
// Reading 20 MB, decoding and parsing it costs the sandbox several hundred ms of CPU; refusing on
// the header alone costs about what the small requests cost, which is what to look for here.
// Reports, never asserts; test/sandbox/signing/badStamp.test.ts checks the answers.
import { badStampRequests, twentyRequests } from "../support/badStamps.ts";
import { startSandboxProcess } from "./load/sandboxHandle.ts";

const TOKEN = "cost-token";
const ORG = "cost-org";

const sandbox = await startSandboxProcess({ [TOKEN]: ORG }, { dataDir: ":memory:" });
try {
  /** The sandbox's CPU time, ms, for 20 concurrent requests with `body` and `stamp`. */
  const cpuMsOfTwenty = async (body: string, stamp: string | null): Promise<number> => {
    await sandbox.ask("reset");
    await twentyRequests(sandbox.url, body, stamp);
    return (await sandbox.ask("stats")).cpuMs;
  };
  const { small, large, stamps } = await badStampRequests(sandbox.url, TOKEN, ORG);
  const rows: string[] = [];
  for (const [what, stamp] of stamps) {
    // Warm up, then measure each size the same way.
    await cpuMsOfTwenty(small, stamp);
    const smallMs = await cpuMsOfTwenty(small, stamp);
    const largeMs = await cpuMsOfTwenty(large, stamp);
    rows.push(
      `| ${what} | ${smallMs.toFixed(0)} | ${largeMs.toFixed(0)} | ${(largeMs / Math.max(smallMs, 1)).toFixed(2)}× |`,
    );
  }
  console.log(
    [
      "A request with a bad stamp: the sandbox's CPU time, ms, for 20 requests at once",
      "",
      "| stamp | 20 small | 20 × 1 MB | ratio |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
    ].join("\n"),
  );
} finally {
  await sandbox.close();
}
