// What each read-only function's reference page shows beyond its schema: its example. Keyed by the
// functions' table (sdk/nodejs/functions/readFunctions.ts), so a new function is a compile error
// here until its page has an example.
import type { ReadFunctionName } from "../../sdk/nodejs/functions/readFunctions.ts";
import type { ExampleValue } from "./exampleValues.ts";

export interface FunctionExample {
  /** The example's arguments. `ref` values are variables of the program. */
  args: Record<string, ExampleValue>;
  /** The result field the example exports, so that the result it binds is used (Go insists). */
  exportedOutput: string;
  /** The TypeScript call in `@portfolio-wallet/pulumi`, whose signatures are its own. */
  typescriptCall: string;
}

export const FUNCTION_EXAMPLES: Record<ReadFunctionName, FunctionExample> = {
  getQuote: {
    args: { minApyTargetBps: 400 },
    exportedOutput: "options",
    typescriptCall: "const options = await getQuote({ minApyTargetBps: 400 });",
  },
  getStrategies: {
    args: {},
    exportedOutput: "strategies",
    typescriptCall: "const strategies = await getStrategies();",
  },
  getYieldSources: {
    args: {},
    exportedOutput: "yieldSources",
    typescriptCall: "const yieldSources = await getYieldSources();",
  },
  getWallet: {
    args: { walletId: { ref: "walletId" } },
    exportedOutput: "totalBalanceUsd",
    typescriptCall: "const wallet = await getWallet(walletId);",
  },
  getYieldMetrics: {
    args: { periodStartIso: "2026-01-01T00:00:00Z" },
    exportedOutput: "global",
    typescriptCall: 'const metrics = await getYieldMetrics({ periodStartIso: "2026-01-01T00:00:00Z" });',
  },
};
