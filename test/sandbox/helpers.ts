import { randomUUID } from "node:crypto";
import { startSandbox, type Sandbox, type SandboxOptions } from "../../sandbox/index.ts";

export const TOKEN = "token-a";
export const OTHER_TOKEN = "token-b";
export const ORG = "org-a";
export const OTHER_ORG = "org-b";

// Tests read answers as loose JSON (and parse with the contract schemas where the shape is the point),
// so the default body type is `any` on purpose.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestSandbox {
  sandbox: Sandbox;
  url: string;
  /** One real HTTP request; the body is sent as JSON unless `raw` is given. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  api<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/** Starts an in-memory sandbox on a free port with two organizations (org-a, org-b). */
export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await startSandbox({
    port: 0,
    dataDir: ":memory:",
    tokens: { [TOKEN]: ORG, [OTHER_TOKEN]: OTHER_ORG },
    ...options,
  });
  const api: TestSandbox["api"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? TOKEN : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? null : JSON.parse(text),
    };
  };
  return { sandbox, url: sandbox.url, api, close: () => sandbox.close() };
}

export const uuid = () => randomUUID();

export const TWO_SOURCES = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];

export function walletBody(overrides: Record<string, unknown> = {}) {
  return { requestId: uuid(), positions: TWO_SOURCES, ...overrides };
}

/** Polls `check` until it returns true (or fails the test after `timeoutMs`). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}
