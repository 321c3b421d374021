import { z } from "zod";
import { AllocationSchema } from "./allocation.ts";
import { DateTimeSchema, UuidSchema, openEnum, pageOf } from "./common.ts";

export const KNOWN_CHAINS = [
  "ethereum",
  "solana",
  "bsc",
  "avalanche",
  "arbitrum",
  "base",
  "optimism",
] as const;
export type KnownChain = (typeof KNOWN_CHAINS)[number];

export const WALLET_STATUSES = ["active"] as const;

/** Value of each key of `depositAddresses` (spec 2.2). */
export const DepositAddressSchema = z.looseObject({
  address: z.string(),
  totalBalanceUsd: z.number(),
  pendingAllocationsUsd: z.number(),
});
export type DepositAddress = z.infer<typeof DepositAddressSchema>;

/** A position of `strategyConfig` (spec 2.3). */
export const StrategyConfigPositionSchema = z.looseObject({
  positionKey: z.string(),
  targetWeightBps: z.number(),
  maxProcessingTime: z.string(),
  asset: z.string(),
});
export type StrategyConfigPosition = z.infer<typeof StrategyConfigPositionSchema>;

export const StrategyConfigSchema = z.looseObject({
  positions: z.array(StrategyConfigPositionSchema),
});
export type StrategyConfig = z.infer<typeof StrategyConfigSchema>;

/** A current position of a wallet (spec 2.4). */
export const WalletPositionSchema = z.looseObject({
  positionKey: z.string(),
  meta: z.looseObject({ asset: z.string(), maxProcessingTime: z.string() }),
  targetWeightBps: z.number(),
  balanceUnits: z.number(),
  valueUsd: z.number(),
  weightBps: z.number(),
  currentApyBps: z.number(),
  driftBps: z.number(),
});
export type WalletPosition = z.infer<typeof WalletPositionSchema>;

export const LiquidityProfileEntrySchema = z.looseObject({
  maxProcessingTime: z.string(),
  weightBps: z.number(),
});
export type LiquidityProfileEntry = z.infer<typeof LiquidityProfileEntrySchema>;

/** A portfolio wallet (spec 2.1). `depositAddresses` accepts chains added after this client was written. */
export const PortfolioWalletSchema = z.looseObject({
  id: UuidSchema,
  requestId: UuidSchema.optional(),
  label: z.string().nullish(),
  status: openEnum(WALLET_STATUSES),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  totalBalanceUsd: z.number(),
  instantWithdrawableUsd: z.number(),
  pendingAllocationsUsd: z.number(),
  depositAddresses: z.record(z.string(), DepositAddressSchema),
  blendedRateBps: z.number(),
  strategyConfig: StrategyConfigSchema,
  liquidityProfile: z.array(LiquidityProfileEntrySchema),
  positions: z.array(WalletPositionSchema),
});
export type PortfolioWallet = z.infer<typeof PortfolioWalletSchema>;

/** POST /v2/portfolio-wallets body (spec 4.4). */
export const CreateWalletRequestSchema = z.looseObject({
  requestId: UuidSchema,
  positions: AllocationSchema,
  label: z.string().max(200, "must be at most 200 characters").optional(),
});
export type CreateWalletRequest = z.infer<typeof CreateWalletRequestSchema>;

/** GET /v2/portfolio-wallets (spec 4.5; shape not shown, same as the withdrawals list). */
export const WalletListSchema = pageOf(PortfolioWalletSchema);
export type WalletList = z.infer<typeof WalletListSchema>;
