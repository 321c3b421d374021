import { describe, expect, test } from "vitest";
import { resolveProviderSettings, SettingsError } from "../../sdk/nodejs/stackSettings.ts";
import {
  POSITIONS_A,
  approverConfig,
  baseConfig,
  configSource,
  generateTurnkeyApiKeyPair,
  providerOf,
  startProviderSandbox,
  urnOf,
  useProviderSandbox,
} from "./helpers.ts";

const wallets = providerOf("portfolioWallet");

const t = useProviderSandbox();

const news = () => ({ resourceUrn: urnOf("PortfolioWallet"), positions: POSITIONS_A });

describe("provider configuration", () => {
  // Settings are read with an empty environment here, so that a developer's or CI's variables
  // cannot fill the gaps these tests leave.
  test("a missing baseUrl and apiToken are both reported, with how to set them", () => {
    let caught: unknown;
    try {
      resolveProviderSettings(configSource({}), {});
    } catch (error) {
      caught = error;
    }
    expect(SettingsError.isInstance(caught)).toBe(true);
    const settingsError = caught as SettingsError;
    expect(settingsError.problems.map((problem) => problem.setting)).toEqual(["baseUrl", "apiToken"]);
    const message = settingsError.message;
    expect(message).toContain("portfolio-wallet:baseUrl is not set");
    expect(message).toContain("portfolio-wallet:apiToken is not set");
    expect(message).toContain("pulumi config set --secret portfolio-wallet:apiToken");
  });

  test("a half-configured approver is a configuration error naming what is missing", () => {
    const keys = generateTurnkeyApiKeyPair();
    const { "portfolio-wallet:turnkeyApiPrivateKey": _private, ...withoutPrivateKey } = approverConfig(
      t,
      keys,
    );
    expect(() =>
      resolveProviderSettings(configSource({ ...baseConfig(t), ...withoutPrivateKey }), {}),
    ).toThrow(/partly configured; also set portfolio-wallet:turnkeyApiPrivateKey/);
  });

  test("through dispatch, a configuration error fails the call before any request", async () => {
    await wallets.configure({ "portfolio-wallet:baseUrl": "not a url", "portfolio-wallet:apiToken": "x" });
    await expect(wallets.check({}, news())).rejects.toThrow(
      /portfolio-wallet:baseUrl must be an absolute http\(s\) URL such as https:\/\/api\.example\.com, got "not a url"; set it with `pulumi config set portfolio-wallet:baseUrl <value>` or the PORTFOLIO_WALLET_BASE_URL environment variable/,
    );
  });

  test("a token the service refuses fails with the stack setting to change, and without the token", async () => {
    const refusedToken = "pw-refused-token-0b8e7f";
    await wallets.configure(baseConfig(t, refusedToken));
    const error = (await wallets.check({}, news()).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/401/);
    expect(error.message).toContain("pulumi config set --secret portfolio-wallet:apiToken");
    expect(error.message).not.toContain(refusedToken);
    await wallets.configure(baseConfig(t));
  });

  test("a service that cannot be reached fails, once the retry budget is spent, with the stack settings to check and to raise", async () => {
    await wallets.configure({
      ...baseConfig(t),
      "portfolio-wallet:baseUrl": "http://127.0.0.1:9",
      "portfolio-wallet:retryTimeoutSeconds": "1",
    });
    const error = (await wallets.check({}, news()).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(
      /GET \/v2\/portfolio-wallets\/strategies was tried \d+ times over [\d.]+ s; the last answer was no connection/,
    );
    expect(error.message).toContain("pulumi config set portfolio-wallet:baseUrl");
    expect(error.message).toContain("raise portfolio-wallet:retryTimeoutSeconds (now 1 s)");
    // Nothing a Pulumi user cannot do: no client option is named.
    expect(error.message).not.toMatch(/maxRetries|timeoutMs|the client's/);
    await wallets.configure(baseConfig(t));
  });

  test.each([
    ["soon", "a word"],
    ["-5", "a negative number"],
    ["3601", "more than an hour"],
    ["1e3", "an exponent"],
  ])("retryTimeoutSeconds %j (%s) is refused, naming the setting, the range and how to set it", (value) => {
    expect(() =>
      resolveProviderSettings(
        configSource({ ...baseConfig(t), "portfolio-wallet:retryTimeoutSeconds": value }),
        {},
      ),
    ).toThrow(
      new RegExp(
        `portfolio-wallet:retryTimeoutSeconds must be a number of seconds from 0 to 3600, got "${value.replace(".", "\\.")}"; ` +
          "set it with `pulumi config set portfolio-wallet:retryTimeoutSeconds <value>` or the PORTFOLIO_WALLET_RETRY_TIMEOUT_SECONDS",
      ),
    );
  });

  test("retryTimeoutSeconds defaults to 300, reads the environment, and 0 is allowed (each request sent once)", () => {
    const read = (config: Record<string, string>, env: Record<string, string> = {}) =>
      resolveProviderSettings(configSource({ ...baseConfig(t), ...config }), env).retryTimeoutMs;
    expect(read({})).toBe(300_000);
    expect(read({}, { PORTFOLIO_WALLET_RETRY_TIMEOUT_SECONDS: "45" })).toBe(45_000);
    expect(read({ "portfolio-wallet:retryTimeoutSeconds": "0" })).toBe(0);
    expect(read({ "portfolio-wallet:retryTimeoutSeconds": "2.5" })).toBe(2_500);
  });

  test("a timeout that is not a positive number is refused", () => {
    expect(() =>
      resolveProviderSettings(
        configSource({ ...baseConfig(t), "portfolio-wallet:approvalTimeoutSeconds": "soon" }),
        {},
      ),
    ).toThrow(/approvalTimeoutSeconds must be a positive number of seconds, got "soon"/);
  });

  test("the environment is the fallback for settings the stack config does not hold", async () => {
    const settings = resolveProviderSettings(configSource({}), {
      PORTFOLIO_WALLET_BASE_URL: t.url,
      PORTFOLIO_WALLET_API_TOKEN: "from-env",
      PORTFOLIO_WALLET_APPROVAL_TIMEOUT_SECONDS: "12",
    });
    expect(settings).toMatchObject({ baseUrl: t.url, apiToken: "from-env", approvalTimeoutMs: 12_000 });
    expect(settings.approver).toBeUndefined();
  });

  test("stack config wins over the environment", () => {
    const settings = resolveProviderSettings(configSource(baseConfig(t, "from-config")), {
      PORTFOLIO_WALLET_API_TOKEN: "from-env",
    });
    expect(settings.apiToken).toBe("from-config");
  });

  test("configure() takes effect for later calls: a reconfigured provider talks to the new service", async () => {
    const other = await startProviderSandbox();
    try {
      await wallets.configure(baseConfig(other));
      const inputs = (await wallets.check({}, news())).inputs;
      const { id } = await wallets.create(inputs);
      const res = await other.api("GET", `/v2/portfolio-wallets/${id}`);
      expect(res.status).toBe(200);
      expect((await t.api("GET", `/v2/portfolio-wallets/${id}`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
