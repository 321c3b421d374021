import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  IdempotencyConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PortfolioWalletError,
  RateLimitError,
  UnprocessableEntityError,
  ValidationError,
} from "../../../sdk/nodejs/client/index.ts";
import type * as ErrorsModule from "../../../sdk/nodejs/client/core/errors.ts";
import { TEST_TOKEN, useMockService } from "./helpers/fixtures.ts";
import { errorReply, type Handler } from "./helpers/mockServer.ts";

const { setup } = useMockService({ maxRetries: 0 });

async function failureOf(handler: Handler): Promise<unknown> {
  const { client } = await setup(handler);
  return client.wallets.retrieve(randomUUID()).catch((e: unknown) => e);
}

describe("error mapping", () => {
  const cases: [number, string, abstract new (...args: never[]) => ApiError][] = [
    [400, "malformed_json", BadRequestError],
    [400, "validation_failed", ValidationError],
    [401, "unauthorized", AuthenticationError],
    [403, "forbidden", PermissionDeniedError],
    [404, "not_found", NotFoundError],
    [409, "conflict", ConflictError],
    [409, "idempotency_conflict", IdempotencyConflictError],
    [422, "insufficient_funds", UnprocessableEntityError],
    [429, "rate_limited", RateLimitError],
    [500, "internal_error", InternalServerError],
    [503, "unavailable", InternalServerError],
    [418, "teapot", ApiError],
  ];
  test.each(cases)("%i %s becomes %o", async (status, code, errorClass) => {
    const error = await failureOf(() => errorReply(status, code));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code, name: errorClass.name });
  });

  test("a ValidationError is also a BadRequestError and an IdempotencyConflictError a ConflictError", async () => {
    expect(BadRequestError.isInstance(await failureOf(() => errorReply(400, "validation_failed")))).toBe(
      true,
    );
    const conflict = await failureOf(() => errorReply(409, "idempotency_conflict"));
    expect(ConflictError.isInstance(conflict)).toBe(true);
    expect(ValidationError.isInstance(conflict)).toBe(false);
  });

  test("carries the service's request id, code and every field problem", async () => {
    const details = [
      { field: "positions[1].targetWeightBps", reason: "must be greater than 0" },
      { field: "positions", reason: "target weights sum to 9999 bps" },
    ];
    const error = (await failureOf(() =>
      errorReply(400, "validation_failed", "the body is invalid", { requestId: "req_123", details }),
    )) as ValidationError;
    expect(error.requestId).toBe("req_123");
    expect(error.details).toEqual(details);
    expect(error.message).toContain("positions[1].targetWeightBps: must be greater than 0");
    expect(error.message).toContain("weights must sum to exactly 10000");
  });

  test("falls back to the x-request-id header for the request id", async () => {
    const error = (await failureOf(() =>
      errorReply(404, "not_found", "no such wallet", { headers: { "x-request-id": "req_hdr" } }),
    )) as NotFoundError;
    expect(error.requestId).toBe("req_hdr");
  });

  test("a 401 says how to fix the token and never contains it", async () => {
    const error = (await failureOf(() =>
      errorReply(401, "unauthorized", "invalid token"),
    )) as AuthenticationError;
    expect(error.message).toContain("apiToken option or PORTFOLIO_WALLET_API_TOKEN");
    // A general-purpose client: Pulumi settings are the provider's to name (provider/pulumiHints.ts).
    expect(error.message).not.toContain("portfolio-wallet:");
    expect(error.message).not.toContain(TEST_TOKEN);
    expect(JSON.stringify(error)).not.toContain(TEST_TOKEN);
  });

  test("sends the token as a Bearer header", async () => {
    const { server, client } = await setup(() => errorReply(404, "not_found"));
    await client.wallets.retrieve(randomUUID()).catch(() => undefined);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  });

  test("a non-JSON error body still maps by status, without a code", async () => {
    const error = (await failureOf(() => ({
      status: 502,
      body: undefined,
      headers: { "content-type": "text/html" },
    }))) as ApiError;
    expect(InternalServerError.isInstance(error)).toBe(true);
    expect(error.code).toBeUndefined();
    expect(error.message).toContain("not the service's error JSON");
  });
});

describe("isInstance", () => {
  test("recognizes errors from another copy of the package and rejects other values", async () => {
    // A second module instance of errors.ts, as when two versions of the SDK are installed.
    const specifier = new URL("../../../sdk/nodejs/client/core/errors.ts?copy", import.meta.url).href;
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof ErrorsModule;
    expect(copy.NotFoundError).not.toBe(NotFoundError);
    const foreign = copy.apiErrorFor({
      method: "GET",
      path: "/x",
      status: 404,
      code: "not_found",
      serviceMessage: "gone",
      requestId: undefined,
      details: [],
      headers: {},
    });
    expect(foreign instanceof NotFoundError).toBe(false);
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(ApiError.isInstance(foreign)).toBe(true);
    expect(PortfolioWalletError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
    expect(ApiError.isInstance(new Error("plain"))).toBe(false);
    expect(ApiError.isInstance({ status: 404 })).toBe(false);
    expect(ApiError.isInstance(null)).toBe(false);
  });
});
