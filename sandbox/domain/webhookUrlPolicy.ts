import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";

/**
 * Where the sandbox agrees to send webhooks (docs/sandbox.md "Webhook URLs"). Always refused: URLs
 * carrying credentials (`user:password@`), link-local addresses (169.254.0.0/16, fe80::/10, where
 * cloud metadata services live), known metadata hosts and addresses, and non-unicast addresses.
 * Loopback (127.0.0.0/8, ::1, localhost) and private ranges (10/8, 172.16/12, 192.168/16,
 * 100.64/10, fc00::/7, 0.0.0.0) are refused unless `allowPrivateNetworks` is set (startSandbox
 * option `allowPrivateWebhookUrls`, flag `--allow-private-webhook-urls`, env
 * SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS): tests and the quickstart receive webhooks on 127.0.0.1.
 *
 * Checked when a registration is created (the URL as written) and again at every attempt, on the
 * addresses the host name resolves to, so a name that resolves to a refused address (or changes
 * to one later) gets nothing either.
 */
export interface WebhookUrlPolicy {
  /** Allow loopback and private-range receivers. */
  allowPrivateNetworks: boolean;
}

type AddressClass = "public" | "private" | "refused";

const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);
const METADATA_IPV4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16"]);

function ipv4Octets(address: string): number[] {
  return address.split(".").map(Number);
}

function classifyIpv4(address: string): { cls: AddressClass; what: string } {
  const [a = 0, b = 0] = ipv4Octets(address);
  if (METADATA_IPV4.has(address)) return { cls: "refused", what: "a cloud metadata address" };
  if (a === 169 && b === 254) return { cls: "refused", what: "a link-local address" };
  if (a >= 224) return { cls: "refused", what: "not a unicast address" };
  if (a === 127 || a === 0) return { cls: "private", what: "a loopback address" };
  if (
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  ) {
    return { cls: "private", what: "a private-network address" };
  }
  if (a === 198 && (b === 18 || b === 19)) return { cls: "private", what: "a private-network address" };
  return { cls: "public", what: "a public address" };
}

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Octets(tail);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const groups =
    rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

function classifyIpv6(address: string): { cls: AddressClass; what: string } {
  const groups = ipv6Groups(address);
  if (groups === null) return { cls: "refused", what: "not an address the sandbox understands" };
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedIpv4 = `${g6 >> 8}.${g6 & 0xff}.${g7 >> 8}.${g7 & 0xff}`;
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  const prefixZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (
    (prefixZero && (g5 === 0xffff || (g5 === 0 && (g6 !== 0 || g7 > 1)))) ||
    (g0 === 0x64 && g1 === 0xff9b)
  ) {
    return classifyIpv4(embeddedIpv4);
  }
  if (groups.every((g, i) => (i === 7 ? g <= 1 : g === 0)))
    return { cls: "private", what: "a loopback address" };
  if (
    g0 === 0xfd00 &&
    g1 === 0x0ec2 &&
    g7 === 0x254 &&
    g2 === 0 &&
    g3 === 0 &&
    g4 === 0 &&
    g5 === 0 &&
    g6 === 0
  ) {
    return { cls: "refused", what: "a cloud metadata address" };
  }
  if ((g0 & 0xffc0) === 0xfe80) return { cls: "refused", what: "a link-local address" };
  if ((g0 & 0xff00) === 0xff00) return { cls: "refused", what: "not a unicast address" };
  if ((g0 & 0xfe00) === 0xfc00) return { cls: "private", what: "a private-network address" };
  return { cls: "public", what: "a public address" };
}

/** Why the sandbox will not send to this IP address, or null when it will. */
export function addressProblem(address: string, policy: WebhookUrlPolicy): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const { cls, what } = family === 4 ? classifyIpv4(address) : classifyIpv6(address);
  if (cls === "public") return null;
  if (cls === "private" && policy.allowPrivateNetworks) return null;
  return cls === "private"
    ? `points to ${what} (${address}); the sandbox sends webhooks there only when started with --allow-private-webhook-urls`
    : `points to ${what} (${address}), where the sandbox never sends webhooks`;
}

/**
 * Why the sandbox will not send webhooks to `url` as written, or null when it may (a host name is
 * checked again on its resolved addresses at each attempt). Assumes an absolute http(s) URL.
 */
export function webhookUrlProblem(url: string, policy: WebhookUrlPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not an absolute URL";
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "must not carry credentials (user:password@); authenticate deliveries with the registration's signing secret";
  }
  // The WHATWG parser already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const host = parsed.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (isIP(host) !== 0) return addressProblem(host, policy);
  if (METADATA_HOSTS.has(host))
    return `points to ${host}, a cloud metadata host, where the sandbox never sends webhooks`;
  if (host === "localhost" || host.endsWith(".localhost")) {
    return policy.allowPrivateNetworks
      ? null
      : `points to ${host}, a loopback name; the sandbox sends webhooks there only when started with --allow-private-webhook-urls`;
  }
  return null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` for the delivery agent that drops refused addresses from the answer, and fails
 * the connection when none is left: a host name cannot smuggle a delivery to a refused address.
 */
export function guardedLookup(policy: WebhookUrlPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, []);
        return;
      }
      const allowed = addresses.filter((entry) => addressProblem(entry.address, policy) === null);
      const first = allowed[0];
      if (first === undefined) {
        const refused = Object.assign(
          new Error(
            `${hostname} resolves only to addresses the sandbox does not send webhooks to (${addresses.map((a) => a.address).join(", ")})`,
          ),
          { code: "EADDRNOTAVAIL" },
        );
        callback(refused, []);
        return;
      }
      if (options.all === true) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}
