// @ts-check
// Live updates by polling at a bounded rate: the current page's reads run again every
// `intervalMs` after the previous round finished (never two rounds at once), not while the tab is
// hidden, and further apart after failures (doubling up to `maxBackoffMs`: a few seconds, so a
// sandbox that is back is seen soon; a local sandbox does not notice a read every 5 s). Polling rather than
// server-sent events: an EventSource cannot send the Authorization header, and the token may not
// travel in a URL or a cookie.

/**
 * @param {() => Promise<void>} refresh one round of reads; throwing counts as a failure
 * @param {{ intervalMs?: number, maxBackoffMs?: number, onError?: (error: unknown) => void, onSuccess?: () => void }} [options]
 */
export function startPolling(refresh, options = {}) {
  const intervalMs = options.intervalMs ?? 2000;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  let stopped = false;
  let running = false;
  let again = false;
  let failures = 0;
  /** @type {number | undefined} */
  let timer;

  const schedule = () => {
    window.clearTimeout(timer);
    if (stopped || document.hidden) return;
    const delay = failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** failures);
    timer = window.setTimeout(() => void round(), delay);
  };

  async function round() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    window.clearTimeout(timer);
    try {
      await refresh();
      failures = 0;
      options.onSuccess?.();
    } catch (error) {
      failures += 1;
      options.onError?.(error);
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      void round();
    } else {
      schedule();
    }
  }

  const onVisibility = () => {
    if (!document.hidden) void round();
  };
  document.addEventListener("visibilitychange", onVisibility);
  void round();

  return {
    /** Runs a round now (after the one in flight, if any), for example right after an action. */
    now() {
      void round();
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}
