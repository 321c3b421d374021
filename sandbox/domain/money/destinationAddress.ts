import type { FieldProblem } from "../../../sdk/nodejs/contract/index.ts";
import { WITHDRAWAL_TOKENS, quoteValue } from "../../../sdk/nodejs/contract/index.ts";
import { chainAddressProblem, isKnownChain, unknownChainReason } from "../chainAddresses.ts";

/**
 * Checks of a withdraw body the schema cannot make, on the raw body so they are reported along
 * with the schema's: a known chain, a supported token, an address in the chain's format.
 */
export function destinationProblems(raw: unknown): FieldProblem[] {
  if (raw === null || typeof raw !== "object") return [];
  const body = raw as Record<string, unknown>;
  const problems: FieldProblem[] = [];
  const chain = body.destinationChain;
  if (typeof chain === "string" && chain !== "" && !isKnownChain(chain)) {
    problems.push({ field: "destinationChain", reason: unknownChainReason(chain) });
  }
  const token = body.destinationToken;
  if (
    typeof token === "string" &&
    token !== "" &&
    !(WITHDRAWAL_TOKENS as readonly string[]).includes(token)
  ) {
    problems.push({
      field: "destinationToken",
      reason: `unsupported token ${quoteValue(token)}; use one of: ${WITHDRAWAL_TOKENS.join(", ")}`,
    });
  }
  const address = body.destinationAddress;
  if (typeof chain === "string" && isKnownChain(chain) && typeof address === "string" && address !== "") {
    const problem = chainAddressProblem(chain, address);
    if (problem !== null) problems.push({ field: "destinationAddress", reason: problem });
  }
  return problems;
}
