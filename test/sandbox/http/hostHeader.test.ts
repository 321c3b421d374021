import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseAllowedHosts } from "../../../sandbox/options.ts";
import { startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
let shared: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
  shared = await startTestSandbox({ allowedHosts: ["sandbox.team.example"] });
});
afterAll(async () => {
  await t.close();
  await shared.close();
});

/**
 * One GET to the sandbox on 127.0.0.1 with the given Host header (fetch cannot set Host), and
 * optionally an absolute-form request target. Nothing is sent anywhere but 127.0.0.1.
 */
function getWithHost(sandbox: TestSandbox, host: string, path: string, target = path): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: sandbox.sandbox.port,
        path: target,
        headers: { host, authorization: `Bearer ${TOKEN}` },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

const ROUTES = ["/openapi.json", "/_console/", "/v2/portfolio-wallets/strategies", "/_sandbox/clock"];

describe("the Host header", () => {
  test("the sandbox's own names and addresses are answered, with or without a port", async () => {
    const port = t.sandbox.port;
    for (const host of [
      `127.0.0.1:${port}`,
      "127.0.0.1",
      `localhost:${port}`,
      "LOCALHOST.",
      `app.localhost:${port}`,
      `[::1]:${port}`,
      "127.1.2.3",
    ])
      for (const path of ROUTES) expect(await getWithHost(t, host, path), `${host} ${path}`).not.toBe(403);
  });

  test("any other name is refused with 403 on every kind of route, as a DNS-rebound page would send", async () => {
    for (const host of [
      `evil.example:${t.sandbox.port}`,
      "evil.example",
      "localhost.evil.example",
      "10.0.0.5",
      "[::2]",
    ])
      for (const path of ROUTES) expect(await getWithHost(t, host, path), `${host} ${path}`).toBe(403);
    // An absolute request target names the host too.
    expect(await getWithHost(t, "127.0.0.1", "/openapi.json", "http://evil.example/openapi.json")).toBe(403);
  });

  test("the refusal says how to reach the sandbox", async () => {
    const res = await t.sandbox.app.request("http://evil.example/openapi.json");
    expect(res.status).toBe(403);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /127\.0\.0\.1 or localhost.*--allowed-hosts "evil\.example"/,
    );
  });

  test("a shared sandbox answers the names it was given as well, and no others", async () => {
    expect(await getWithHost(shared, `sandbox.team.example:${shared.sandbox.port}`, "/openapi.json")).toBe(
      200,
    );
    expect(await getWithHost(shared, "SANDBOX.TEAM.EXAMPLE", "/openapi.json")).toBe(200);
    expect(await getWithHost(shared, `127.0.0.1:${shared.sandbox.port}`, "/openapi.json")).toBe(200);
    expect(await getWithHost(shared, "other.team.example", "/openapi.json")).toBe(403);
  });

  test("allowed host lists are names without scheme, port or path", () => {
    expect(parseAllowedHosts(" a.example , B.example,,[fd00::1]")).toEqual([
      "a.example",
      "b.example",
      "[fd00::1]",
    ]);
    for (const bad of ["https://a.example", "a.example:8787", "a.example/x", "a b"])
      expect(() => parseAllowedHosts(bad), bad).toThrow(/not a host name/);
  });
});
