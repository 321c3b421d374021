import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { SERVICE_OPERATIONS, UuidSchema, operationTable } from "../../sdk/nodejs/contract/index.ts";
import type { SandboxEnv } from "../../sandbox/http/env.ts";
import { toErrorResponse } from "../../sandbox/http/errors.ts";
import { registerOperations } from "../../sandbox/http/operationRoutes.ts";
import { startTestSandbox } from "./helpers.ts";

/**
 * Routes registered from an operation table (sandbox/http/operationRoutes.ts): what the table says
 * is what is served and checked, whatever order the table lists its operations in.
 */

const ok = { "200": { description: "ok", schema: z.object({ served: z.string() }) } } as const;
const ThingPathSchema = z.object({ thingId: UuidSchema });
// The parameterized path first: a literal segment must still win over a parameter in its place.
const TABLE = operationTable({
  getThing: {
    method: "get",
    path: "/things/{thingId}",
    tag: "t",
    summary: "one thing",
    security: [],
    pathParams: ThingPathSchema,
    responses: ok,
  },
  countThings: {
    method: "get",
    path: "/things/count",
    tag: "t",
    summary: "count",
    security: [],
    responses: ok,
  },
  noteThing: {
    method: "post",
    path: "/things/{thingId}/notes",
    tag: "t",
    summary: "note",
    security: [],
    pathParams: ThingPathSchema,
    body: { schema: z.object({ text: z.string().min(1) }), required: false },
    responses: ok,
  },
});

function tableApp(): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.use("*", async (c, next) => {
    c.set("requestId", "test");
    c.set("organizationId", "org");
    await next();
  });
  registerOperations(app, TABLE, {
    getThing: ({ path }) => ({ status: 200, body: { served: `thing ${path.thingId}` } }),
    countThings: () => ({ status: 200, body: { served: "count" } }),
    noteThing: {
      bodyChecks: (raw) =>
        (raw as { text?: unknown }).text === "forbidden"
          ? [{ field: "text", reason: "is forbidden here" }]
          : [],
      handle: ({ body }) => ({ status: 200, body: { served: body === undefined ? "no body" : body.text } }),
    },
  });
  app.onError((error, c) => toErrorResponse(c, error));
  return app;
}

const THING = "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70";
const json = (body: unknown) => {
  const text = JSON.stringify(body);
  // As a socket's request carries it: Request objects made in-process have no length of their own.
  const length = String(Buffer.byteLength(text));
  return {
    method: "POST",
    headers: { "content-type": "application/json", "content-length": length },
    body: text,
  };
};

describe("registerOperations", () => {
  test("a literal path is served before a parameter in its place, whatever the table's order", async () => {
    const app = tableApp();
    expect(await (await app.request("/things/count")).json()).toEqual({ served: "count" });
    expect(await (await app.request(`/things/${THING}`)).json()).toEqual({ served: `thing ${THING}` });
  });

  test("a path parameter is parsed with the operation's schema, and a bad one is a 400 naming it", async () => {
    const res = await tableApp().request("/things/not-a-uuid");
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { code: string; message: string; details: unknown[] } };
    expect(error.code).toBe("validation_failed");
    expect(error.details).toEqual([
      {
        field: "thingId",
        reason: expect.stringMatching(/^path parameter thingId must be a UUID .*\(got "not-a-uuid"\)$/),
      },
    ]);
    expect(error.message).toMatch(/^invalid path parameter: /);
  });

  test("an optional body may be left out; one that is sent is checked with the schema and the route's own checks at once", async () => {
    const app = tableApp();
    const none = await app.request(`/things/${THING}/notes`, { method: "POST" });
    expect(await none.json()).toEqual({ served: "no body" });
    const sent = await app.request(`/things/${THING}/notes`, json({ text: "hello" }));
    expect(await sent.json()).toEqual({ served: "hello" });
    const bad = await app.request(`/things/${THING}/notes`, json({ text: "" }));
    expect(bad.status).toBe(400);
    const forbidden = await app.request(`/things/${THING}/notes`, json({ text: "forbidden" }));
    const { error } = (await forbidden.json()) as { error: { details: { field: string }[] } };
    expect(error.details.map((problem) => problem.field)).toEqual(["text"]);
  });
});

describe("the sandbox's service routes", () => {
  test("are exactly the operations of the contract's table, each registered once", async () => {
    const t = await startTestSandbox();
    try {
      const served = t.sandbox.app.routes
        .filter((route) => route.method !== "ALL")
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
      for (const operation of SERVICE_OPERATIONS) {
        const route = `${operation.method.toUpperCase()} ${operation.path}`;
        expect(
          served.filter((candidate) => candidate === route),
          route,
        ).toHaveLength(1);
      }
    } finally {
      await t.close();
    }
  });
});
