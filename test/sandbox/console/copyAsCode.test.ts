// Copy as code (sandbox/console/web/src/copyAsCode.js): the curl command, the TypeScript client's
// call and the Pulumi change made from what the console sent. Each generated program is run as a
// user would run it, with the tokens in environment variables, against an in-process sandbox, and
// no token value is ever part of the text.
import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import { startTestSandbox, type TestSandbox } from "../helpers.ts";

const SRC = path.join(repoRoot, "sandbox", "console", "web", "src");

interface SentRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body: string | null;
}
interface CodeForm {
  kind: "curl" | "typescript" | "pulumi";
  title: string;
  text: string;
}
// Browser scripts (no types for this project's TypeScript), so imported by URL, as paths.test.ts does.
const { codeForms } = (await import(pathToFileURL(path.join(SRC, "copyAsCode.js")).href)) as {
  codeForms: (sent: SentRequest, origin: string) => CodeForm[];
};
const api = (await import(pathToFileURL(path.join(SRC, "api.js")).href)) as {
  request: (
    method: string,
    path: string,
    options: { body?: unknown; token?: string | null; admin?: boolean },
  ) => Promise<{ status: number; body: { id: string; label: string }; sent: SentRequest }>;
  API_TOKEN_SHOWN: string;
  ADMIN_TOKEN_SHOWN: string;
};

// Long random tokens: finding one in generated code cannot be a coincidence.
const API_TOKEN = `copy-code-api-${randomBytes(12).toString("hex")}`;
const ADMIN_TOKEN = `copy-code-admin-${randomBytes(12).toString("hex")}`;
const POSITIONS = [
  { positionKey: "tbills", targetWeightBps: 6000 },
  { positionKey: "syrupUsdc", targetWeightBps: 4000 },
];
/** Everything a POSIX shell would read into a word unless quoted well. */
const AWKWARD = `It's "$HOME" \`id\` $(id) \\n !x;{} & | * ~`;

let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ tokens: { [API_TOKEN]: "org-a" }, adminToken: ADMIN_TOKEN });
  work = mkdtempSync(path.join(tmpdir(), "copy-as-code-"));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(work, { recursive: true, force: true });
});

const run = promisify(execFile);
/** Runs a generated command in `sh`, the tokens given only as environment variables. */
const inShell = (command: string) =>
  run("sh", ["-c", command], { env: { PATH: process.env["PATH"], API_TOKEN, ADMIN_TOKEN } });
const form = (forms: CodeForm[], kind: CodeForm["kind"]) => forms.find((f) => f.kind === kind)?.text ?? "";

/** What the console sends for an admin call: the admin token shown as its placeholder (api.js). */
const adminSent = (method: string, route: string, body: unknown): SentRequest => ({
  method,
  path: route,
  headers: [
    ["Authorization", `Bearer ${api.API_TOKEN_SHOWN}`],
    ["X-Sandbox-Admin-Token", api.ADMIN_TOKEN_SHOWN],
    ["Content-Type", "application/json"],
  ],
  body: JSON.stringify(body, null, 2),
});

