import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { refuseInUnitTests, repoRoot } from "../../../scripts/pulumiEnv.ts";

/**
 * The console's browser tests run the sandbox as a user does (`portfolio-wallet sandbox`, a child
 * process whose output is kept, to check that no token reaches it) and drive Debian's Chromium
 * with playwright-core. Chromium is installed by scripts/ensure-chromium.sh; when it cannot be,
 * the tests fail saying so.
 */

/** Where screenshots of a test run go (gitignored): test artifacts, not committed. */
export const ARTIFACTS_DIR = path.join(repoRoot, "test-artifacts", "console");

/**
 * Installs Chromium if needed and answers its executable; throws, saying why, if it cannot.
 * `env` replaces the script's environment (PORTFOLIO_WALLET_CHROMIUM names another executable).
 */
export async function ensureChromium(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  refuseInUnitTests("Chromium");
  try {
    const { stdout } = await promisify(execFile)(
      "bash",
      [path.join(repoRoot, "scripts", "ensure-chromium.sh")],
      {
        env,
        timeout: 15 * 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const executable = stdout.trim().split("\n").at(-1) ?? "";
    if (executable === "") throw new Error("scripts/ensure-chromium.sh printed no path");
    return executable;
  } catch (error) {
    const { stderr = "" } = error as { stderr?: string };
    throw new Error(
      `The console's browser tests need Chromium, and it could not be installed: ${stderr.trim().split("\n").slice(-5).join(" | ") || String(error)}`,
    );
  }
}

/**
 * A fresh Chromium profile, headless, without any background network (the machine has none).
 * `timezoneId` sets the browser's time zone (the machine's when absent), in which the console reads times.
 */
export async function launchBrowser(
  executablePath: string,
  options: { timezoneId?: string } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  refuseInUnitTests("Chromium");
  const profile = mkdtempSync(path.join(tmpdir(), "console-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport: { width: 1280, height: 860 },
    ...(options.timezoneId === undefined ? {} : { timezoneId: options.timezoneId }),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Answers are loose JSON: tests read the fields they check.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = { status: number; body: any };

export interface CliSandbox {
  url: string;
  consoleUrl: string;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
  /** A request with an API token (and the admin token, when `admin`), answered as loose JSON. */
  api(token: string, method: string, route: string, body?: unknown, admin?: boolean): Promise<Answer>;
  /** Stops the process where it is (SIGSTOP), as a hung sandbox: it holds its sockets and answers nothing. */
  pause(): void;
  /** Lets a paused process run on (SIGCONT): it reads what arrived meanwhile. */
  resume(): void;
  close(): Promise<void>;
}

/** The test process's environment with these tokens, and no admin token of its own. */
function sandboxEnv(tokens: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env["SANDBOX_ADMIN_TOKEN"];
  env["SANDBOX_TOKENS"] = Object.entries(tokens)
    .map(([token, organization]) => `${token}=${organization}`)
    .join(",");
  return env;
}

/** Starts `node cli/main.ts sandbox` on a free port with its own data directory. */
export async function startCliSandbox(options: {
  tokens: Record<string, string>;
  adminToken: string | null;
  rebalanceDelayMs?: number;
  /** More flags of the command. */
  flags?: string[];
  /** Run it in a terminal (a pseudo-terminal of util-linux's `script`), as a person at a shell does. */
  terminal?: boolean;
}): Promise<CliSandbox> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "console-sandbox-"));
  const args = ["cli/main.ts", "sandbox", "--port", "0", "--data", dataDir, "--allow-private-webhook-urls"];
  if (options.adminToken !== null) args.push("--admin-token", options.adminToken);
  if (options.rebalanceDelayMs !== undefined)
    args.push("--rebalance-delay-ms", String(options.rebalanceDelayMs));
  args.push(...(options.flags ?? []));
  const command = [process.execPath, ...args];
  const child: ChildProcess = options.terminal
    ? spawn(
        "script",
        ["--quiet", "--flush", "--return", "--command", command.map(shellQuote).join(" "), "/dev/null"],
        {
          cwd: repoRoot,
          env: sandboxEnv(options.tokens),
          stdio: ["ignore", "pipe", "pipe"],
        },
      )
    : spawn(process.execPath, args, {
        cwd: repoRoot,
        env: sandboxEnv(options.tokens),
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const consoleUrl = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /^console: (http:\/\/127\.0\.0\.1:\d+\/_console\/)/m.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code}: ${output}`)));
  });
  const url = consoleUrl.replace(/\/_console\/$/, "");
  return {
    url,
    consoleUrl,
    output: () => output,
    async api(token, method, route, body, admin = false) {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(admin && options.adminToken !== null ? { "x-sandbox-admin-token": options.adminToken } : {}),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === "" ? null : JSON.parse(text) };
    },
    pause() {
      // In a terminal the child is `script`, not the sandbox: stopping it would stop nothing.
      if (options.terminal) throw new Error("pause() needs a sandbox started without `terminal`");
      child.kill("SIGSTOP");
    },
    resume() {
      child.kill("SIGCONT");
    },
    async close() {
      if (child.exitCode === null) {
        // A paused process would hold the SIGTERM until it runs again.
        child.kill("SIGCONT");
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Fills in and sends the console's sign-in form. */
export async function submitSignIn(
  page: Page,
  consoleUrl: string,
  apiToken: string,
  adminToken?: string,
): Promise<void> {
  await page.goto(`${consoleUrl}sign-in`);
  await page.getByLabel("API token").fill(apiToken);
  if (adminToken !== undefined) await page.getByLabel(/^Admin token/).fill(adminToken);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in and waits for the signed-in console (the organization shown in the header). */
export async function signIn(
  page: Page,
  consoleUrl: string,
  apiToken: string,
  adminToken?: string,
): Promise<void> {
  await submitSignIn(page, consoleUrl, apiToken, adminToken);
  await page.locator("[data-organization]").waitFor();
}

/** Saves a screenshot of the whole page among the run's artifacts. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
