import net from "node:net";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  addressProblem,
  guardedLookup,
  webhookUrlProblem,
  type WebhookUrlPolicy,
} from "../../../sandbox/domain/webhookUrlPolicy.ts";
import { startReceiver } from "./events/harness/receiver.ts";
import { eventually, startTestSandbox } from "../helpers.ts";
import { fundedWallet, startMoneySandbox } from "../moneyHelpers.ts";

// No test here depends on this machine's interfaces: each policy is handed its host's addresses.
const strict: WebhookUrlPolicy = { allowPrivateNetworks: false, hostAddresses: () => [] };
const lenient: WebhookUrlPolicy = { allowPrivateNetworks: true, hostAddresses: () => [] };

type Verdict = "public" | "private" | "refused";
/** What the policy makes of an address: sent to, sent to only with the option, or never. */
function verdict(address: string, policy: { strict: WebhookUrlPolicy; lenient: WebhookUrlPolicy }): Verdict {
  if (addressProblem(address, policy.strict) === null) return "public";
  return addressProblem(address, policy.lenient) === null ? "private" : "refused";
}
const verdictOf = (address: string) => verdict(address, { strict, lenient });

/** Every form an IPv6 address can carry an IPv4 address in. */
function ipv6FormsOf(ipv4: string): Record<string, string> {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split(".").map(Number);
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  const invertedHigh = (((a << 8) | b) ^ 0xffff).toString(16);
  const invertedLow = (((c << 8) | d) ^ 0xffff).toString(16);
  return {
    mapped: `::ffff:${ipv4}`,
    translated: `::ffff:0:${ipv4}`,
    compatible: `::${ipv4}`,
    nat64: `64:ff9b::${ipv4}`,
    "6to4": `2002:${high}:${low}::1`,
    "teredo server": `2001:0:${high}:${low}:0:0:f7f7:f7f7`,
    "teredo client": `2001:0:5db8:d70e:0:0:${invertedHigh}:${invertedLow}`,
  };
}

describe("webhookUrlProblem", () => {
  test("public hosts and addresses are fine", () => {
    for (const url of [
      "https://example.com/hooks",
      "http://93.184.215.14/h",
      "https://[2606:4700::1111]/h",
    ]) {
      expect(webhookUrlProblem(url, strict), url).toBeNull();
    }
  });

  test("credentials, link-local and metadata are refused whatever the option says", () => {
    for (const url of [
      "https://user:pw@example.com/h",
      "https://user@example.com/h",
      "http://169.254.169.254/latest/meta-data/",
      "http://169.254.1.1/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://100.100.100.200/",
      "http://[fe80::1]/",
      "http://[fd00:ec2::254]/",
      "http://[::ffff:169.254.169.254]/",
      "http://224.0.0.1/",
    ]) {
      expect(webhookUrlProblem(url, strict), url).not.toBeNull();
      expect(webhookUrlProblem(url, lenient), url).not.toBeNull();
    }
  });

  test("loopback and private ranges, however written, need the option", () => {
    for (const url of [
      "http://localhost:6379/",
      "http://api.localhost/",
      "http://127.0.0.1:8080/",
      "http://2130706433/",
      "http://0x7f.1/",
      "http://0.0.0.0/",
      "http://[::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://10.1.2.3/",
      "http://172.20.0.1/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://[fd12:3456::1]/",
    ]) {
      expect(webhookUrlProblem(url, strict), url).toMatch(/--allow-private-webhook-urls/);
      expect(webhookUrlProblem(url, lenient), url).toBeNull();
    }
  });
});

