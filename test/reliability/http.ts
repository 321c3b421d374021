/** One answer of the sandbox as the reliability suite sees it. */
export interface Answer {
  status: number | "hang" | "dropped";
  text: string;
  // Answers are read as loose JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** How long a request may take before it counts as a hang. */
export const HANG_AFTER_MS = 15_000;

/** One HTTP request with a deadline; never throws. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | ReadableStream<Uint8Array> } = {},
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: options.headers ?? {},
      ...(options.body === undefined ? {} : { body: options.body, duplex: "half" }),
      signal: AbortSignal.timeout(HANG_AFTER_MS),
    } as RequestInit);
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.status, text, json };
  } catch (error) {
    const name = (error as Error).name;
    return {
      status: name === "TimeoutError" || name === "AbortError" ? "hang" : "dropped",
      text: "",
      json: null,
    };
  }
}

/** Runs `tasks` with at most `concurrency` at once, in order of the array; resolves with every result. */
export async function pool<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      const task = tasks[index];
      if (task !== undefined) results[index] = await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
}

/** The 95th percentile of some durations. */
export function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}
