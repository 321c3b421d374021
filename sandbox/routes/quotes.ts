import {
  quoteValue,
  type FieldProblem,
  type QuoteRequest,
  type YieldSource,
} from "../../sdk/nodejs/contract/index.ts";
import type { SandboxContext } from "../http/context.ts";
import { buildQuoteOptions } from "../domain/quoteEngine.ts";
import { HttpError } from "../http/errors.ts";
import { ok } from "../http/operationRoutes.ts";
import type { ServiceRoutes } from "./serviceHandlers.ts";

/**
 * Exclusions must name something in the catalog: a typo would otherwise silently exclude nothing
 * and the quote would include the source the caller meant to avoid.
 */
function unknownExclusionProblems(request: QuoteRequest, catalog: readonly YieldSource[]): FieldProblem[] {
  const keysAndAssets = [...new Set(catalog.flatMap((e) => [e.positionKey, e.asset]))];
  const types = [...new Set(catalog.map((e) => e.strategyType))];
  const check = (field: string, values: readonly string[] | undefined, valid: string[], what: string) =>
    (values ?? []).flatMap((value, index) =>
      valid.includes(value)
        ? []
        : [
            {
              field: `${field}[${index}]`,
              reason: `unknown ${what} ${quoteValue(value)}; valid values: ${valid.join(", ")}`,
            },
          ],
    );
  return [
    ...check("yieldSourceExclusions", request.yieldSourceExclusions, keysAndAssets, "positionKey or asset"),
    ...check("yieldSourceTypeExclusions", request.yieldSourceTypeExclusions, types, "strategyType"),
  ];
}

/**
 * POST /quote (spec 4.1, 7.1): 200 with the engine's options, even when constraints cannot all be
 * met, and an empty array when the exclusions leave no yield source.
 */
export function quoteRoutes(ctx: SandboxContext) {
  return {
    quotePortfolioWallet: ({ body }, org) => {
      const catalog = ctx.catalog(org);
      const unknown = unknownExclusionProblems(body, catalog);
      if (unknown.length > 0) throw HttpError.validation(unknown);
      return ok(buildQuoteOptions(catalog, body));
    },
  } satisfies Partial<ServiceRoutes>;
}
