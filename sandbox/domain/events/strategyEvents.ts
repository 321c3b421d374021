import type { StrategyUpdateRecord } from "../../store/strategyUpdateStore.ts";
import type { EventDataByType } from "./eventSink.ts";

/** `portfolio_wallet.strategy.status_changed` for a strategy update that changed status (spec 3.4, 6). */
export function strategyStatusEvent(
  update: StrategyUpdateRecord,
  previousStatus: string | null,
): ["portfolio_wallet.strategy.status_changed", EventDataByType["portfolio_wallet.strategy.status_changed"]] {
  return [
    "portfolio_wallet.strategy.status_changed",
    {
      portfolioWalletId: update.walletId,
      strategy: {
        id: update.id,
        requestId: update.requestId,
        status: update.status,
        failureReason: update.failureReason,
        positions: update.positions,
        signingActivityId: update.signingActivityId,
      },
      previousStatus,
    },
  ];
}
