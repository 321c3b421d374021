import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DURATION_JSON_PATTERN, routePattern, SERVICE_OPERATIONS } from "../../sdk/nodejs/contract/index.ts";
import { SANDBOX_DOCUMENT_OPERATIONS } from "../../sandbox/index.ts";
import { startTestSandbox, type TestSandbox } from "../sandbox/helpers.ts";
import { CONSOLE_PAGE_ROUTES } from "../../sandbox/console/consolePages.ts";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON document read loosely
type Json = any;
const fetchDocument = async (path: string): Promise<{ status: number; body: Json; type: string | null }> => {
  const res = await fetch(`${t.url}${path}`);
  return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
};
const HTTP_METHODS = ["get", "put", "post", "patch", "delete"] as const;
const operationsOf = (document: Json): string[] =>
  Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method] !== undefined).map(
      (method) => `${method.toUpperCase()} ${path}`,
    ),
  );

/** Every endpoint the service interface lists (spec 4.1–4.13), as the interface writes them. */
const INTERFACE_ENDPOINTS = [
  "POST /v2/portfolio-wallets/quote",
  "GET /v2/portfolio-wallets/yield-sources",
  "GET /v2/portfolio-wallets/strategies",
  "POST /v2/portfolio-wallets",
  "GET /v2/portfolio-wallets",
  "GET /v2/portfolio-wallets/{id}",
  "PATCH /v2/portfolio-wallets/{id}/strategy",
  "POST /v2/portfolio-wallets/{id}/withdraw",
  "GET /v2/portfolio-wallets/{id}/withdrawals",
  "GET /v2/portfolio-wallets/{id}/withdrawals/{withdrawalId}",
  "GET /v2/portfolio-wallets/{id}/deposits",
  "GET /v2/portfolio-wallets/{id}/deposits/{depositId}",
  "POST /v2/portfolio-wallets/yield",
  "POST /webhooks/registrations",
  "GET /webhooks/registrations/{registrationId}",
  "PATCH /webhooks/registrations/{registrationId}/status",
];

describe("GET /openapi.json", () => {
  test("answers without credentials, as JSON, a valid OpenAPI 3.1 document", async () => {
    const { status, type, body } = await fetchDocument("/openapi.json");
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    expect(body.openapi).toBe("3.1.0");
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("the admin API's document, at /openapi/sandbox-admin.json, is valid OpenAPI 3.1 too", async () => {
    const { status, body } = await fetchDocument("/openapi/sandbox-admin.json");
    expect(status).toBe(200);
    const result = await new Validator().validate(body);
    expect(result.errors ?? []).toEqual([]);
    expect(
      operationsOf(body).filter(
        (op) => !op.includes(" /_sandbox/") && !op.includes(" /_console/api/") && !op.includes(" /openapi"),
      ),
    ).toEqual([]);
  });

  test("the validator refuses a broken document, so the check above can fail", async () => {
    const { body } = await fetchDocument("/openapi.json");
    const broken = structuredClone(body);
    broken.paths["/v2/portfolio-wallets"].get.responses = "none";
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  test("holds every endpoint of the service interface, and the signing provider's", async () => {
    const operations = operationsOf((await fetchDocument("/openapi.json")).body);
    expect(operations).toEqual(expect.arrayContaining(INTERFACE_ENDPOINTS));
    expect(operations).toEqual(
      expect.arrayContaining([
        "POST /public/v1/query/get_activity",
        "POST /public/v1/submit/approve_activity",
        "POST /public/v1/submit/reject_activity",
      ]),
    );
    expect(operations.filter((op) => op.includes("/_sandbox"))).toEqual([]);
  });

  test("every route of the sandbox is an operation of a table, and every operation of the tables a route", () => {
    // The app registers its routes from the operation tables and the documents list the same
    // tables: a route added outside a table, or a table left unregistered, shows here.
    const routes = t.sandbox.app.routes
      .filter((route) => route.method !== "ALL")
      // The console's page and its files (sandbox/console/consolePages.ts) are what a browser
      // loads, not API operations; the console's read API is in a table.
      .filter((route) => !CONSOLE_PAGE_ROUTES.includes(route.path))
      .map((route) => `${route.method} ${route.path}`);
    const operations = [...SANDBOX_DOCUMENT_OPERATIONS.service, ...SANDBOX_DOCUMENT_OPERATIONS.admin].map(
      (operation) => `${operation.method.toUpperCase()} ${routePattern(operation.path)}`,
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(new Set(operations).size).toBe(operations.length);
    expect(routes.filter((route) => !operations.includes(route))).toEqual([]);
    expect(operations.filter((operation) => !routes.includes(operation))).toEqual([]);
    expect(routes.length).toBe(operations.length);
  });

  test("carries formats, bounds, bearer auth and the error body on every service operation", async () => {
    const { body } = await fetchDocument("/openapi.json");
    const schemas = body.components.schemas;
    expect(body.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(schemas.PortfolioWallet.properties.id.format).toBe("uuid");
    expect(schemas.PortfolioWallet.properties.createdAt.format).toBe("date-time");
    // A duration is stated by its pattern: JSON Schema's `duration` format is RFC 3339's grammar,
    // narrower than the ISO 8601 the interface names (docs/spec-gaps.md, "Durations").
    expect(
      schemas.QuoteRequest.properties.liquidityConstraints.items.properties.maxProcessingTime,
    ).toMatchObject({
      type: "string",
      pattern: DURATION_JSON_PATTERN,
    });
    // Whole basis points: the document says integer (see docs/spec-gaps.md).
    expect(schemas.CreateWalletRequest.properties.positions.items.properties.targetWeightBps).toMatchObject({
      type: "integer",
      exclusiveMinimum: 0,
      maximum: 10000,
    });
    expect(schemas.CreateWalletRequest.properties.positions.description).toMatch(/sum to exactly 10000/);
    expect(schemas.ErrorBody.required).toEqual(["error"]);
    // An id is any canonical 8-4-4-4-12 hex form, not only an RFC 9562 variant.
    expect(
      new RegExp(schemas.PortfolioWallet.properties.id.pattern).test("e3e70682-c209-4cac-629f-6fbed82c07cd"),
    ).toBe(true);
    for (const operation of SERVICE_OPERATIONS) {
      const documented = body.paths[operation.path][operation.method];
      expect(documented.security, operation.operationId).toEqual([{ bearerAuth: [] }]);
      for (const status of ["401", "429", "5XX"])
        expect(
          documented.responses[status]?.content["application/json"].schema,
          `${operation.operationId} ${status}`,
        ).toEqual({
          $ref: "#/components/schemas/ErrorBody",
        });
      if (documented.requestBody !== undefined)
        expect(Object.keys(documented.responses)).toEqual(expect.arrayContaining(["400", "413"]));
      if (operation.path.includes("{")) expect(Object.keys(documented.responses)).toContain("404");
    }
    const list = body.paths["/v2/portfolio-wallets"].get.parameters;
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "pageSize",
          in: "query",
          schema: { type: "integer", minimum: 1, maximum: 100 },
        }),
      ]),
    );
  });

  test("period.start of the yield metrics is a date-time, never null (spec 2.9)", async () => {
    const { body } = await fetchDocument("/openapi.json");
    expect(body.components.schemas.YieldMetrics.properties.period.properties.start).toMatchObject({
      type: "string",
      format: "date-time",
    });
  });
});
