import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await once(child, "exit");
    }
  }
});

/** Runs `node cli/main.ts sandbox` with the Node that runs the tests and resolves with its first stdout line. */
async function startCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ["cli/main.ts", "sandbox", ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) resolve(stdout.split("\n")[0] ?? "");
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, line };
}

/** Starts the sandbox command and resolves with its stdout once `wanted` has been printed. */
async function startupText(env: Record<string, string | undefined>, wanted: string): Promise<string> {
  const child = spawn(process.execPath, ["cli/main.ts", "sandbox", "--port", "0", "--data", ":memory:"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(wanted)) resolve(stdout);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}; it printed:\n${stdout}`)));
  });
}

describe("npm run sandbox (portfolio-wallet sandbox)", () => {
  test("its start-up text names the URL, the default API token and the settings a program needs", async () => {
    const env = { ...process.env };
    delete env["SANDBOX_TOKENS"];
    const text = await startupText(env, "SANDBOX_TOKENS sets others");
    const url = /^listening on (\S+)$/m.exec(text)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(text).toContain(`pulumi config set portfolio-wallet:baseUrl ${url}`);
    expect(text).toContain(`export PORTFOLIO_WALLET_BASE_URL=${url}`);
    expect(text).toContain("pulumi config set --secret portfolio-wallet:apiToken sandbox-token");
    expect(text).toContain("export PORTFOLIO_WALLET_API_TOKEN=sandbox-token");
    expect(text).toContain("sandbox-token is the default API token, of organization sandbox-org");
  });

  test("tokens given in SANDBOX_TOKENS are never printed: the text says where they came from", async () => {
    const text = await startupText(
      { ...process.env, SANDBOX_TOKENS: "users-own-secret=org-a,second-secret=org-b" },
      "not printed here",
    );
    expect(text).toContain("pulumi config set --secret portfolio-wallet:apiToken <token>");
    expect(text).toContain("<token>: one of the 2 API tokens given in SANDBOX_TOKENS, not printed here");
    expect(text).not.toContain("users-own-secret");
    expect(text).not.toContain("second-secret");
    expect(text).not.toContain("sandbox-token");
  });

  test("prints exactly the listening line and serves with tokens from SANDBOX_TOKENS", async () => {
    const { line } = await startCli(["--port", "0", "--data", ":memory:"], {
      SANDBOX_TOKENS: "cli-token=cli-org,t2=o2",
    });
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.replace("listening on ", "");
    const ok = await fetch(`${url}/v2/portfolio-wallets/strategies`, {
      headers: { authorization: "Bearer cli-token" },
    });
    expect(ok.status).toBe(200);
    const defaultToken = await fetch(`${url}/v2/portfolio-wallets/strategies`, {
      headers: { authorization: "Bearer sandbox-token" },
    });
    expect(defaultToken.status).toBe(401);
  });

  test("accepts the default token when SANDBOX_TOKENS is unset and loads --catalog", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
    try {
      const file = join(dir, "catalog.json");
      writeFileSync(
        file,
        JSON.stringify({
          yieldSources: [
            {
              positionKey: "onlyOne",
              asset: "x",
              strategyType: "tbills",
              maxProcessingTime: "PT1H",
              currentRateBps: 100,
            },
          ],
        }),
      );
      const env = { ...process.env };
      delete env.SANDBOX_TOKENS;
      const { line } = await startCli(
        ["--port", "0", "--data", join(dir, "data"), "--catalog", file],
        env as Record<string, string>,
      );
      const url = line.replace("listening on ", "");
      const res = await fetch(`${url}/v2/portfolio-wallets/yield-sources`, {
        headers: { authorization: "Bearer sandbox-token" },
      });
      const body = (await res.json()) as { yieldSources: { positionKey: string; rateUpdatedAt: string }[] };
      expect(body.yieldSources.map((s) => s.positionKey)).toEqual(["onlyOne"]);
      expect(body.yieldSources[0]?.rateUpdatedAt).toEqual(expect.any(String));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("exits non-zero with a message on an invalid catalog file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
    try {
      const file = join(dir, "catalog.json");
      writeFileSync(file, JSON.stringify([{ positionKey: "x" }]));
      await expect(startCli(["--port", "0", "--data", ":memory:", "--catalog", file])).rejects.toThrow(
        /catalog file .* is invalid/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("starts from --from-snapshot with the snapshot's wallets, and refuses a file that is not one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
    try {
      const env = { SANDBOX_TOKENS: "cli-token=cli-org", SANDBOX_ADMIN_TOKEN: "cli-admin" };
      const headers = {
        authorization: "Bearer cli-token",
        "x-sandbox-admin-token": "cli-admin",
        "content-type": "application/json",
      };
      const first = await startCli(
        ["--port", "0", "--data", ":memory:", "--snapshot-dir", join(dir, "snapshots")],
        env,
      );
      const firstUrl = first.line.replace("listening on ", "");
      const created = await fetch(`${firstUrl}/v2/portfolio-wallets`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          requestId: "6f1c4f7e-0000-4000-8000-000000000001",
          positions: [{ positionKey: "tbills", targetWeightBps: 10000 }],
        }),
      });
      expect(created.status).toBe(201);
      const wallet = (await created.json()) as { id: string };
      const saved = await fetch(`${firstUrl}/_sandbox/snapshot/save`, {
        method: "POST",
        headers,
        body: JSON.stringify({ file: "saved.snapshot" }),
      });
      expect(saved.status).toBe(201);
      // The admin API takes a name; the file lands in the --snapshot-dir.
      const file = join(dir, "snapshots", "saved.snapshot");
      expect(((await saved.json()) as { file: string }).file).toBe(file);

      const second = await startCli(
        ["--port", "0", "--data", join(dir, "data"), "--from-snapshot", file],
        env,
      );
      const read = await fetch(
        `${second.line.replace("listening on ", "")}/v2/portfolio-wallets/${wallet.id}`,
        {
          headers,
        },
      );
      expect(read.status).toBe(200);
      expect(((await read.json()) as { id: string }).id).toBe(wallet.id);

      const notOne = join(dir, "catalog.json");
      writeFileSync(notOne, "{}");
      await expect(
        startCli(["--port", "0", "--data", ":memory:", "--from-snapshot", notOne], env),
      ).rejects.toThrow(/catalog\.json is not a whole-sandbox snapshot/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("keeps the admin API off without an admin token, and requires the token given by SANDBOX_ADMIN_TOKEN", async () => {
    const off = await startCli(["--port", "0", "--data", ":memory:"], { SANDBOX_TOKENS: "t=o" });
    const offUrl = off.line.replace("listening on ", "");
    const refused = await fetch(`${offUrl}/_sandbox/clock`, { headers: { authorization: "Bearer t" } });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /admin API of this sandbox is off/,
    );

    const on = await startCli(["--port", "0", "--data", ":memory:"], {
      SANDBOX_TOKENS: "t=o",
      SANDBOX_ADMIN_TOKEN: "cli-admin-token",
      SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    });
    const url = on.line.replace("listening on ", "");
    const withoutToken = await fetch(`${url}/_sandbox/clock`, { headers: { authorization: "Bearer t" } });
    expect(withoutToken.status).toBe(403);
    const withToken = await fetch(`${url}/_sandbox/clock`, {
      headers: { authorization: "Bearer t", "x-sandbox-admin-token": "cli-admin-token" },
    });
    expect(withToken.status).toBe(200);
    const loopbackHook = await fetch(`${url}/webhooks/registrations`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/h", eventTypes: ["portfolio_wallet.balance.updated"] }),
    });
    expect(loopbackHook.status).toBe(201);
  });

  test("takes organizations' admin tokens from SANDBOX_ORG_ADMIN_TOKENS, each for its organization only", async () => {
    const { line } = await startCli(["--port", "0", "--data", ":memory:"], {
      SANDBOX_TOKENS: "ta=org-a,tb=org-b",
      SANDBOX_ORG_ADMIN_TOKENS: "cli-org-a-admin=org-a",
    });
    const url = line.replace("listening on ", "");
    const call = (token: string) =>
      fetch(`${url}/_sandbox/admin-scope`, {
        headers: { authorization: `Bearer ${token}`, "x-sandbox-admin-token": "cli-org-a-admin" },
      });
    const own = await call("ta");
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ organizationId: "org-a", scope: "organization" });
    const other = await call("tb");
    expect(other.status).toBe(403);
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(
      /scoped to organization "org-a" and cannot act for organization "org-b"/,
    );
    await expect(
      startCli(["--port", "0", "--data", ":memory:", "--org-admin-tokens", "no-organization"]),
    ).rejects.toThrow(/--org-admin-tokens entry 1 is not token=organization/);
  });

  test("emulates the rate limit of SANDBOX_RATE_LIMIT and SANDBOX_RATE_LIMIT_BURST, and refuses a bad one", async () => {
    const { line } = await startCli(["--port", "0", "--data", ":memory:"], {
      SANDBOX_TOKENS: "t=o",
      SANDBOX_RATE_LIMIT: "0.5",
      SANDBOX_RATE_LIMIT_BURST: "1",
    });
    const url = line.replace("listening on ", "");
    const list = () => fetch(`${url}/v2/portfolio-wallets`, { headers: { authorization: "Bearer t" } });
    expect((await list()).status).toBe(200);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    await expect(startCli(["--port", "0", "--data", ":memory:", "--rate-limit", "0"])).rejects.toThrow(
      /--rate-limit <rps>' argument '0' is invalid. must be a number above 0/,
    );
  });

  test("refuses loopback webhook URLs unless allowed, and bad setting values with a usage error", async () => {
    const env = { ...process.env };
    delete env.SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS;
    const { line } = await startCli(
      ["--port", "0", "--data", ":memory:", "--webhook-concurrency-per-org", "2"],
      {
        ...(env as Record<string, string>),
        SANDBOX_TOKENS: "t=o",
      },
    );
    const url = line.replace("listening on ", "");
    const loopbackHook = await fetch(`${url}/webhooks/registrations`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({ url: "http://127.0.0.1:9/h", eventTypes: ["portfolio_wallet.balance.updated"] }),
    });
    expect(loopbackHook.status).toBe(400);
    await expect(
      startCli(["--port", "0", "--data", ":memory:", "--webhook-concurrency-per-org", "0"]),
    ).rejects.toThrow(/exited with 2.*--webhook-concurrency-per-org/s);
    await expect(
      startCli(["--port", "0", "--data", ":memory:"], { SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS: "maybe" }),
    ).rejects.toThrow(/SANDBOX_ALLOW_PRIVATE_WEBHOOK_URLS must be true or false/);
  });

  test("answers the names of SANDBOX_ALLOWED_HOSTS besides its own, and refuses other Host headers", async () => {
    const { line } = await startCli(["--port", "0", "--data", ":memory:"], {
      SANDBOX_ALLOWED_HOSTS: "sandbox.team.example",
    });
    const port = Number(new URL(line.replace("listening on ", "")).port);
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: "127.0.0.1", port, path: "/openapi.json", headers: { host } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end();
      });
    expect(await statusFor(`127.0.0.1:${port}`)).toBe(200);
    expect(await statusFor(`localhost:${port}`)).toBe(200);
    expect(await statusFor(`sandbox.team.example:${port}`)).toBe(200);
    expect(await statusFor(`rebound.example:${port}`)).toBe(403);
    await expect(
      startCli(["--port", "0", "--data", ":memory:", "--allowed-hosts", "https://x.example"]),
    ).rejects.toThrow(/exited with 2.*not a host name/s);
  });
});
