import { describe, expect, test } from "vitest";
import { guardedLookup, webhookUrlProblem } from "../../sandbox/domain/webhookUrlPolicy.ts";
import { startTestSandbox } from "./helpers.ts";

const strict = { allowPrivateNetworks: false };
const lenient = { allowPrivateNetworks: true };

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

describe("guardedLookup", () => {
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
