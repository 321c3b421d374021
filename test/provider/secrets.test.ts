import { inspect } from "node:util";
import { afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  POSITIONS_A,
  POSITIONS_B,
  approverConfig,
  baseConfig,
  checked,
  generateTurnkeyApiKeyPair,
  providerOf,
  registeredApproverKeys,
  setPolicy,
  textOf,
  urnOf,
  useProviderSandbox,
} from "./helpers.ts";
import type { TurnkeyApiKeyPair } from "../sdk/approval/turnkeyKeys.ts";

/**
 * The API token and the Turnkey private key never appear in what the provider returns (state),
 * in what it throws, or in anything it prints.
 */

const API_TOKEN = "pw-live-token-0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d";
const WRONG_TOKEN = "pw-live-token-ffffeeeeddddccccbbbbaaaa99998888";
const wallets = providerOf("portfolioWallet");
const webhooks = providerOf("webhookRegistration");

const t = useProviderSandbox({ sandbox: { tokens: { [API_TOKEN]: "org-secrets" } } });
let keys: TurnkeyApiKeyPair;
beforeAll(async () => {
  keys = await registeredApproverKeys(t, API_TOKEN);
});

/** Everything written to the console or the standard streams during a test. */
let printed: string[] = [];
const restore: (() => void)[] = [];
beforeEach(() => {
  printed = [];
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[level];
    console[level] = (...args: unknown[]) => {
      printed.push(args.map((a) => inspect(a, { depth: 10 })).join(" "));
      original(...args);
    };
    restore.push(() => (console[level] = original));
  }
});
afterEach(() => {
  while (restore.length > 0) restore.pop()!();
});

/** The private key in every form a leak might take: hex in either case, and base64url (a JWK's d). */
function secretForms(privateKeyHex: string, ...tokens: string[]): string[] {
  return [
    ...tokens,
    privateKeyHex.toLowerCase(),
    privateKeyHex.toUpperCase(),
    Buffer.from(privateKeyHex, "hex").toString("base64url"),
  ];
}

function expectFreeOf(value: unknown, forms: string[]): void {
  const text = typeof value === "string" ? value : `${textOf(value)}\n${inspect(value, { depth: 20 })}`;
  for (const form of forms) expect(text).not.toContain(form);
}

/** An error with its message, stack and whole cause chain, as a log would print it. */
function describeError(error: unknown): string {
  return inspect(error, { depth: 20 });
}

async function caught(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

describe("secrets", () => {
  test("a whole lifecycle with approval returns, stores and prints neither the token nor the private key", async () => {
    await setPolicy(t, { strategyUpdateApprovals: 1 }, API_TOKEN);
    await wallets.configure({ ...baseConfig(t, API_TOKEN), ...approverConfig(t, keys, "org-secrets") });
    const forms = secretForms(keys.apiPrivateKey, API_TOKEN);

    const inputs = await checked(
      wallets,
      {},
      { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A },
    );
    const { id, outs } = await wallets.create(inputs);
    const moved = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    const { outs: updated } = await wallets.update(id, outs, moved);
    expect(updated.strategyChangeStatus).toBe("completed");
    const refreshed = await wallets.read(id, updated);
    await wallets.delete(id, refreshed.props);

    const webhookInputs = await checked(
      webhooks,
      {},
      {
        resourceUrn: urnOf("WebhookRegistration"),
        url: "https://hooks.example.com/secrets",
        eventTypes: ["portfolio_wallet.balance.updated"],
      },
    );
    const webhook = await webhooks.create(webhookInputs);
    const webhookRead = await webhooks.read(webhook.id, webhook.outs);

    for (const value of [inputs, outs, moved, updated, refreshed, webhookInputs, webhook, webhookRead]) {
      expectFreeOf(value, forms);
    }
    expectFreeOf(printed.join("\n"), forms);
  });

  test("a refused token is not quoted by the error", async () => {
    await wallets.configure(baseConfig(t, WRONG_TOKEN));
    const inputs = { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A };
    const checkError = await caught(wallets.check({}, inputs));
    expect(describeError(checkError)).toMatch(/401|unauthorized/i);
    expectFreeOf(describeError(checkError), [WRONG_TOKEN]);
    const createError = await caught(wallets.create(inputs));
    expectFreeOf(describeError(createError), [WRONG_TOKEN]);
    expectFreeOf(printed.join("\n"), [WRONG_TOKEN]);
  });

  test("an approver key the signing provider does not know is not quoted by the error", async () => {
    const unregistered = generateTurnkeyApiKeyPair();
    await setPolicy(t, { strategyUpdateApprovals: 1 }, API_TOKEN);
    await wallets.configure({
      ...baseConfig(t, API_TOKEN),
      ...approverConfig(t, unregistered, "org-secrets"),
    });
    const inputs = await checked(
      wallets,
      {},
      { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A },
    );
    const { id, outs } = await wallets.create(inputs);
    const moved = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    const error = await caught(wallets.update(id, outs, moved));
    expect(describeError(error)).toMatch(/registered|credential|unauthenticated/i);
    expectFreeOf(describeError(error), secretForms(unregistered.apiPrivateKey, API_TOKEN));
    expectFreeOf(printed.join("\n"), secretForms(unregistered.apiPrivateKey, API_TOKEN));
  });

  test("a malformed private key is reported without being quoted", async () => {
    const malformed = `${generateTurnkeyApiKeyPair().apiPrivateKey.slice(0, 62)}zz`;
    await setPolicy(t, { strategyUpdateApprovals: 1 }, API_TOKEN);
    await wallets.configure({
      ...baseConfig(t, API_TOKEN),
      ...approverConfig(t, { apiPublicKey: keys.apiPublicKey, apiPrivateKey: malformed }, "org-secrets"),
    });
    const inputs = await checked(
      wallets,
      {},
      { resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A },
    );
    const { id, outs } = await wallets.create(inputs);
    const moved = await checked(wallets, outs, { resourceUrn: outs.resourceUrn, positions: POSITIONS_B });
    const error = await caught(wallets.update(id, outs, moved));
    expect(describeError(error)).toContain("portfolio-wallet:turnkeyApiPrivateKey");
    expectFreeOf(describeError(error), [malformed, malformed.slice(0, 62)]);
    expectFreeOf(printed.join("\n"), [malformed.slice(0, 62)]);
  });
});
