import net from "node:net";
import { ApiKeyStamper } from "@turnkey/sdk-server";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { SANDBOX_DOCUMENT_OPERATIONS } from "../../../sandbox/index.ts";
import { generateTurnkeyApiKeyPair } from "../../sdk/approval/turnkeyKeys.ts";
import { startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
let stamp: string;
beforeAll(async () => {
  t = await startTestSandbox();
  // A stamp by a registered key, so that the signing provider goes on to read the body.
  const keys = generateTurnkeyApiKeyPair();
  expect(
    (
      await t.api("POST", "/_sandbox/signing/api-keys", {
        body: { publicKey: keys.apiPublicKey, userName: "abort" },
      })
    ).status,
  ).toBe(201);
  stamp = (await new ApiKeyStamper({ ...keys }).stamp("{}")).stampHeaderValue;
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/**
 * Sends the head of `method path` announcing a 1000-byte body, then part of the body, then closes
 * the connection. Answers whatever the sandbox wrote back before the close ("" for nothing).
 */
function sendPartOfBody(method: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(t.sandbox.port, "127.0.0.1", () => {
      socket.write(
        [
          `${method} ${path} HTTP/1.1`,
          `Host: 127.0.0.1:${t.sandbox.port}`,
          `Authorization: Bearer ${TOKEN}`,
          `X-Stamp: ${stamp}`,
          "Content-Type: application/json",
          "Content-Length: 1000",
          "",
          '{"requestId":"',
        ].join("\r\n"),
      );
      setTimeout(() => socket.destroy(), 50);
    });
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

describe("a client that goes away mid-body", () => {
  test("is neither logged nor answered 500, on every route that takes a body", async () => {
    const logged = [
      vi.spyOn(console, "error"),
      vi.spyOn(console, "warn"),
      vi.spyOn(console, "info"),
      vi.spyOn(console, "log"),
    ];
    const operations = [...SANDBOX_DOCUMENT_OPERATIONS.service, ...SANDBOX_DOCUMENT_OPERATIONS.admin].filter(
      (operation) => operation.body !== undefined,
    );
    expect(operations.length).toBeGreaterThan(10);
    const answers: Record<string, string> = {};
    for (const operation of operations) {
      const path = operation.path.replace(/\{\w+\}/g, "5e1f0b1c-7d5a-4c59-9a0e-2f2d8f1b7a11");
      const answer = await sendPartOfBody(operation.method.toUpperCase(), path);
      answers[`${operation.method.toUpperCase()} ${operation.path}`] = answer.split("\r\n")[0] ?? "";
    }
    // What is still settling after the last close gets its chance to log too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(Object.entries(answers).filter(([, statusLine]) => / 5\d\d /.test(statusLine))).toEqual([]);
    expect(logged.flatMap((spy) => spy.mock.calls)).toEqual([]);
  });
});
