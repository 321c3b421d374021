import { Agent } from "undici";
import type { Transport, TransportRequest, TransportResponse } from "./transport.ts";

/** Connection-pool settings of the default transport. */
export interface UndiciTransportOptions {
  /** How long an idle keep-alive connection stays open, in milliseconds. Default 30000. */
  keepAliveTimeoutMs?: number;
  /** Most concurrent connections per origin. Default 16. */
  connectionsPerOrigin?: number;
}

/**
 * The default transport: one undici Agent (a keep-alive pool per origin), so consecutive calls
 * of one client reuse TCP (and TLS) connections instead of opening one per request.
 */
export class UndiciTransport implements Transport {
  readonly #agent: Agent;

  constructor(options: UndiciTransportOptions = {}) {
    this.#agent = new Agent({
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: options.connectionsPerOrigin ?? 16,
    });
  }

  async makeRequest(request: TransportRequest): Promise<TransportResponse> {
    const response = await this.#agent.request({
      origin: request.url.origin,
      path: request.url.pathname + request.url.search,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal,
    });
    // Reading the body fully (even when unused) returns the connection to the pool.
    const body = await response.body.text();
    return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
