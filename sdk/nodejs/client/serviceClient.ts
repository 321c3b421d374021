import { PortfolioWalletClient, type PortfolioWalletClientOptions } from "./client.ts";

/**
 * How a client's requests are retried, the one choice that differs between who makes a client:
 * - `interactive`: the client's own defaults (two retries, no time budget), for a person at a
 *   prompt, who sees the error at once and can run the command again (the command-line tool);
 * - `deployment`: through transient failures for up to `retryTimeoutMs`, however many attempts
 *   that takes, for a pipeline that must ride out minutes of throttling or an outage (the provider,
 *   the read functions, the policy pack); a budget of 0 retries nothing.
 */
export type RetryPolicy = { kind: "interactive" } | { kind: "deployment"; retryTimeoutMs: number };

/**
 * The client options of a deployment's retry policy: the stack's `retryTimeoutSeconds` as the
 * budget, and no bound on the attempts within it (the client's default of two retries suits a
 * person at a prompt, not a pipeline).
 */
export function deploymentRetryOptions(settings: { retryTimeoutMs: number }): {
  maxRetries: number;
  retryTimeoutMs: number;
} {
  return {
    maxRetries: settings.retryTimeoutMs === 0 ? 0 : Infinity,
    retryTimeoutMs: settings.retryTimeoutMs,
  };
}

/**
 * Runs `work` with a client of the service, made with `options` and the retry policy, and closes
 * the client after, whether `work` succeeds or throws: the one way a command or a policy makes a
 * client for one piece of work.
 */
export async function withClient<T>(
  options: Omit<PortfolioWalletClientOptions, "maxRetries" | "retryTimeoutMs">,
  retry: RetryPolicy,
  work: (client: PortfolioWalletClient) => Promise<T>,
): Promise<T> {
  const client = new PortfolioWalletClient({
    ...options,
    ...(retry.kind === "deployment" ? deploymentRetryOptions(retry) : {}),
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}
