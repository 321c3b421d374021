import { appendFileSync } from "node:fs";

/**
 * Where the provider's time goes, for `npm run bench`: with PORTFOLIO_WALLET_PROVIDER_TIMINGS set
 * to a file, every call appends one JSON line (method, kind, milliseconds, and when in the process's
 * life it started). Off, it costs one environment lookup per call.
 */
const TIMINGS_FILE = process.env["PORTFOLIO_WALLET_PROVIDER_TIMINGS"];

export interface CallTiming {
  pid: number;
  /** `loaded` (this module evaluated: the implementation is ready), or the provider method. */
  method: string;
  kind?: string;
  /** Milliseconds since the process started, when the call began. */
  startedAtMs: number;
  durationMs: number;
}

function record(timing: Omit<CallTiming, "pid">): void {
  if (TIMINGS_FILE === undefined || TIMINGS_FILE === "") return;
  appendFileSync(TIMINGS_FILE, `${JSON.stringify({ pid: process.pid, ...timing })}\n`);
}

record({ method: "loaded", startedAtMs: process.uptime() * 1000, durationMs: 0 });

/** Runs one provider call, timed when timings are on. */
export async function timedCall<T>(
  method: string,
  kind: string | undefined,
  call: () => Promise<T>,
): Promise<T> {
  if (TIMINGS_FILE === undefined || TIMINGS_FILE === "") return call();
  const startedAtMs = process.uptime() * 1000;
  try {
    return await call();
  } finally {
    record({
      method,
      ...(kind !== undefined ? { kind } : {}),
      startedAtMs,
      durationMs: process.uptime() * 1000 - startedAtMs,
    });
  }
}
