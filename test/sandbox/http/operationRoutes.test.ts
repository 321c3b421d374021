import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { SERVICE_OPERATIONS, UuidSchema, operationTable } from "../../../sdk/nodejs/contract/index.ts";
import type { SandboxEnv } from "../../../sandbox/http/env.ts";
import { HttpError, toErrorResponse } from "../../../sandbox/http/errors.ts";
import { registerOperations } from "../../../sandbox/http/operationRoutes.ts";
import { startTestSandbox } from "../helpers.ts";

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

/** Operations whose routes use what a table may add beyond parsing: a raw path parameter, a refusal first, the request. */
const GUARDED = operationTable({
  dropThing: {
    method: "delete",
    path: "/guarded/{name}",
    tag: "t",
    summary: "a parameter the document shows no schema for",
    security: [],
    responses: { "204": { description: "dropped" } },
  },
  keepThing: {
    method: "post",
    path: "/guarded",
    tag: "t",
    summary: "refused before its body is read unless x-allowed is sent",
    security: [],
    body: { schema: z.object({ text: z.string().min(1) }), required: true },
    responses: ok,
  },
});

function guardedApp(readBody?: (raw: unknown) => unknown): { app: Hono<SandboxEnv>; dropped: string[] } {
  const app = new Hono<SandboxEnv>();
  const dropped: string[] = [];
  app.use("*", async (c, next) => {
    c.set("requestId", "test");
    c.set("organizationId", "org");
    await next();
  });
  registerOperations(
    app,
    GUARDED,
    {
      dropThing: ({ path }) => {
        dropped.push(path.name);
        return { status: 204 };
      },
      keepThing: {
        authorize: (c) => {
          if (c.req.header("x-allowed") === undefined) throw new HttpError(403, "forbidden", "not allowed");
        },
        handle: ({ body }, _org, c) => ({ status: 200, body: { served: `${body.text} ${c.req.method}` } }),
      },
    },
    readBody === undefined ? {} : { readBody: (_c, schema) => schema.parse(readBody(undefined)) },
  );
  app.onError((error, c) => toErrorResponse(c, error));
  return { app, dropped };
}

describe("registerOperations, beyond parsing", () => {
  test("a path parameter without a schema reaches the handler as the raw string", async () => {
    const { app, dropped } = guardedApp();
    expect((await app.request("/guarded/some%20name", { method: "DELETE" })).status).toBe(204);
    expect(dropped).toEqual(["some name"]);
  });

  test("authorize refuses before the body is read: a bad body is 403, not 400", async () => {
    const { app } = guardedApp();
    expect((await app.request("/guarded", json({ text: "" }))).status).toBe(403);
    const allowed = json({ text: "kept" });
    const res = await app.request("/guarded", {
      ...allowed,
      headers: { ...allowed.headers, "x-allowed": "1" },
    });
    expect(await res.json()).toEqual({ served: "kept POST" });
  });

  test("a table's own body reader replaces the JSON one", async () => {
    const { app } = guardedApp(() => ({ text: "from the reader" }));
    const res = await app.request("/guarded", {
      method: "POST",
      headers: { "x-allowed": "1", "content-length": "0" },
    });
    expect(await res.json()).toEqual({ served: "from the reader POST" });
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
