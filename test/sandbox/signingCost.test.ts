import { ApiKeyStamper } from "@turnkey/sdk-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandboxProcess, type SandboxHandle } from "../bench/load/sandboxHandle.ts";
import { generateTurnkeyApiKeyPair } from "../approval/turnkeyKeys.ts";

/**
 * What a request with a bad stamp costs the sandbox, measured as the CPU time of a sandbox process
 * of its own (test/bench/load/sandboxProcess.ts, spoken to over IPC): the client's work of sending
 * the bodies is not counted, and CPU time does not stretch when the machine is busy the way wall
 * time does.
 */

const TOKEN = "cost-token";
const ORG = "cost-org";
let sandbox: SandboxHandle;
let url: string;

beforeAll(async () => {
  sandbox = await startSandboxProcess({ [TOKEN]: ORG }, { dataDir: ":memory:" });
  url = sandbox.url;
}, 60_000);
afterAll(() => sandbox.close());

/** A JSON body of about `bytes` bytes: many small objects, which cost a parser what they weigh. */
function bodyOf(bytes: number): string {
  const item = '{"k":[1,{"v":"x"}]},';
  const pad = item.repeat(Math.max(0, Math.floor((bytes - 60) / item.length)));
  return `{"organizationId":"${ORG}","activityId":"a","pad":[${pad}0]}`;
}

/** The sandbox's CPU time for 20 concurrent requests to get_activity, each with `body` and `stamp`. */
async function cpuOfTwenty(
  body: string,
  stamp: string | null,
): Promise<{ cpuMs: number; statuses: number[] }> {
  await sandbox.ask("reset");
  const statuses = await Promise.all(
    Array.from({ length: 20 }, async () => {
      try {
        const res = await fetch(`${url}/public/v1/query/get_activity`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(stamp === null ? {} : { "X-Stamp": stamp }) },
          body,
        });
        await res.arrayBuffer();
        return res.status;
      } catch (error) {
        // A 413 closes the connection without reading the rest of the body; a client still sending
        // it may see the close before the answer.
        if ((error as { cause?: { code?: string } }).cause?.code === "UND_ERR_SOCKET") return 0;
        throw error;
      }
    }),
  );
  const stats = await sandbox.ask("stats");
  return { cpuMs: stats!.cpuMs, statuses };
}

describe("a request with a bad stamp", () => {
  test("costs the sandbox about the same with a 1 MB body as with a small one", async () => {
    const keys = generateTurnkeyApiKeyPair();
    const registered = await fetch(`${url}/_sandbox/signing/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ publicKey: keys.apiPublicKey, userName: "cost" }),
    });
    expect(registered.status).toBe(201);
    // A stamp by the registered key, but over other bytes: its signature does not match any body sent.
    const junkSignature = (await new ApiKeyStamper({ ...keys }).stamp("other bytes")).stampHeaderValue;
    const small = bodyOf(200);
    const large = bodyOf(1000 * 1000);
    expect(large.length).toBeGreaterThan(990_000);

    const report: string[] = [];
    for (const [what, stamp] of [
      ["no stamp", null],
      [
        "a stamp by an unregistered key",
        (await new ApiKeyStamper({ ...generateTurnkeyApiKeyPair() }).stamp(small)).stampHeaderValue,
      ],
      ["a registered key's stamp that does not match", junkSignature],
    ] as const) {
      // Warm up, then measure each size the same way.
      await cpuOfTwenty(small, stamp);
      const smallCost = await cpuOfTwenty(small, stamp);
      const largeCost = await cpuOfTwenty(large, stamp);
      report.push(
        `${what}: 20 small ${smallCost.cpuMs.toFixed(0)} ms CPU, 20 × 1 MB ${largeCost.cpuMs.toFixed(0)} ms`,
      );
      expect(
        smallCost.statuses.every((s) => s === 401),
        what,
      ).toBe(true);
      expect(
        largeCost.statuses.every((s) => s === 401 || s === 413),
        what,
      ).toBe(true);
      // Reading 20 MB, decoding and parsing it costs the sandbox several hundred ms of CPU; refusing
      // on the header alone costs about what the small requests cost.
      expect(largeCost.cpuMs, report.at(-1)).toBeLessThan(smallCost.cpuMs * 2 + 100);
    }
    console.log(report.join("\n"));
  }, 120_000);
});