/** A server that answers each request with what it received: the exact body bytes and the headers. */
async function echoServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string } = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("copy as code", () => {
  test("curl sends an awkward body byte for byte, the tokens read from $API_TOKEN and $ADMIN_TOKEN", async () => {
    const echo = await echoServer();
    try {
      const body = JSON.stringify({ label: AWKWARD, note: "two\nlines", quote: "'" }, null, 2);
      const sent = { ...adminSent("POST", "/_sandbox/deposits?x=1&y=2", {}), body };
      const curl = form(codeForms(sent, echo.url), "curl");
      expect(curl).toContain('-H "Authorization: Bearer $API_TOKEN"');
      expect(curl).toContain('-H "X-Sandbox-Admin-Token: $ADMIN_TOKEN"');
      const { stdout } = await inShell(curl);
      const received = JSON.parse(stdout);
      expect(received.method).toBe("POST");
      expect(received.url).toBe("/_sandbox/deposits?x=1&y=2");
      expect(received.body).toBe(body);
      expect(received.headers.authorization).toBe(`Bearer ${API_TOKEN}`);
      expect(received.headers["x-sandbox-admin-token"]).toBe(ADMIN_TOKEN);
      expect(received.headers["content-type"]).toBe("application/json");
    } finally {
      await echo.close();
    }
  });

  test("every form of what the console sent works against the sandbox, and holds no token", async () => {
    // The wallet's creation as the console's request() sends it, and records it.
    const created = await api.request("POST", `${sandbox.url}/v2/portfolio-wallets`, {
      token: API_TOKEN,
      body: { requestId: randomUUID(), label: "Operating reserve", positions: POSITIONS },
    });
    expect(created.status).toBe(201);
    const sentByConsole = { ...created.sent, path: new URL(created.sent.path).pathname };
    const createForms = codeForms(sentByConsole, sandbox.url);
    expect(createForms.map((f) => f.kind)).toEqual(["curl", "typescript", "pulumi"]);
    // The console's own mark (kept out of counts and faults) is not a user's call's.
    expect(form(createForms, "curl")).not.toMatch(/X-Sandbox-Console/i);
    // Nor its deadline: a moment already past when a copied command runs, refused with 408.
    expect(created.sent.headers.map(([name]) => name)).toContain("X-Sandbox-Deadline-Ms");
    expect(createForms.map((f) => f.text).join("\n")).not.toMatch(/X-Sandbox-Deadline-Ms/i);
    expect(form(createForms, "pulumi")).toBe(
      [
        'import { PortfolioWallet } from "@portfolio-wallet/pulumi";',
        "",
        'new PortfolioWallet("operating-reserve", {',
        '  "label": "Operating reserve",',
        '  "positions": [',
        "    {",
        '      "positionKey": "tbills",',
        '      "targetWeightBps": 6000',
        "    },",
        "    {",
        '      "positionKey": "syrupUsdc",',
        '      "targetWeightBps": 4000',
        "    }",
        "  ]",
        "});",
      ].join("\n"),
    );

    // curl of a new wallet with an awkward label: created with that label exactly.
    const awkward = codeForms(
      {
        ...sentByConsole,
        body: JSON.stringify({ requestId: randomUUID(), label: AWKWARD, positions: POSITIONS }, null, 2),
      },
      sandbox.url,
    );
    const curlCreated = JSON.parse((await inShell(form(awkward, "curl"))).stdout);
    expect(curlCreated.label).toBe(AWKWARD);

    // The TypeScript client's call, run as a program (the package's client from the sources).
    const clientEntry = pathToFileURL(path.join(repoRoot, "sdk", "nodejs", "client", "index.ts")).href;
    const program = form(
      codeForms(
        {
          ...sentByConsole,
          body: JSON.stringify({ requestId: randomUUID(), label: "From the client", positions: POSITIONS }),
        },
        sandbox.url,
      ),
      "typescript",
    );
    expect(program).toContain('import { PortfolioWalletClient } from "@portfolio-wallet/pulumi/client";');
    expect(program).toContain("apiToken: process.env.API_TOKEN");
    const file = path.join(work, "client.mts");
    writeFileSync(file, program.replace('"@portfolio-wallet/pulumi/client"', JSON.stringify(clientEntry)));
    const { stdout: clientOut } = await run(process.execPath, [file], {
      env: { PATH: process.env["PATH"], API_TOKEN },
    });
    expect(clientOut).toContain("label: 'From the client'");

    // An admin call the client has no method for: curl and fetch both deposit into the wallet.
    const wallet = await sandbox.api("GET", `/v2/portfolio-wallets/${created.body.id}`, { token: API_TOKEN });
    const deposit = (amount: number) =>
      codeForms(
        adminSent("POST", "/_sandbox/deposits", {
          chain: "ethereum",
          address: wallet.body.depositAddresses.ethereum.address,
          amount,
          txHash: `0x${randomBytes(32).toString("hex")}`,
        }),
        sandbox.url,
      );
    const byCurl = deposit(10);
    expect(byCurl.map((f) => f.kind)).toEqual(["curl", "typescript"]);
    expect(JSON.parse((await inShell(form(byCurl, "curl"))).stdout)).toMatchObject({
      amountUsd: 10,
      status: "processing",
    });
    const fetchFile = path.join(work, "fetch.mts");
    writeFileSync(fetchFile, form(deposit(5), "typescript"));
    const { stdout: fetchOut } = await run(process.execPath, [fetchFile], {
      env: { PATH: process.env["PATH"], API_TOKEN, ADMIN_TOKEN },
    });
    expect(fetchOut).toMatch(/^201 /);

    // An admin call as the console's request() sends it, the admin token from the tab's session
    // (session.js reads it from sessionStorage): its record and its forms show the placeholder.
    const windowBefore = (globalThis as { window?: unknown }).window;
    (globalThis as { window?: unknown }).window = {
      sessionStorage: {
        getItem: () =>
          JSON.stringify({ apiToken: API_TOKEN, adminToken: ADMIN_TOKEN, organizationId: "org" }),
      },
    };
    let adminByConsole: { sent: SentRequest };
    try {
      adminByConsole = (await api.request("POST", `${sandbox.url}/_sandbox/deposits`, {
        admin: true,
        body: {
          chain: "ethereum",
          address: wallet.body.depositAddresses.ethereum.address,
          amount: 1,
          txHash: `0x${randomBytes(32).toString("hex")}`,
        },
      })) as { sent: SentRequest };
    } finally {
      (globalThis as { window?: unknown }).window = windowBefore;
    }
    expect(adminByConsole.sent.headers).toContainEqual(["X-Sandbox-Admin-Token", "$ADMIN_TOKEN"]);
    const adminForms = codeForms({ ...adminByConsole.sent, path: "/_sandbox/deposits" }, sandbox.url);

    // No token value in any text made, the console's own records included.
    const everything = JSON.stringify([
      created.sent,
      createForms,
      awkward,
      program,
      byCurl,
      deposit(1),
      adminByConsole.sent,
      adminForms,
    ]);
    expect(everything).not.toContain(API_TOKEN);
    expect(everything).not.toContain(ADMIN_TOKEN);
    expect(everything).toContain("$API_TOKEN");
  });

  test("each client call and Pulumi change names what it changes; a stamped vote gets no command", () => {
    const id = "3f1c2a9e-8b7d-4c1e-9f0a-2b3c4d5e6f70";
    const sent = (method: string, route: string, body: unknown = null): SentRequest => ({
      method,
      path: route,
      headers: [["Authorization", `Bearer ${api.API_TOKEN_SHOWN}`]],
      body: body === null ? null : JSON.stringify(body, null, 2),
    });
    const ts = (s: SentRequest) => form(codeForms(s, "http://127.0.0.1:8787"), "typescript");
    const pulumi = (s: SentRequest) => form(codeForms(s, "http://127.0.0.1:8787"), "pulumi");
    const positions = { requestId: id, positions: POSITIONS };
    expect(ts(sent("PATCH", `/v2/portfolio-wallets/${id}/strategy`, positions))).toContain(
      `client.wallets.updateStrategy("${id}", {`,
    );
    expect(pulumi(sent("PATCH", `/v2/portfolio-wallets/${id}/strategy`, positions))).toContain(
      `new WalletStrategy("wallet-strategy", {\n  "walletId": "${id}",`,
    );
    expect(ts(sent("POST", `/v2/portfolio-wallets/${id}/withdraw`, { requestId: id }))).toContain(
      `client.withdrawals.create("${id}", {`,
    );
    expect(pulumi(sent("POST", `/v2/portfolio-wallets/${id}/withdraw`, { requestId: id }))).toBe("");
    const registration = {
      url: "https://example.com/hooks",
      eventTypes: ["x"],
      description: "Treasury events",
    };
    expect(ts(sent("POST", "/webhooks/registrations", registration))).toContain(
      "client.webhookRegistrations.create({",
    );
    expect(pulumi(sent("POST", "/webhooks/registrations", registration))).toContain(
      'new WebhookRegistration("treasury-events", {',
    );
    const disable = sent("PATCH", `/webhooks/registrations/${id}/status`, {
      status: "disabled",
      disabledReason: "maintenance",
    });
    expect(ts(disable)).toContain(`client.webhookRegistrations.updateStatus("${id}", {`);
    expect(pulumi(disable)).toContain('enabled: false,\ndisabledReason: "maintenance",');
    expect(ts(sent("DELETE", `/webhooks/registrations/${id}`))).toContain(
      `client.webhookRegistrations.delete("${id}")`,
    );
    expect(pulumi(sent("DELETE", `/webhooks/registrations/${id}`))).toMatch(/Remove the WebhookRegistration/);
    // The sandbox's own API: fetch, the placeholders read from the environment.
    expect(ts(adminSent("PUT", "/_sandbox/policy", { withdrawalApprovals: 1 }))).toContain(
      '"X-Sandbox-Admin-Token": `${process.env.ADMIN_TOKEN}`,',
    );
    // A vote stamped by the approver's key in the browser cannot be copied as a command.
    const stamped: SentRequest = {
      method: "POST",
      path: "/public/v1/submit/approve_activity",
      headers: [["X-Stamp", "eyJwdWJsaWNLZXkiOi… (base64url of { publicKey, scheme, signature })"]],
      body: "{}",
    };
    expect(codeForms(stamped, "http://127.0.0.1:8787")).toEqual([]);
  });
});
