import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestSandbox, TOKEN, type TestSandbox } from "../helpers.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document read loosely
type Json = any;
const HTTP_METHODS = ["get", "put", "post", "patch", "delete"] as const;
const SOME_ID = "5e1f0b1c-7d5a-4c59-9a0e-2f2d8f1b7a11";

/** Every operation of the sandbox's two OpenAPI documents, as the documents list them. */
async function documentedOperations(): Promise<{ method: string; path: string }[]> {
  const operations: { method: string; path: string }[] = [];
  for (const document of ["/openapi.json", "/openapi/sandbox-admin.json"]) {
    const body = (await (await fetch(`${t.url}${document}`)).json()) as Json;
    for (const [path, item] of Object.entries(body.paths as Record<string, Record<string, unknown>>))
      for (const method of HTTP_METHODS) if (item[method] !== undefined) operations.push({ method, path });
  }
  return operations;
}

describe("headers of every answer", () => {
  test("every operation of the OpenAPI documents answers with no-store and nosniff, authenticated or not", async () => {
    const operations = await documentedOperations();
    expect(operations.length).toBeGreaterThan(40);
    const missing: string[] = [];
    for (const { method, path } of operations) {
      for (const token of [TOKEN, null]) {
        const res = await fetch(`${t.url}${path.replace(/\{\w+\}/g, SOME_ID)}`, {
          method: method.toUpperCase(),
          headers: {
            ...(token === null ? {} : { authorization: `Bearer ${token}` }),
            ...(method === "get" || method === "delete" ? {} : { "content-type": "application/json" }),
          },
          ...(method === "get" || method === "delete" ? {} : { body: "{}" }),
        });
        await res.arrayBuffer();
        const seen = `${res.headers.get("cache-control")} / ${res.headers.get("x-content-type-options")}`;
        if (seen !== "no-store / nosniff")
          missing.push(
            `${method.toUpperCase()} ${path} (${token === null ? "no token" : "token"}, ${res.status}): ${seen}`,
          );
      }
    }
    expect(missing).toEqual([]);
  });

  test("a webhook registration's answer, which holds its signing secret, is never stored", async () => {
    const res = await t.api("POST", "/webhooks/registrations", {
      body: { url: "https://hooks.example.com/h", eventTypes: ["portfolio_wallet.balance.updated"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("an idle connection is kept a minute, and clients are told so (a late client timer never meets a just-closed socket)", async () => {
    const res = await t.api("GET", "/v2/portfolio-wallets/strategies");
    expect(res.status).toBe(200);
    expect(res.headers.get("keep-alive")).toBe("timeout=60");
  });

  test("an unknown route and a refused body get them too", async () => {
    for (const res of [
      await fetch(`${t.url}/no/such/route`),
      await fetch(`${t.url}/v2/portfolio-wallets`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: "x".repeat(1024 * 1024 + 1),
      }),
    ]) {
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("the console's page keeps its own content security policy and caching", async () => {
    const page = await fetch(`${t.url}/_console/`);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers.get("cache-control")).toBe("no-store");
    const script = await fetch(`${t.url}/_console/assets/console.js`);
    expect(script.headers.get("cache-control")).toBe("no-cache");
    for (const answer of [page, script]) {
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("x-frame-options")).toBe("DENY");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
      expect(answer.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      // Nothing an HTTP sandbox should promise or a browser no longer reads.
      expect(answer.headers.get("strict-transport-security")).toBeNull();
      expect(answer.headers.get("x-xss-protection")).toBeNull();
    }
    expect(script.headers.get("content-security-policy")).toBe(page.headers.get("content-security-policy"));
    // The console's API answers are the API's: no page policy on them.
    const api = await fetch(`${t.url}/_console/api/session`);
    expect(api.headers.get("content-security-policy")).toBeNull();
  });
});

describe("a body the route did not read", () => {
  // Fetch hides the Connection header, so these read the raw answer from node:http.
  async function connectionHeaderOf(method: string, path: string, body: string, token: string | null) {
    const { request } = await import("node:http");
    return await new Promise<string | undefined>((resolve, reject) => {
      const req = request(`${t.url}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.headers.connection);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  test("is answered with Connection: close, so no client reuses a socket the server is about to cut", async () => {
    const large = JSON.stringify({ pad: "p".repeat(200_000) });
    // A refused credential reads none.
    expect(await connectionHeaderOf("POST", "/v2/portfolio-wallets", large, null)).toBe("close");
  });

  test("a body only the request log read (a redelivery takes none) leaves nothing on the connection, which stays open", async () => {
    const large = JSON.stringify({ pad: "p".repeat(200_000) });
    expect(
      await connectionHeaderOf("POST", `/_console/api/webhook-deliveries/${SOME_ID}/redeliver`, large, TOKEN),
    ).not.toBe("close");
  });

  test("a body the route read keeps the connection open", async () => {
    expect(await connectionHeaderOf("POST", "/v2/portfolio-wallets", "{}", TOKEN)).not.toBe("close");
  });
});
