import { promises as dns, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";

/**
 * Where the sandbox agrees to send webhooks (docs/sandbox.md "Webhook URLs"). Always refused: URLs
 * carrying credentials (`user:password@`), link-local addresses (169.254.0.0/16, fe80::/10, where
 * cloud metadata services live), known metadata hosts and addresses, non-unicast addresses, and
 * every other range of IANA's special-purpose registries that is not globally reachable
 * (documentation, benchmarking, reserved, discard...). Loopback (127.0.0.0/8, ::1, localhost),
 * private ranges (10/8, 172.16/12, 192.168/16, 100.64/10, 198.18/15, fc00::/7, 0.0.0.0/8) and
 * this host's own interface addresses are refused unless `allowPrivateNetworks` is set (startSandbox
 * option `allowPrivateWebhookUrls`, flag `--allow-private-webhook-urls`, env
 * SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS): tests and the quickstart receive webhooks on 127.0.0.1. An
 * IPv4 address carried inside an IPv6 one (mapped, compatible, translated, NAT64, 6to4, Teredo)
 * is judged as that IPv4 address.
 *
 * Checked when a registration is created (the URL as written) and again at every attempt, on the
 * addresses the host name resolves to, so a name that resolves to a refused address (or changes
 * to one later) gets nothing either.
 */
export interface WebhookUrlPolicy {
  /** Allow loopback, private-range and own-host receivers. */
  allowPrivateNetworks: boolean;
  /**
   * This host's own addresses, asked at every check (interfaces come and go). Default: every
   * address of `os.networkInterfaces()`. Tests inject a list, so that no test has to send a packet
   * to a real non-loopback address.
   */
  hostAddresses?: () => Iterable<string>;
  /** Resolves a host name to all its addresses at each attempt. Default: `dns.lookup` with `all`. */
  resolve?: (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;
}

type AddressClass = "public" | "private" | "refused";
type Classified = { cls: AddressClass; what: string };

const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);
const METADATA_IPV4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16"]);
const METADATA_IPV6 = new Set(["fd00:ec2:0:0:0:0:0:254"]);

const PUBLIC: Classified = { cls: "public", what: "a public address" };
const LOOPBACK: Classified = { cls: "private", what: "a loopback address" };
const PRIVATE: Classified = { cls: "private", what: "a private-network address" };
const LINK_LOCAL: Classified = { cls: "refused", what: "a link-local address" };
const NOT_UNICAST: Classified = { cls: "refused", what: "not a unicast address" };
const SPECIAL: Classified = {
  cls: "refused",
  what: "a special-purpose address that is not globally reachable (IANA special-purpose registry)",
};

/**
 * What each range of ipaddr.js's table (its `range()` names, drawn from the IANA IPv4 and IPv6
 * Special-Purpose Address Registries, RFC 6890) means for a webhook. Ranges IANA marks globally
 * reachable (AS112, AMT, ORCHIDv2, DRIP) count as public; IPv6 ranges that carry an IPv4 address
 * are judged by it (embeddedIpv4 below). A range name this table does not know, as a later
 * ipaddr.js may add, is refused.
 */
const IPV4_RANGES: Readonly<Record<string, Classified>> = {
  unicast: PUBLIC,
  as112: PUBLIC,
  amt: PUBLIC,
  unspecified: LOOPBACK, // 0.0.0.0/8: a connection to 0.0.0.0 reaches this host
  loopback: LOOPBACK,
  private: PRIVATE,
  carrierGradeNat: PRIVATE,
  linkLocal: LINK_LOCAL,
  multicast: NOT_UNICAST,
  broadcast: NOT_UNICAST,
  reserved: SPECIAL, // 192.0.0.0/24, the three documentation /24s, 192.88.99.0/24, 198.18.0.0/15, 240.0.0.0/4
};
const IPV6_RANGES: Readonly<Record<string, Classified>> = {
  unicast: PUBLIC,
  amt: PUBLIC,
  as112v6: PUBLIC,
  orchid2: PUBLIC,
  droneRemoteIdProtocolEntityTags: PUBLIC,
  unspecified: LOOPBACK,
  loopback: LOOPBACK,
  uniqueLocal: PRIVATE,
  linkLocal: LINK_LOCAL,
  multicast: NOT_UNICAST,
  deprecatedSiteLocal: SPECIAL,
  discard: SPECIAL,
  benchmarking: SPECIAL,
  deprecatedOrchid: SPECIAL,
  segmentRouting: SPECIAL,
  reserved: SPECIAL, // 2001::/23 (IETF protocol assignments), 2001:db8::/32 and 3fff::/20 (documentation)
};

/** 198.18.0.0/15, benchmarking networks: a lab's private network, allowed as before with the option. */
const BENCHMARKING_IPV4 = ipaddr.parseCIDR("198.18.0.0/15") as [ipaddr.IPv4, number];

/** 64:ff9b:1::/48 (RFC 8215), NAT64 within one network. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR("64:ff9b:1::/48") as [ipaddr.IPv6, number];

const SEVERITY: Readonly<Record<AddressClass, number>> = { public: 0, private: 1, refused: 2 };
const stricter = (a: Classified, b: Classified) => (SEVERITY[b.cls] > SEVERITY[a.cls] ? b : a);

const ipv4Of = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, by the range that says where: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96, deprecated), NAT64
 * (64:ff9b::/96, 64:ff9b:1::/48), 6to4 (2002::/16, the next 32 bits) and Teredo (2001::/32: the
 * server in bits 32–63, the client in the last 32, inverted). Null when it carries none.
 */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = address.parts;
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return [ipv4Of(g6, g7)];
    case "6to4":
      return [ipv4Of(g1, g2)];
    case "teredo":
      return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
    case "unicast":
      // ::a.b.c.d; :: and ::1 have ranges of their own.
      return g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 ? [ipv4Of(g6, g7)] : null;
    default:
      return null;
  }
}

