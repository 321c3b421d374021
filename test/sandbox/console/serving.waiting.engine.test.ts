import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { repoRoot } from "../../../scripts/pulumiEnv.ts";
import type * as SandboxEntry from "../../../sandbox/index.ts";
import { ensureChromium, startCliSandbox, type CliSandbox } from "./harness.ts";

/** Polls until the expectation holds: the page reads every 2 s, and a loaded machine is slower. */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** The console is served wherever the sandbox runs: the command line, and both builds of dist/. */

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const sandbox of started.splice(0)) await sandbox.close();
});

/** The page, its script and styles, as a browser would load them. */
async function expectConsoleServed(consoleUrl: string): Promise<void> {
  const page = await fetch(consoleUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("/_console/assets/console.js");
  const script = await fetch(new URL("assets/console.js", consoleUrl));
  expect(script.status).toBe(200);
  const bundle = await script.text();
  expect(bundle).toContain("startPolling");
  // One bundle: no import left for the browser to fetch, and the contract's rules inside it
  // (its duration parser, its basis-point total) rather than copies of them.
  expect(bundle).not.toMatch(/^\s*(?:import|export)\b.*\bfrom\s*["']/m);
  expect(bundle).toContain("function parseIsoDurationMs(");
  expect(bundle).toMatch(/\bTOTAL_WEIGHT_BPS = /);
  // A withdrawal's address checked by the sandbox's own rule (sdk/nodejs/contract/chainAddress.ts).
  expect(bundle).toContain("function chainAddressProblem(");
  // Without zod: the views take only the schemas' types.
  expect(bundle).not.toContain("ZodError");
  // The sources are not served, only their bundle.
  expect((await fetch(new URL("assets/js/main.js", consoleUrl))).status).toBe(404);
  const styles = await fetch(new URL("assets/console.css", consoleUrl));
  expect(styles.status).toBe(200);
}

describe("serving the console", () => {
  test("portfolio-wallet sandbox prints the console's address, and says when the admin API its controls need is off", async () => {
    const sandbox: CliSandbox = await startCliSandbox({
      tokens: { "serving-token": "org-s" },
      adminToken: null,
    });
    started.push(sandbox);
    const lines = sandbox.output().trim().split("\n");
    expect(lines[0]).toBe(`listening on ${sandbox.url}`);
    expect(lines[1]).toBe(`console: ${sandbox.url}/_console/ (sign in with an API token; docs/console.md)`);
    await eventually(() => sandbox.output()).toContain("need the admin API, which is off");
    await expectConsoleServed(sandbox.consoleUrl);
    const session = await sandbox.api("serving-token", "GET", "/_console/api/session");
    expect(session.body).toMatchObject({ organizationId: "org-s", adminApi: "off" });
  });

  test("with an admin token, it prints no such warning", async () => {
    const sandbox = await startCliSandbox({
      tokens: { "serving-token": "org-s" },
      adminToken: "serving-admin",
    });
    started.push(sandbox);
    expect((await sandbox.api("serving-token", "GET", "/_console/api/session")).body.adminApi).toBe("token");
    expect(sandbox.output()).not.toContain("which is off");
  });

  test("started in a terminal without an admin token, it makes one for this run and prints it there, once", async () => {
    const sandbox = await startCliSandbox({
      tokens: { "serving-token": "org-s" },
      adminToken: null,
      terminal: true,
    });
    started.push(sandbox);
    // Printed after the console's address, which is what startCliSandbox waits for.
    await expect
      .poll(() => /^admin token for this run: [\w-]+ /m.test(sandbox.output()), { timeout: 10_000 })
      .toBe(true);
    const made = /^admin token for this run: ([\w-]+) /m.exec(sandbox.output())?.[1];
    expect(made, sandbox.output()).toMatch(/^[\w-]{32}$/);
    expect(sandbox.output().split(made!).length - 1).toBe(1);
    const clock = (adminToken?: string) =>
      fetch(`${sandbox.url}/_sandbox/clock`, {
        headers: {
          authorization: "Bearer serving-token",
          ...(adminToken === undefined ? {} : { "x-sandbox-admin-token": adminToken }),
        },
      }).then((response) => response.status);
    expect(await clock(made)).toBe(200);
    expect(await clock()).toBe(403);
    expect(await clock("a-guess")).toBe(403);
    expect((await sandbox.api("serving-token", "GET", "/_console/api/session")).body.adminApi).toBe("token");
  });

  test("in a terminal with --no-admin-api, no token is made and the admin API is off", async () => {
    const sandbox = await startCliSandbox({
      tokens: { "serving-token": "org-s" },
      adminToken: null,
      terminal: true,
      flags: ["--no-admin-api"],
    });
    started.push(sandbox);
    await eventually(() => sandbox.output()).toContain("need the admin API, which is off");
    expect(sandbox.output()).not.toContain("admin token for this run");
    expect((await sandbox.api("serving-token", "GET", "/_console/api/session")).body.adminApi).toBe("off");
  });

  test("the ES-module and CommonJS builds in dist/ serve the console's files (what npm installs)", async () => {
    const esm = (await import(
      pathToFileURL(path.join(repoRoot, "dist", "sandbox", "index.js")).href
    )) as typeof SandboxEntry;
    const cjs = createRequire(import.meta.url)(
      path.join(repoRoot, "dist", "cjs", "sandbox", "index.js"),
    ) as typeof SandboxEntry;
    for (const build of [esm, cjs]) {
      const sandbox = await build.startSandbox({ port: 0, dataDir: ":memory:" });
      started.push(sandbox);
      expect(sandbox.consoleUrl).toBe(`${sandbox.url}/_console/`);
      await expectConsoleServed(sandbox.consoleUrl);
    }
    // The package ships the bundle, built by `npm run build`, and not the sources it is made of.
    for (const build of [["dist"], ["dist", "cjs"]]) {
      const web = path.join(repoRoot, ...build, "sandbox", "console", "web");
      expect(existsSync(path.join(web, "assets", "console.js")), web).toBe(true);
      expect(existsSync(path.join(web, "src")), web).toBe(false);
    }
  });

  test(
    "when Chromium cannot be found or installed, the browser tests' set-up fails saying so",
    async () => {
      // An executable that no install provides: the script installs or finds Debian's package,
      // then finds nothing runnable there, and must fail rather than let the tests skip.
      await expect(
        ensureChromium({ ...process.env, PORTFOLIO_WALLET_CHROMIUM: "/nonexistent/chromium" }),
      ).rejects.toThrow(/need Chromium, and it could not be installed: .*\/nonexistent\/chromium/);
    },
    15 * 60_000,
  );
});