describe("the IANA special-purpose ranges", () => {
  // One address in each range of the IPv4 and IPv6 Special-Purpose Address Registries, with what
  // the sandbox makes of it.
  const IPV4: [string, string, Verdict][] = [
    ["0.0.0.0/8 this network", "0.1.2.3", "private"],
    ["10.0.0.0/8 private", "10.1.2.3", "private"],
    ["100.64.0.0/10 shared address space", "100.64.0.1", "private"],
    ["127.0.0.0/8 loopback", "127.0.0.2", "private"],
    ["169.254.0.0/16 link-local", "169.254.1.1", "refused"],
    ["172.16.0.0/12 private", "172.31.255.254", "private"],
    ["192.0.0.0/24 IETF protocol assignments", "192.0.0.1", "refused"],
    ["192.0.2.0/24 documentation", "192.0.2.10", "refused"],
    ["192.88.99.0/24 6to4 relay anycast", "192.88.99.1", "refused"],
    ["192.168.0.0/16 private", "192.168.1.1", "private"],
    ["198.18.0.0/15 benchmarking", "198.19.0.1", "private"],
    ["198.51.100.0/24 documentation", "198.51.100.7", "refused"],
    ["203.0.113.0/24 documentation", "203.0.113.9", "refused"],
    ["224.0.0.0/4 multicast", "224.0.0.1", "refused"],
    ["240.0.0.0/4 reserved", "240.0.0.1", "refused"],
    ["255.255.255.255 broadcast", "255.255.255.255", "refused"],
    ["192.31.196.0/24 AS112, globally reachable", "192.31.196.1", "public"],
    ["a public address", "93.184.215.14", "public"],
  ];
  const IPV6: [string, string, Verdict][] = [
    ["::/128 unspecified", "::", "private"],
    ["::1/128 loopback", "::1", "private"],
    ["100::/64 discard", "100::1", "refused"],
    ["64:ff9b:1::/48 local-use NAT64, carrying a public address", "64:ff9b:1::5db8:d70e", "private"],
    ["2001::/23 IETF protocol assignments", "2001:1::1", "refused"],
    ["2001:2::/48 benchmarking", "2001:2::1", "refused"],
    ["2001:10::/28 deprecated ORCHID", "2001:10::1", "refused"],
    ["2001:db8::/32 documentation", "2001:db8::1", "refused"],
    ["3fff::/20 documentation", "3fff::1", "refused"],
    ["5f00::/16 segment routing", "5f00::1", "refused"],
    ["fc00::/7 unique local", "fd12:3456::1", "private"],
    ["fe80::/10 link-local", "fe80::1", "refused"],
    ["fec0::/10 deprecated site-local", "fec0::1", "refused"],
    ["ff00::/8 multicast", "ff02::1", "refused"],
    ["outside 2000::/3, unallocated", "4000::1", "refused"],
    ["2001:4:112::/48 AS112, globally reachable", "2001:4:112::1", "public"],
    ["a public address", "2606:4700::1111", "public"],
  ];
  test.each([...IPV4, ...IPV6])("%s (%s) is %s", (_range, address, expected) => {
    expect(verdictOf(address)).toBe(expected);
  });

  test("an IPv4 address inside an IPv6 one is judged as that IPv4 address, in every form", () => {
    for (const [ipv4, expected] of [
      ["127.0.0.1", "private"],
      ["10.0.0.1", "private"],
      ["169.254.169.254", "refused"],
      ["192.0.2.1", "refused"],
      ["203.0.113.9", "refused"],
      ["93.184.215.14", "public"],
    ] as const) {
      for (const [form, ipv6] of Object.entries(ipv6FormsOf(ipv4)))
        expect(verdictOf(ipv6), `${form} ${ipv6} (${ipv4})`).toBe(expected);
    }
  });

  test("the addresses the issue found reachable are refused when written in a URL", () => {
    for (const url of [
      "http://192.0.2.10/",
      "http://198.51.100.7/",
      "http://203.0.113.9/",
      "http://192.0.0.1/",
      "http://[::ffff:0:127.0.0.1]/",
      "http://[2002:7f00:1::]/",
      "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", // Teredo, client 127.0.0.1
    ]) {
      expect(webhookUrlProblem(url, strict), url).not.toBeNull();
    }
  });
});

describe("the sandbox host's own addresses", () => {
  const OWN_IPV4 = "93.184.215.14";
  const OWN_IPV6 = "2606:4700::1111";
  const hostAddresses = () => [OWN_IPV4, OWN_IPV6, "fe80::1%eth0"];
  const policies = {
    strict: { allowPrivateNetworks: false, hostAddresses },
    lenient: { allowPrivateNetworks: true, hostAddresses },
  };

  test("are refused unless private URLs are allowed, in every form that carries them", () => {
    for (const address of [OWN_IPV4, OWN_IPV6, "2606:4700:0::1111", ...Object.values(ipv6FormsOf(OWN_IPV4))])
      expect(verdict(address, policies), address).toBe("private");
    expect(webhookUrlProblem(`http://${OWN_IPV4}:8080/`, policies.strict)).toMatch(
      /an address of the sandbox's own host.*--allow-private-webhook-urls/,
    );
    // Another public address is still fine.
    expect(verdict("93.184.215.15", policies)).toBe("public");
  });

  test("are read from the operating system's interfaces by default", () => {
    expect(addressProblem("127.0.0.1", { allowPrivateNetworks: false })).toMatch(/loopback/);
  });
});

