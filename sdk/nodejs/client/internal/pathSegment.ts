import { PortfolioWalletError } from "../core/errors.ts";

/**
 * An id made safe for a URL path. An empty id is refused because `/wallets/` would silently
 * address the list instead of one wallet; encoding stops an id from adding path segments.
 */
export function pathSegment(name: string, value: string): string {
  if (typeof value !== "string" || value === "") {
    throw new PortfolioWalletError(`${name} must be a non-empty id string; got ${JSON.stringify(value)}.`);
  }
  return encodeURIComponent(value);
}
