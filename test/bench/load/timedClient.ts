// The load benches' client of one organization: every request timed into a list of samples.
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

/** A client of one organization that times every request into `samples`; a 5xx throws. */
export function clientOf(url: string, token: string, samples: Sample[]): Api {
  return async (method, route, pathname, body) => {
    const started = performance.now();
    const answer = await sendToSandbox({ url, token }, method, pathname, body);
    samples.push({ route: `${method} ${route}`, ms: performance.now() - started, status: answer.status });
    if (answer.status >= 500)
      throw new Error(`${method} ${pathname} answered ${answer.status}: ${answer.text}`);
    return answer.body;
  };
}
