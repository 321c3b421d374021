import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ConflictError, NotFoundError, ValidationError } from "../../../sandbox/domain/errors.ts";
import type { SandboxEnv } from "../../../sandbox/http/env.ts";
import { toErrorResponse, toTurnkeyErrorResponse, TurnkeyHttpError } from "../../../sandbox/http/errors.ts";

/** A one-route app that throws `error`, answered by the given error renderer. */
async function answerTo(error: unknown, render: typeof toErrorResponse = toErrorResponse) {
  const app = new Hono<SandboxEnv>();
  app.get("/", () => {
    throw error;
  });
  app.onError((thrown, c) => render(c, thrown));
  const response = await app.request("/");
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("sandbox error responses (sandbox/http/errors.ts)", () => {
  afterEach(() => vi.restoreAllMocks());

  test("an unknown error is logged once, on one line that holds its stack, in either shape", async () => {
    for (const render of [toErrorResponse, toTurnkeyErrorResponse]) {
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      await answerTo(new Error("disk on fire"), render);
      expect(logged.mock.calls).toHaveLength(1);
      const [line, ...rest] = logged.mock.calls[0] ?? [];
      expect(rest).toEqual([]);
      expect(line).toMatch(/unhandled error: Error: disk on fire \| at .*errorResponses\.test\.ts/);
      expect(line).not.toContain("\n");
      logged.mockRestore();
    }
  });

  test("an HTTPException from Hono's middleware keeps its status and gets the service's error body", async () => {
    const refused = await answerTo(new HTTPException(401, { message: "no token" }));
    expect(refused).toEqual({
      status: 401,
      body: { error: { code: "unauthorized", message: "no token", requestId: null, details: [] } },
    });
    const tooLarge = await answerTo(new HTTPException(413));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({
      error: { code: "payload_too_large", message: expect.stringContaining("413") },
    });
  });

  test("domain errors map to one status and code each; anything else is a 500 that names no detail", async () => {
    expect((await answerTo(new NotFoundError("portfolio wallet x"))).status).toBe(404);
    expect((await answerTo(new ConflictError("busy"))).body).toMatchObject({ error: { code: "conflict" } });
    expect(
      (await answerTo(new ValidationError([{ field: "positions", reason: "must not be empty" }]))).body,
    ).toMatchObject({ error: { code: "validation_failed", details: [{ field: "positions" }] } });
    const unknown = await answerTo(new Error("secret internals"));
    expect(unknown.status).toBe(500);
    expect(JSON.stringify(unknown.body)).not.toContain("secret internals");
  });

  test("the signing provider's shape: domain errors and its own errors by Turnkey code", async () => {
    expect(await answerTo(new NotFoundError("activity a"), toTurnkeyErrorResponse)).toEqual({
      status: 404,
      body: { code: 5, message: "activity a was not found", details: [] },
    });
    expect((await answerTo(new ConflictError("decided"), toTurnkeyErrorResponse)).body).toMatchObject({
      code: 9,
    });
    expect(
      (await answerTo(new TurnkeyHttpError("unauthenticated", "bad stamp"), toTurnkeyErrorResponse)).status,
    ).toBe(401);
    const unknown = await answerTo(new Error("secret internals"), toTurnkeyErrorResponse);
    expect(unknown).toMatchObject({ status: 500, body: { code: 13 } });
    expect(JSON.stringify(unknown.body)).not.toContain("secret internals");
  });
});
