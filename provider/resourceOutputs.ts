import { z } from "zod";
import { UuidSchema } from "../sdk/contract/common.ts";
import { ON_DELETE_CHOICES, type ResourceKind } from "../sdk/resources/resourceTypes.ts";
import type { PortfolioWalletOutputs } from "./portfolioWallet.ts";
import type { WalletStrategyOutputs } from "./walletStrategy.ts";
import type { WebhookRegistrationOutputs } from "./webhookRegistration.ts";

/**
 * The outputs each resource shows, as schemas: what the implementation writes into state (the
 * TypeScript types in portfolioWallet.ts, walletStrategy.ts and webhookRegistration.ts are checked
 * against these at compile time, below), what the resource classes declare, and what the native
 * provider's package schema says (scripts/packageSchema/). A test parses real outputs with them.
 */

const WeightsByKeySchema = z.record(z.string(), z.number().int());

export const TargetPositionSchema = z.object({ positionKey: z.string(), targetWeightBps: z.number().int() });

export const SupersededFailureSchema = z.object({
  requestId: z.string(),
  failureReason: z.string().nullable(),
});

export const StrategyChangeStateSchema = z.object({
  revision: z.number().int(),
  requestId: z.string(),
  status: z.string(),
  targetPositions: z.array(TargetPositionSchema),
  signingActivityId: z.string().nullable(),
  signingActivityStatus: z.string().nullable(),
  approvalsStillNeeded: z.number().int().nullable(),
  failureReason: z.string().nullable(),
  supersededFailure: SupersededFailureSchema.nullable(),
});

const strategyChangeOutputs = {
  strategyChange: StrategyChangeStateSchema.nullable(),
  strategyChangeStatus: z.string().nullable(),
};

export const PortfolioWalletOutputsSchema = z.object({
  walletId: UuidSchema,
  targetWeightsBps: WeightsByKeySchema,
  label: z.string().optional(),
  onDelete: z.enum(ON_DELETE_CHOICES),
  adoptWalletId: UuidSchema.optional(),
  status: z.string(),
  depositAddressByChain: z.record(z.string(), z.string()),
  blendedRateBps: z.number(),
  creationRequestId: z.string().nullable(),
  ...strategyChangeOutputs,
});

export const WalletStrategyOutputsSchema = z.object({
  walletId: UuidSchema,
  targetWeightsBps: WeightsByKeySchema,
  blendedRateBps: z.number(),
  ...strategyChangeOutputs,
});

export const WebhookRegistrationOutputsSchema = z.object({
  registrationId: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string().optional(),
  enabled: z.boolean(),
  disabledReason: z.string().optional(),
  status: z.string(),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
  secret: z.string().nullable(),
});

export const RESOURCE_OUTPUTS = {
  portfolioWallet: PortfolioWalletOutputsSchema,
  walletStrategy: WalletStrategyOutputsSchema,
  webhookRegistration: WebhookRegistrationOutputsSchema,
} as const satisfies Record<ResourceKind, z.ZodObject>;

/** Outputs that are secret whatever the inputs. */
export const SECRET_OUTPUTS: Record<ResourceKind, readonly string[]> = {
  portfolioWallet: [],
  walletStrategy: [],
  webhookRegistration: ["secret"],
};

/** Compile-time: the implementation's output types have exactly these schemas' properties (and the URN). */
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : false;
type Outputs<K extends ResourceKind> = z.infer<(typeof RESOURCE_OUTPUTS)[K]> & { resourceUrn: string };
const implementationOutputsMatch: [
  SameKeys<PortfolioWalletOutputs, Outputs<"portfolioWallet">>,
  SameKeys<WalletStrategyOutputs, Outputs<"walletStrategy">>,
  SameKeys<WebhookRegistrationOutputs, Outputs<"webhookRegistration">>,
] = [true, true, true];
void implementationOutputsMatch;
