import { z } from "zod";
import { AllocationSchema, PositionInputSchema } from "./allocation.ts";
import { StrategiesResponseSchema, YieldSourcesResponseSchema } from "./catalog.ts";
import { PageQuerySchema, TOTAL_WEIGHT_BPS, UuidSchema } from "./common.ts";
import { DepositListSchema, DepositSchema } from "./deposit.ts";
import { ErrorBodySchema } from "./errors.ts";
import { QuoteRequestSchema, QuoteResponseSchema } from "./quote.ts";
import { StrategyUpdateRequestSchema, StrategyUpdateSchema } from "./strategy.ts";
import { CreateWalletRequestSchema, PortfolioWalletSchema, WalletListSchema } from "./wallet.ts";
import {
  CreateWebhookRegistrationRequestSchema,
  CreatedWebhookRegistrationSchema,
  WebhookRegistrationListSchema,
  WebhookRegistrationSchema,
  WebhookStatusUpdateRequestSchema,
} from "./webhook.ts";
import { WithdrawRequestSchema, WithdrawalListSchema, WithdrawalSchema } from "./withdrawal.ts";
import { YieldMetricsRequestSchema, YieldMetricsSchema } from "./yieldMetrics.ts";
import { operationTable, type ApiOperation, type OperationResponse } from "./operation.ts";

export * from "./operation.ts";

/**
 * The service's operations as one table: method, path, parameters, request body and every answer
 * by status, each with its contract schema. Written once and read by everything that speaks HTTP:
 * the sandbox registers and validates its routes from it (`sandbox/http/operationRoutes.ts`), the
 * client types and sends its calls from it (`sdk/nodejs/client/core/requester.ts`), and the OpenAPI
 * document is generated from it (`serviceDocument.ts`).
 */

/** The bearer token every service endpoint takes (spec 5.1). */
export const BEARER_AUTH = "bearerAuth";

/**
 * How the document shows schemas the JSON Schema form of their zod schema cannot say: an
 * allocation is checked position by position in one refinement (so that every problem is reported
 * at once), which JSON Schema output sees as an array of anything. Documented, it is an array of
 * `{ positionKey, targetWeightBps }`; the sum rule is in its description, since JSON Schema has no
 * way to state a sum.
 */
export const DOCUMENTED_AS: ReadonlyMap<z.ZodType, z.ZodType> = new Map<z.ZodType, z.ZodType>([
  [
    AllocationSchema,
    z
      .array(PositionInputSchema)
      .min(1)
      .meta({
        description:
          `Target allocation: each positionKey once, from the yield-source catalog; the targetWeightBps sum to exactly ${TOTAL_WEIGHT_BPS}. ` +
          "Weights are whole basis points: the service keeps allocations in whole bps, so a fractional weight could never be applied as asked (400 naming it).",
      }),
  ],
]);

/** The error answers, worded once; an operation lists the ones it can give. */
const errorAnswer = (description: string): OperationResponse => ({ description, schema: ErrorBodySchema });
export const SERVICE_ERRORS = {
  invalid: errorAnswer(
    "`validation_failed` naming every bad field in `details`, or `malformed_json` for a body that is not JSON sent as application/json",
  ),
  unauthorized: errorAnswer("`unauthorized`: missing or invalid API token (WWW-Authenticate: Bearer)"),
  notFound: errorAnswer("`not_found`: no such resource in the caller's organization"),
  conflict: errorAnswer(
    "`idempotency_conflict`: the requestId was used with a different body; or `conflict`: the resource's state does not allow it now",
  ),
  tooLarge: errorAnswer("`payload_too_large`: a body over 1 MB, refused unread"),
  insufficientFunds: errorAnswer(
    "`insufficient_funds`: more than the wallet can withdraw; the message names what is available",
  ),
  rateLimited: errorAnswer("`rate_limited`: retry after the Retry-After header's seconds"),
  unavailable: errorAnswer("`internal_error` or `unavailable`: retry later with the same requestId"),
} as const;

