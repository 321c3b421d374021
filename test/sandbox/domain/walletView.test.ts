import { describe, expect, test } from "vitest";
import { completeCatalog, DEFAULT_CATALOG } from "../../../sandbox/domain/catalog.ts";
import { walletView } from "../../../sandbox/domain/walletView.ts";
import { openDatabase } from "../../../sandbox/store/db.ts";
import { insertWallet, setBalance } from "../../../sandbox/store/walletStore.ts";

const AT = "2026-01-01T00:00:00.000Z";
const catalog = completeCatalog(DEFAULT_CATALOG, AT);

/** A wallet straight in the store, so balances can be set before deposits exist as a feature. */
function walletWith(balances: Record<string, number>) {
  const db = openDatabase(":memory:");
  const wallet = {
    id: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70",
    organizationId: "org",
    requestId: "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f71",
    label: null,
    status: "active",
    pendingAllocationsMicros: 0n,
    createdAt: AT,
    updatedAt: AT,
  };
  insertWallet(
    db,
    wallet,
    [
      { positionKey: "tbills", targetWeightBps: 6000, asset: "tbills", maxProcessingTime: "PT24H" },
      { positionKey: "syrupUsdc", targetWeightBps: 4000, asset: "syrupUSDC", maxProcessingTime: "PT0H" },
    ],
    [],
  );
  for (const [positionKey, valueUsd] of Object.entries(balances)) {
    setBalance(db, wallet.id, { positionKey, valueMicros: BigInt(valueUsd) * 1_000_000n }, AT);
  }
  return walletView(db, wallet, catalog, { includeRequestId: false, at: AT });
}

describe("walletView", () => {
  test("reports actual weights, drift, balances, blended rate and liquidity from held value", () => {
    const view = walletWith({ tbills: 500, syrupUsdc: 500 });
    expect(view.totalBalanceUsd).toBe(1000);
    expect(view.instantWithdrawableUsd).toBe(500);
    expect(view.positions.map((p) => [p.positionKey, p.weightBps, p.driftBps])).toEqual([
      ["tbills", 5000, -1000],
      ["syrupUsdc", 5000, 1000],
    ]);
    // 0.5 * 430 + 0.5 * 650
    expect(view.blendedRateBps).toBe(540);
    expect(view.liquidityProfile).toEqual([
      { maxProcessingTime: "PT0H", weightBps: 5000 },
      { maxProcessingTime: "PT24H", weightBps: 5000 },
    ]);
  });

  test("keeps fractional weights and shows money left in a source no longer targeted", () => {
    const view = walletWith({ tbills: 100, syrupUsdc: 100, resolvRlp: 100 });
    const rlp = view.positions.find((p) => p.positionKey === "resolvRlp");
    expect(rlp).toMatchObject({
      targetWeightBps: 0,
      weightBps: 3333.33,
      driftBps: 3333.33,
      meta: { asset: "rlp", maxProcessingTime: "PT168H" },
    });
    expect(view.totalBalanceUsd).toBe(300);
  });
});