/**
 * This host's own addresses, normalized as ipaddr.js writes them; none to look up when private
 * receivers are allowed anyway.
 */
function ownAddresses(policy: WebhookUrlPolicy): Set<string> {
  if (policy.allowPrivateNetworks) return new Set();
  const listed =
    policy.hostAddresses?.() ??
    Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
  const own = new Set<string>();
  for (const address of listed) {
    const bare = address.split("%")[0] ?? "";
    if (ipaddr.isValid(bare)) own.add(ipaddr.parse(bare).toNormalizedString());
  }
  return own;
}

function classifyIpv4(address: ipaddr.IPv4, own: Set<string>): Classified {
  const text = address.toString();
  if (METADATA_IPV4.has(text)) return { cls: "refused", what: "a cloud metadata address" };
  if (address.match(BENCHMARKING_IPV4)) return PRIVATE;
  return withOwn(IPV4_RANGES[address.range()] ?? SPECIAL, text, own);
}

function classifyIpv6(address: ipaddr.IPv6, own: Set<string>): Classified {
  const text = address.toNormalizedString();
  if (METADATA_IPV6.has(text)) return { cls: "refused", what: "a cloud metadata address" };
  const range = address.range();
  const carried = embeddedIpv4(address, range);
  if (carried !== null) {
    // 64:ff9b:1::/48 is a local-use NAT64 prefix: private whatever it carries.
    const floor = address.match(LOCAL_USE_NAT64) ? PRIVATE : PUBLIC;
    return carried.map((ipv4) => classifyIpv4(ipv4, own)).reduce(stricter, floor);
  }
  const listed = IPV6_RANGES[range] ?? SPECIAL;
  // Outside the special ranges, only 2000::/3 is allocated as global unicast.
  if (listed === PUBLIC && range === "unicast" && (address.parts[0] ?? 0) >> 13 !== 0b001)
    return { cls: "refused", what: "not in the global unicast range 2000::/3" };
  return withOwn(listed, text, own);
}

/** An address of this host is as private as loopback: a listener bound to 0.0.0.0 answers on it. */
function withOwn(classified: Classified, normalized: string, own: Set<string>): Classified {
  return own.has(normalized)
    ? stricter(classified, { cls: "private", what: "an address of the sandbox's own host" })
    : classified;
}

/** Why the sandbox will not send to this IP address, or null when it will. */
export function addressProblem(address: string, policy: WebhookUrlPolicy): string | null {
  const bare = address.split("%")[0] ?? "";
  const family = isIP(bare);
  if (family === 0) return `${address} is not an IP address`;
  const own = ownAddresses(policy);
  const { cls, what } =
    family === 4 ? classifyIpv4(ipaddr.IPv4.parse(bare), own) : classifyIpv6(ipaddr.IPv6.parse(bare), own);
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
  const resolve =
    policy.resolve ??
    ((hostname: string, options: LookupOptions) => dns.lookup(hostname, { ...options, all: true }));
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, options).then(
      (addresses) => {
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
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
