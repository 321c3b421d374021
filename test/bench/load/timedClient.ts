// The load benches' client of one organization: every request timed into a list of samples.
import { Agent } from "undici";
import { sendToSandbox } from "../../support/sandboxAccess.ts";

export interface Sample {
  /** `METHOD /route/:pattern`, so samples group by route whatever the ids. */
  route: string;
  ms: number;
  status: number;
}

// Answers are loose JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;
export type Api = (method: string, route: string, pathname: string, body?: unknown) => Promise<Body>;

/**
 * The connections of one pipeline's client (each Pulumi provider process keeps its own), kept
 * open between requests. Through the bench process's one shared pool (global fetch), a burst of
 * answers left every socket briefly taken, the pool opened a dozen new ones at once, and their
 * requests waited 0.6–2 s for their connections: the "worst organization's p99" of 1–2 s at 64
 * organizations was that, while the sandbox itself never held any request over 300 ms.
 */
export function pipelineConnections(): Agent {
  return new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
}

/** A client of one organization that times every request into `samples`; a 5xx throws. */
export function clientOf(
  url: string,
  token: string,
  samples: Sample[],
  connections = pipelineConnections(),
): Api {
  return async (method, route, pathname, body) => {
    const started = performance.now();
    const answer = await sendToSandbox({ url, token, connections }, method, pathname, body);
    samples.push({ route: `${method} ${route}`, ms: performance.now() - started, status: answer.status });
    if (answer.status >= 500)
      throw new Error(`${method} ${pathname} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  };
}