/** Answers every service operation can give: no token, too many requests, the service's own failure. */
const ALWAYS = {
  "401": SERVICE_ERRORS.unauthorized,
  "429": SERVICE_ERRORS.rateLimited,
  "5XX": SERVICE_ERRORS.unavailable,
} as const;
/** ...and those of an operation with a JSON body. */
const WITH_BODY = { ...ALWAYS, "400": SERVICE_ERRORS.invalid, "413": SERVICE_ERRORS.tooLarge } as const;

const WALLETS = "/v2/portfolio-wallets";
const REGISTRATIONS = "/webhooks/registrations";

const WalletPathSchema = z.object({ id: UuidSchema.meta({ description: "Wallet id" }) });
const RegistrationPathSchema = z.object({
  registrationId: UuidSchema.meta({ description: "Webhook registration id" }),
});

const WALLET_TAG = "Portfolio wallets";
const WEBHOOK_TAG = "Webhook registrations";
const bearer = [BEARER_AUTH] as const;

/**
 * Every endpoint of the service interface (spec 4), with the choices of docs/spec-gaps.md where
 * the interface leaves an answer out (success statuses, lists, errors, webhook listing and deletion).
 */
export const SERVICE_OPERATIONS_BY_ID = operationTable({
  quotePortfolioWallet: {
    method: "post",
    path: `${WALLETS}/quote`,
    tag: WALLET_TAG,
    summary: "Quote Pareto-optimal allocations (spec 4.1)",
    description:
      "Always 200 with an array of options, even when the constraints cannot all be met (several options, `optimizedFor` APY or LIQUIDITY) or the exclusions leave no yield source (an empty array). An exclusion that names nothing in the catalog is 400.",
    security: bearer,
    body: { schema: QuoteRequestSchema, required: true },
    readOnly: true,
    responses: { "200": { description: "The quote options", schema: QuoteResponseSchema }, ...WITH_BODY },
  },
  listYieldSources: {
    method: "get",
    path: `${WALLETS}/yield-sources`,
    tag: WALLET_TAG,
    summary: "The yield-source catalog (spec 4.2)",
    security: bearer,
    responses: { "200": { description: "The catalog", schema: YieldSourcesResponseSchema }, ...ALWAYS },
  },
  listStrategies: {
    method: "get",
    path: `${WALLETS}/strategies`,
    tag: WALLET_TAG,
    summary: "Position types with their liquidity limits and current rates (spec 4.3)",
    security: bearer,
    responses: { "200": { description: "The strategies", schema: StrategiesResponseSchema }, ...ALWAYS },
  },
  createPortfolioWallet: {
    method: "post",
    path: WALLETS,
    tag: WALLET_TAG,
    summary: "Create a portfolio wallet (spec 4.4)",
    description:
      "Idempotent by requestId: the same requestId and body answer the wallet already created (200); a different body is 409.",
    security: bearer,
    body: { schema: CreateWalletRequestSchema, required: true },
    responses: {
      "201": { description: "The new wallet, with its deposit addresses", schema: PortfolioWalletSchema },
      "200": { description: "A replay: the wallet this requestId created", schema: PortfolioWalletSchema },
      ...WITH_BODY,
      "409": SERVICE_ERRORS.conflict,
    },
  },
  listPortfolioWallets: {
    method: "get",
    path: WALLETS,
    tag: WALLET_TAG,
    summary: "List wallets, newest first (spec 4.5)",
    security: bearer,
    query: PageQuerySchema,
    responses: {
      "200": { description: "A page of wallets", schema: WalletListSchema },
      "400": SERVICE_ERRORS.invalid,
      ...ALWAYS,
    },
  },
  getPortfolioWallet: {
    method: "get",
    path: `${WALLETS}/{id}`,
    tag: WALLET_TAG,
    summary: "A wallet with its balances and positions (spec 4.6)",
    security: bearer,
    pathParams: WalletPathSchema,
    responses: {
      "200": { description: "The wallet", schema: PortfolioWalletSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  updatePortfolioWalletStrategy: {
    method: "patch",
    path: `${WALLETS}/{id}/strategy`,
    tag: WALLET_TAG,
    summary: "Request a new target allocation (spec 4.7)",
    description:
      "Often answers `pending_approval` with a signingActivityId to approve at the signing provider. 409 `conflict` while another update of the wallet is processing.",
    security: bearer,
    pathParams: WalletPathSchema,
    body: { schema: StrategyUpdateRequestSchema, required: true },
    responses: {
      "200": { description: "The strategy update (a replay included)", schema: StrategyUpdateSchema },
      ...WITH_BODY,
      "404": SERVICE_ERRORS.notFound,
      "409": SERVICE_ERRORS.conflict,
    },
  },
  withdrawFromPortfolioWallet: {
    method: "post",
    path: `${WALLETS}/{id}/withdraw`,
    tag: WALLET_TAG,
    summary: "Withdraw to an external address (spec 4.8)",
    security: bearer,
    pathParams: WalletPathSchema,
    body: { schema: WithdrawRequestSchema, required: true },
    responses: {
      "201": { description: "The withdrawal", schema: WithdrawalSchema },
      "200": { description: "A replay: the withdrawal this requestId made", schema: WithdrawalSchema },
      ...WITH_BODY,
      "404": SERVICE_ERRORS.notFound,
      "409": SERVICE_ERRORS.conflict,
      "422": SERVICE_ERRORS.insufficientFunds,
    },
  },
  listWithdrawals: {
    method: "get",
    path: `${WALLETS}/{id}/withdrawals`,
    tag: WALLET_TAG,
    summary: "A wallet's withdrawals, newest first (spec 4.9)",
    security: bearer,
    pathParams: WalletPathSchema,
    query: PageQuerySchema,
    responses: {
      "200": { description: "A page of withdrawals", schema: WithdrawalListSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  getWithdrawal: {
    method: "get",
    path: `${WALLETS}/{id}/withdrawals/{withdrawalId}`,
    tag: WALLET_TAG,
    summary: "One withdrawal (spec 4.10)",
    security: bearer,
    pathParams: WalletPathSchema.extend({ withdrawalId: UuidSchema.meta({ description: "Withdrawal id" }) }),
    responses: {
      "200": { description: "The withdrawal", schema: WithdrawalSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  listDeposits: {
    method: "get",
    path: `${WALLETS}/{id}/deposits`,
    tag: WALLET_TAG,
    summary: "A wallet's deposits, newest first (spec 4.11)",
    security: bearer,
    pathParams: WalletPathSchema,
    query: PageQuerySchema,
    responses: {
      "200": { description: "A page of deposits", schema: DepositListSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  getDeposit: {
    method: "get",
    path: `${WALLETS}/{id}/deposits/{depositId}`,
    tag: WALLET_TAG,
    summary: "One deposit (spec 4.11)",
    security: bearer,
    pathParams: WalletPathSchema.extend({ depositId: UuidSchema.meta({ description: "Deposit id" }) }),
    responses: {
      "200": { description: "The deposit", schema: DepositSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  getYieldMetrics: {
    method: "post",
    path: `${WALLETS}/yield`,
    tag: WALLET_TAG,
    summary: "Yield generated, withdrawn and accrued over a period (spec 4.12)",
    description:
      "Every field is optional, and so is the body: without one the figures are global and lifetime. A start after the end is 400; a wallet id that is not the caller's is 404.",
    security: bearer,
    body: { schema: YieldMetricsRequestSchema, required: false },
    readOnly: true,
    responses: {
      "200": { description: "The yield metrics", schema: YieldMetricsSchema },
      ...WITH_BODY,
      "404": SERVICE_ERRORS.notFound,
    },
  },
  createWebhookRegistration: {
    method: "post",
    path: REGISTRATIONS,
    tag: WEBHOOK_TAG,
    summary: "Subscribe a URL to event types (spec 4.13)",
    description:
      "The answer carries the HMAC signing `secret`, given only in this answer (and in a replay of it). With a requestId the creation is idempotent like a wallet's; a replay of a deleted registration is 404. 409 `conflict` when the organization holds the most registrations it may.",
    security: bearer,
    body: { schema: CreateWebhookRegistrationRequestSchema, required: true },
    responses: {
      "201": { description: "The registration and its secret", schema: CreatedWebhookRegistrationSchema },
      "200": {
        description: "A replay: the same registration and secret",
        schema: CreatedWebhookRegistrationSchema,
      },
      ...WITH_BODY,
      "404": SERVICE_ERRORS.notFound,
      "409": SERVICE_ERRORS.conflict,
    },
  },
  listWebhookRegistrations: {
    method: "get",
    path: REGISTRATIONS,
    tag: WEBHOOK_TAG,
    summary: "List registrations, newest first (docs/spec-gaps.md)",
    security: bearer,
    query: PageQuerySchema,
    responses: {
      "200": { description: "A page of registrations", schema: WebhookRegistrationListSchema },
      "400": SERVICE_ERRORS.invalid,
      ...ALWAYS,
    },
  },
  getWebhookRegistration: {
    method: "get",
    path: `${REGISTRATIONS}/{registrationId}`,
    tag: WEBHOOK_TAG,
    summary: "One registration (spec 4.13)",
    security: bearer,
    pathParams: RegistrationPathSchema,
    responses: {
      "200": { description: "The registration", schema: WebhookRegistrationSchema },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
  updateWebhookRegistrationStatus: {
    method: "patch",
    path: `${REGISTRATIONS}/{registrationId}/status`,
    tag: WEBHOOK_TAG,
    summary: "Activate or disable a registration (spec 4.13)",
    security: bearer,
    pathParams: RegistrationPathSchema,
    body: { schema: WebhookStatusUpdateRequestSchema, required: true },
    responses: {
      "200": { description: "The updated registration", schema: WebhookRegistrationSchema },
      ...WITH_BODY,
      "404": SERVICE_ERRORS.notFound,
    },
  },
  deleteWebhookRegistration: {
    method: "delete",
    path: `${REGISTRATIONS}/{registrationId}`,
    tag: WEBHOOK_TAG,
    summary: "Delete a registration (docs/spec-gaps.md)",
    security: bearer,
    pathParams: RegistrationPathSchema,
    responses: {
      "204": { description: "Deleted; nothing more is delivered to it" },
      "400": SERVICE_ERRORS.invalid,
      "404": SERVICE_ERRORS.notFound,
      ...ALWAYS,
    },
  },
});

/** The same operations as a list, in the table's order (what the document lists). */
export const SERVICE_OPERATIONS: readonly ApiOperation[] = Object.values(SERVICE_OPERATIONS_BY_ID);

/**
 * The one rule by which a contract schema is named as a type: its export's name without `Schema`
 * (`PortfolioWalletSchema` → `PortfolioWallet`). The OpenAPI document's components and the
 * package schema's types (scripts/packageSchema) are both named by it.
 */
export function schemaComponentName(exportName: string): string {
  if (!exportName.endsWith("Schema") || exportName === "Schema")
    throw new Error(`a named schema's export must be called <Name>Schema (got ${exportName})`);
  return exportName.slice(0, -"Schema".length);
}

/** Schemas given by export name (`{ PortfolioWalletSchema }`), keyed by their component names, in order. */
export function byComponentName(schemas: Readonly<Record<string, z.ZodType>>): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(schemas).map(([exportName, schema]) => [schemaComponentName(exportName), schema]),
  );
}

/** The contract's schemas that the document names as components (`#/components/schemas/<name>`). */
export const SERVICE_SCHEMA_NAMES: Readonly<Record<string, z.ZodType>> = byComponentName({
  ErrorBodySchema,
  QuoteRequestSchema,
  QuoteResponseSchema,
  YieldSourcesResponseSchema,
  StrategiesResponseSchema,
  CreateWalletRequestSchema,
  PortfolioWalletSchema,
  WalletListSchema,
  StrategyUpdateRequestSchema,
  StrategyUpdateSchema,
  WithdrawRequestSchema,
  WithdrawalSchema,
  WithdrawalListSchema,
  DepositSchema,
  DepositListSchema,
  YieldMetricsRequestSchema,
  YieldMetricsSchema,
  CreateWebhookRegistrationRequestSchema,
  CreatedWebhookRegistrationSchema,
  WebhookRegistrationSchema,
  WebhookRegistrationListSchema,
  WebhookStatusUpdateRequestSchema,
});
