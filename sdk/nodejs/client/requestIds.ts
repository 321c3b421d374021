import { createHash } from "node:crypto";
import { v5 as uuidv5 } from "uuid";
import { canonicalAllocation } from "../contract/allocation.ts";

/**
 * The idempotency keys (requestIds) the provider and the command-line tool derive, in one place
 * with their one namespace: the client's floor, which both stand on. Each derivation is pinned to
 * its value by test/sdk/client/requestIds.test.ts, since a key that changed across an upgrade would
 * have the service perform a resumed operation twice.
 */

/**
 * The namespace of every requestId the provider and the command-line tool derive. Fixed forever:
 * changing it would give a resumed operation a new key, and the service would then perform it twice.
 */
const REQUEST_ID_NAMESPACE = "5b0f4c3e-9a57-4f0e-8d2a-6f1d3c7b9e21";

/**
 * The requestId of a resource's creation: a UUID v5 of its URN. A retried or resumed `pulumi up`
 * sends the same key, so the service returns the wallet it already made instead of a second one.
 *
 * Re-creating a resource under the same name (same URN) sends the same key again: with the same
 * body the service answers with the wallet created the first time, which is then reconciled;
 * with a different body it answers 409, and earlierWallet.ts finds that wallet and takes it over
 * when it is empty (see docs/provider.md, "Re-creating under the same name").
 */
export function creationRequestId(urn: string): string {
  return uuidv5(`create:${urn}`, REQUEST_ID_NAMESPACE);
}

/** SHA-256 of the canonical allocation (only positionKey and targetWeightBps, sorted by key). */
export function allocationHash(
  positions: readonly { positionKey: string; targetWeightBps: number }[],
): string {
  return createHash("sha256")
    .update(JSON.stringify(canonicalAllocation(positions)))
    .digest("hex");
}

/**
 * The requestId of a strategy change. It folds in:
 * - the URN, so two resources never share a key;
 * - the revision (how many strategy changes this resource has started before), so going
 *   A → B → A sends a new key for the second A instead of replaying the first;
 * - the hash of the target allocation, so a different target always gets a new key.
 * Re-applying the same pending change reuses the stored key (see strategyChange/requestKey.ts).
 */
export function strategyUpdateRequestId(
  urn: string,
  revision: number,
  positions: readonly { positionKey: string; targetWeightBps: number }[],
): string {
  return uuidv5(`strategy:${urn}:${revision}:${allocationHash(positions)}`, REQUEST_ID_NAMESPACE);
}

/**
 * The requestId of a webhook registration's creation, from its URN and a generation. Unlike a
 * wallet, a registration can be deleted; the key that created a deleted one is spent (the service
 * answers 404 for it), so re-creating under the same name moves to the next generation. A retried
 * create walks the same generations and lands on the same live registration.
 */
export function webhookCreationRequestId(urn: string, generation: number): string {
  return uuidv5(generation === 0 ? `webhook:${urn}` : `webhook:${urn}:${generation}`, REQUEST_ID_NAMESPACE);
}

/**
 * The requestId the command-line tool sends for a withdrawal when it is given none: a UUID v5 of the
 * withdrawal's details and the UTC day. Re-running the same command (after a timeout, a killed
 * terminal, a retried CI job) sends the same key, so the service answers with the withdrawal it
 * already made instead of paying twice; an identical withdrawal on purpose takes `--request-id`.
 */
export function withdrawalRequestId(
  details: { walletId: string; amount: number; chain: string; token: string; address: string },
  utcDay: string,
): string {
  const { walletId, amount, chain, token, address } = details;
  return uuidv5(
    `withdraw:${walletId}:${amount}:${chain}:${token}:${address}:${utcDay}`,
    REQUEST_ID_NAMESPACE,
  );
}