describe("guardedLookup", () => {
  test("drops the host's own and refused addresses from a name's answer", async () => {
    const asked: string[] = [];
    const policy: WebhookUrlPolicy = {
      allowPrivateNetworks: false,
      hostAddresses: () => ["93.184.215.14"],
      resolve: async (hostname) => {
        asked.push(hostname);
        return hostname === "own.example.test"
          ? [
              { address: "93.184.215.14", family: 4 },
              { address: "::ffff:93.184.215.14", family: 6 },
              { address: "2002:c000:201::1", family: 6 },
            ]
          : [
              { address: "93.184.215.14", family: 4 },
              { address: "93.184.215.15", family: 4 },
            ];
      },
    };
    const lookup = (hostname: string) =>
      new Promise<{ error: Error | null; address: unknown }>((done) =>
        guardedLookup(policy)(hostname, { all: false }, (error, address) => done({ error, address })),
      );
    const own = await lookup("own.example.test");
    expect(own.error?.message).toMatch(/resolves only to addresses the sandbox does not send webhooks to/);
    expect((await lookup("mixed.example.test")).address).toBe("93.184.215.15");
    expect(asked).toEqual(["own.example.test", "mixed.example.test"]);
  });

  const resolve = (policy: typeof strict, hostname: string) =>
    new Promise<{ error: Error | null; address: unknown }>((done) =>
      guardedLookup(policy)(hostname, { all: false }, (error, address) => done({ error, address })),
    );

  test("drops refused addresses from a name's answer and fails when none is left", async () => {
    const refused = await resolve(strict, "localhost");
    expect(refused.error?.message).toMatch(
      /resolves only to addresses the sandbox does not send webhooks to/,
    );
    const allowed = await resolve(lenient, "localhost");
    expect(allowed.error).toBeNull();
    expect(allowed.address).toMatch(/^(127\.0\.0\.1|::1)$/);
  });
});

describe("a delivery to the sandbox host's own address", () => {
  afterEach(() => vi.restoreAllMocks());

  test("never reaches a listener there, even when the address became the host's after registration", async () => {
    // The host's interfaces are injected, and every connection the sandbox opens is recorded and
    // sent to a loopback listener instead (as a listener bound to 0.0.0.0 would answer on the
    // host's own address): no packet leaves loopback, whatever the policy does.
    const OWN = "93.184.215.14";
    const hostAddresses: string[] = [];
    const listener = await startReceiver();
    const listenerPort = Number(new URL(listener.url).port);
    const attempts: string[] = [];
    const connect = net.connect;
    vi.spyOn(net, "connect").mockImplementation(((...args: Parameters<typeof net.connect>) => {
      const options = args[0] as unknown as net.TcpNetConnectOpts;
      // The test's own calls to the sandbox go through unchanged.
      if (typeof options !== "object" || options.host === "127.0.0.1") return connect(...args);
      attempts.push(`${options.host}:${options.port}`);
      return connect({ host: "127.0.0.1", port: listenerPort });
    }) as typeof net.connect);
    const m = await startMoneySandbox({
      webhookHostAddresses: () => hostAddresses,
      webhookDelivery: { retryBaseDelayMs: 20, maxAttempts: 1 },
    });
    try {
      const url = `http://${OWN}:${listenerPort}/hooks`;
      hostAddresses.push(OWN);
      const refused = await m.t.api("POST", "/webhooks/registrations", {
        body: { url, eventTypes: ["portfolio_wallet.deposit.status_changed"] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/own host/);

      // Registered while the address was not the host's; it is the host's by delivery time.
      hostAddresses.pop();
      await m.client.webhookRegistrations.create({
        url,
        eventTypes: ["portfolio_wallet.deposit.status_changed"],
      });
      hostAddresses.push(OWN);
      await fundedWallet(m, 1000);
      await eventually(async () => {
        const { data } = (await m.t.api("GET", "/_sandbox/webhook-deliveries")).body;
        return data.length > 0 && data.every((d: { status: string }) => d.status !== "pending");
      });
      const deliveries = (await m.t.api("GET", "/_sandbox/webhook-deliveries")).body.data;
      expect(attempts).toEqual([]);
      expect(listener.requests).toEqual([]);
      for (const delivery of deliveries) expect(delivery.lastError).toMatch(/not sent: .*own host/);
    } finally {
      await m.close();
      await listener.close();
    }
  });
});

describe("webhook registrations", () => {
  test("are refused with a 400 naming the url unless the sandbox allows private networks", async () => {
    const strictSandbox = await startTestSandbox();
    const lenientSandbox = await startTestSandbox({ allowPrivateWebhookUrls: true });
    try {
      const body = (url: string) => ({ url, eventTypes: ["portfolio_wallet.balance.updated"] });
      const loopback = await strictSandbox.api("POST", "/webhooks/registrations", {
        body: body("http://127.0.0.1:6379/"),
      });
      expect(loopback.status).toBe(400);
      expect(loopback.body.error.details[0]).toMatchObject({ field: "url" });
      for (const url of ["http://169.254.169.254/latest", "http://user:pw@example.com/h"]) {
        expect((await strictSandbox.api("POST", "/webhooks/registrations", { body: body(url) })).status).toBe(
          400,
        );
        expect(
          (await lenientSandbox.api("POST", "/webhooks/registrations", { body: body(url) })).status,
        ).toBe(400);
      }
      expect(
        (
          await lenientSandbox.api("POST", "/webhooks/registrations", {
            body: body("http://127.0.0.1:6379/"),
          })
        ).status,
      ).toBe(201);
      expect(
        (await strictSandbox.api("POST", "/webhooks/registrations", { body: body("https://example.com/h") }))
          .status,
      ).toBe(201);
    } finally {
      await strictSandbox.close();
      await lenientSandbox.close();
    }
  });
});
