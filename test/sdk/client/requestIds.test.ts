import { describe, expect, test } from "vitest";
import {
  allocationHash,
  creationRequestId,
  strategyUpdateRequestId,
  webhookCreationRequestId,
  withdrawalRequestId,
} from "../../../sdk/nodejs/client/requestIds.ts";

/**
 * The idempotency keys, each pinned to the value it has had since it was first derived: a key that
 * changed across an upgrade would send a resumed `pulumi up` or a re-run withdrawal under a new
 * key, and the service would perform it twice. A change here is never a refactor.
 */

const URN = "urn:pulumi:dev::treasury::portfolio-wallet:index:PortfolioWallet::treasury";
const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "aave-usdc", targetWeightBps: 4000 },
];

describe("requestIds", () => {
  test("a resource's creation key is the same UUID v5 of its URN as before", () => {
    expect(creationRequestId(URN)).toBe("e8200c4e-a197-59a5-82ee-80799590a454");
  });

  test("a strategy change's key folds in the URN, the revision and the allocation's hash, as before", () => {
    expect(allocationHash(POSITIONS)).toBe(
      "5f3a093b295f1f908aad90a9eaf38d0fa048a986a97570c5c7d0909e7959f14b",
    );
    // The canonical allocation: the order the positions are given in does not matter.
    expect(allocationHash([...POSITIONS].reverse())).toBe(allocationHash(POSITIONS));
    expect(strategyUpdateRequestId(URN, 2, POSITIONS)).toBe("04c6ce54-1cec-59af-8fd7-259e5ed53cb8");
  });

  test("a webhook registration's key: generation 0 without a suffix, later ones with it, as before", () => {
    expect(webhookCreationRequestId(URN, 0)).toBe("8e3a61e0-db9e-596f-bd5d-be53745ababa");
    expect(webhookCreationRequestId(URN, 3)).toBe("9194fae7-6751-579b-9288-ec764695bc2d");
  });

  test("the command-line tool's withdrawal key: the details and the UTC day, as before", () => {
    const details = {
      walletId: "0b6f5d4e-8c2a-4f1e-9d3b-7a6c5e4f3d2b",
      amount: 1250.5,
      chain: "ethereum",
      token: "USDC",
      address: "0x52908400098527886E0F7030069857D2E4169EE7",
    };
    expect(withdrawalRequestId(details, "2026-12-06")).toBe("03ed3d71-8da1-5173-95c6-a84954b6be67");
    expect(withdrawalRequestId(details, "2026-12-07")).not.toBe("03ed3d71-8da1-5173-95c6-a84954b6be67");
  });
});
