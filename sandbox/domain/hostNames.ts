import { isIP } from "node:net";

/**
 * Host names as the sandbox reads them, for the Host check of every request (http/transportMiddleware.ts)
 * and for knowing a webhook URL that names this sandbox's own inboxes (events/inboxes.ts): one
 * reading, so that both agree on what is this machine.
 */

/** Whether `hostname` (no port; brackets allowed around IPv6) is a loopback name or address. */
export function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1" || bare === "0:0:0:0:0:0:0:1";
}

/** The host name of a `Host` value or URL host, without its port, lower case, without a final dot. */
export function hostnameOf(host: string): string {
  const withoutPort = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d*$/, "");
  return withoutPort.toLowerCase().replace(/\.$/, "");
}
