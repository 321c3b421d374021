import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { engineBinDir, repoRoot } from "../../scripts/pulumiEnv.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import { changesInPreviewText } from "../support/previewText.ts";
import { GO_ENV, installJavaSdkIntoLocalRepository } from "../native/harness/sdks.ts";

/**
 * The newcomer's path through the docs, followed word for word: every shell block of the pages a
 * new user follows, in order, in a fresh directory outside this repository, through the real
 * engine, with nothing on PATH but Node.js and the machine's own tools (no `pulumi`: the docs say
 * how to get it). Pages: the top README's Install and Using sections (then, in the project they
 * made, the first examples of docs/cli.md and docs/policy.md and the two-stack example, whose
 * README starts there), docs/languages.md's opening with its Python and its YAML section, and
 * every other example README.
 *
 * What the test changes in a block, and nothing else:
 * - `<checkout>` (the docs' name for a clone of this repository after `npm ci`) becomes this
 *   checkout;
 * - the sandbox's port 8787 becomes a free port, so that runs beside each other do not collide.
 *
 * What the docs mark, with an HTML comment above a fenced block (invisible on GitHub):
 * - `<!-- doc-test: file NAME -->`: the user saves this block as NAME in the current directory;
 * - `<!-- doc-test: background -->`: the user runs this block in a second terminal (the sandbox);
 *   it runs in the background until the walk ends, and the docs' next step checks that it answers;
 * - `<!-- doc-test: skip (reason) -->`: not run, for the reason given (an installer from the
 *   internet, placeholders for the real service).
 * Other fenced blocks that are not `sh` are not run. State (the working directory, exported
 * variables, an activated virtual environment) carries from one block to the next, as in the
 * user's terminal; a failing block fails its test, named by its page, line and first line, and
 * the walk's later blocks fail saying which block failed first.
 *
 * The user's machine: a HOME of its own (so the state directory the docs log in to is new) and
 * the PULUMI_HOME in it that a new account has (`$HOME/.pulumi`: Pulumi finds its home from the
 * account database, not from $HOME, so without it the docs' `pulumi login` and `pulumi plugin
 * install` would change the login and plugins of the account running the tests), the
 * caches of this machine (npm, pip, Go modules and builds, the offline engine: XDG_CACHE_HOME) so
 * nothing is downloaded twice, no internet (no update checks, no plugin downloads), and
 * PULUMI_SKIP_CHECKPOINTS, since no page here is about checkpoints.
 */

interface Block {
  page: string;
  line: number;
  directive: { kind: "run" } | { kind: "background" } | { kind: "file"; name: string };
  text: string;
}

/** The fenced blocks of the given `## ` sections of a page (every section when none are named). */
function blocksOf(page: string, sections?: string[]): Block[] {
  const lines = readFileSync(path.join(repoRoot, page), "utf8").split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const fence = /^(\s*)```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const indent = fence[1]!.length;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(indent));
    if (sections && !sections.includes(section)) continue;
    // The directive is the nearest line above the fence that is not blank (prettier puts a blank between).
    let above = start - 1;
    while (above > 0 && lines[above]!.trim() === "") above--;
    const comment = /^\s*<!-- doc-test: (.*) -->\s*$/.exec(lines[above] ?? "")?.[1];
    const text = body.join("\n") + "\n";
    const where = `${page}:${start + 1}`;
    if (comment?.startsWith("skip")) {
      if (!/^skip \(.+\)$/.test(comment))
        throw new Error(`${where}: a skipped block says why: skip (reason)`);
      continue;
    }
    if (comment?.startsWith("file ")) {
      blocks.push({
        page,
        line: start + 1,
        directive: { kind: "file", name: comment.slice(5).trim() },
        text,
      });
    } else if (comment === "background") {
      blocks.push({ page, line: start + 1, directive: { kind: "background" }, text });
    } else if (comment !== undefined) {
      throw new Error(`${where}: unknown directive <!-- doc-test: ${comment} -->`);
    } else if (fence[2] === "sh") {
      blocks.push({ page, line: start + 1, directive: { kind: "run" }, text });
    }
  }
  if (blocks.length === 0) throw new Error(`${page} ${sections?.join(", ") ?? ""}: no blocks found`);
  return blocks;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/** What a block printed. */
interface Output {
  stdout: string;
  stderr: string;
}

/**
 * One user's terminal: a fresh directory, a shell whose working directory and exported variables
 * carry from block to block, and the background processes (the sandbox) it started.
 */
class Terminal {
  readonly root = mkdtempSync(path.join(os.tmpdir(), "pw-docwalk-"));
  readonly port: number;
  readonly #state = path.join(this.root, "shell-state");
  readonly #background: { child: ChildProcess; output: string[] }[] = [];

  constructor(port: number) {
    this.port = port;
    const home = path.join(this.root, "home");
    const work = path.join(this.root, "work");
    mkdirSync(home, { recursive: true });
    mkdirSync(work, { recursive: true });
    mkdirSync(this.#state, { recursive: true });
    writeFileSync(path.join(this.#state, "cwd"), work);
    const exports = Object.entries(userEnv(home))
      .map(([name, value]) => `export ${name}=${shellQuote(value)}`)
      .join("\n");
    writeFileSync(path.join(this.#state, "env"), `${exports}\n`);
  }

  /** The block as the user types it: the checkout's path, the free port. */
  #typed(text: string): string {
    return text.replaceAll("<checkout>", repoRoot).replaceAll("8787", String(this.port));
  }

  /** A script that resumes the terminal's state, runs `text`, and (when it succeeded) saves it. */
  #script(text: string, save: boolean): string {
    const state = shellQuote(this.#state);
    const resume = `set -a; . ${state}/env; set +a; cd "$(cat ${state}/cwd)"\nset -e -o pipefail\n`;
    const keep = save
      ? `\nset +e\npwd > ${state}/cwd\nexport -p | grep -v -E '^declare -x (PWD|OLDPWD|SHLVL|_)=' > ${state}/env\n`
      : "";
    return resume + text + keep;
  }

  cwd(): string {
    return readFileSync(path.join(this.#state, "cwd"), "utf8").trim();
  }

  async run(text: string): Promise<Output> {
    const child = spawn("bash", ["-c", this.#script(this.#typed(text), true)], {
      cwd: this.root,
      env: {},
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) {
      const background = this.#background.map(({ output }) => output.join("")).join("\n");
      throw new Error(
        `exited with ${code}\n--- stdout\n${stdout}\n--- stderr\n${stderr}` +
          (background ? `\n--- the background processes printed\n${background}` : ""),
      );
    }
    return { stdout, stderr };
  }

  /** A block the user runs in a second terminal: started in a process group of its own. */
  background(text: string): void {
    const child = spawn("bash", ["-c", this.#script(this.#typed(text), false)], {
      cwd: this.root,
      env: {},
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const output: string[] = [];
    child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    this.#background.push({ child, output });
  }

  writeFile(name: string, text: string): void {
    writeFileSync(path.join(this.cwd(), name), this.#typed(text));
  }

  async close(): Promise<void> {
    for (const { child } of this.#background) {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      const exited = once(child, "exit");
      process.kill(-child.pid, "SIGTERM");
      await exited;
    }
    rmSync(this.root, { recursive: true, force: true });
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * A new user's environment on this machine: Node.js (the one running the tests, 24) and the
 * machine's tools on PATH, without this repository's or the engine's directories; HOME new; the
 * machine's caches kept; nothing of this repository's settings.
 */
function userEnv(home: string): Record<string, string> {
  const engine = engineBinDir();
  const keepPath = (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((dir) => dir && !dir.startsWith(repoRoot) && dir !== engine && !dir.includes(".pulumi"));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /^(PORTFOLIO_WALLET_|PULUMI_|TURNKEY_|SANDBOX_|npm_|VITEST|GO)/.test(name))
      continue;
    env[name] = value;
  }
  const realHome = os.homedir();
  const goModCache = execFileSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
  return {
    ...env,
    HOME: home,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PATH: [path.dirname(process.execPath), ...keepPath].join(path.delimiter),
    XDG_CACHE_HOME: process.env["XDG_CACHE_HOME"] ?? path.join(realHome, ".cache"),
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(realHome, ".npm"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    npm_config_prefer_offline: "true",
    GOMODCACHE: goModCache,
    ...GO_ENV,
    PIP_DISABLE_PIP_VERSION_CHECK: "1",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CHECKPOINTS: "true",
  };
}

interface Check {
  /** Runs after the first block whose text matches. */
  after: RegExp;
  check: (terminal: Terminal, output: Output) => Promise<void>;
}

interface Walk {
  name: string;
  pages: { page: string; sections?: string[] }[];
  before?: () => Promise<void>;
  checks: Check[];
  /** What the walk's commands leave inside the checkout, removed after it when it was not there before. */
  leavesInCheckout?: string[];
}

/**
 * `pip install <checkout>/sdk/python` builds in place (setuptools' build/ and egg-info): left
 * there, they would change the key of the shared virtual environment of the other Python tests,
 * and a stale build/lib could ship a module the generator has since removed.
 */
const PIP_BUILD_IN_PLACE = ["sdk/python/build", "sdk/python/pulumi_portfolio_wallet.egg-info"];

async function json(terminal: Terminal, command: string) {
  return JSON.parse((await terminal.run(command)).stdout);
}

/** The sandbox's answer for a wallet, with the token the docs give. */
async function walletAtService(terminal: Terminal, walletId: string) {
  const response = await fetch(`http://127.0.0.1:${terminal.port}/v2/portfolio-wallets/${walletId}`, {
    headers: { authorization: "Bearer sandbox-token" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { label: string; strategyConfig: { positions: unknown[] } };
}

/** What test/examples/languages.test.ts checked of each language's example: kept here. */
const EXAMPLE_CHECKS: Check[] = [
  {
    after: /pulumi up --yes/,
    async check(terminal) {
      const outputs = await json(terminal, "pulumi stack output --json --show-secrets");
      expect(outputs["depositAddresses"]["ethereum"]).toMatch(/^0x[0-9a-f]{40}$/);
      expect(outputs["blendedRateBps"]).toBeGreaterThan(0);
      expect(outputs["webhookSecret"]).toEqual(expect.any(String));
      expect((await terminal.run("pulumi stack output webhookSecret")).stdout.trim()).toBe("[secret]");
      const wallet = await walletAtService(terminal, outputs["walletId"]);
      expect(wallet.label).toBe("Example treasury");
      expect(wallet.strategyConfig.positions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ positionKey: "tbills", targetWeightBps: 6000 }),
          expect.objectContaining({ positionKey: "syrupUsdc", targetWeightBps: 4000 }),
        ]),
      );
    },
  },
  {
    after: /pulumi preview --diff/,
    async check(terminal, output) {
      // The reweight shows per yield source, as the README promises of `--diff`.
      expect(output.stdout).toMatch(/tbills/);
      expect(output.stdout).toMatch(/syrupUsdc/);
      // One update, and nothing created, deleted or replaced: read from the summary it printed.
      expect(changesInPreviewText(output.stdout)).toEqual({ update: 1 });
    },
  },
  {
    after: /pulumi destroy --yes/,
    async check(terminal) {
      const exported = await json(terminal, "pulumi stack export");
      expect(exported.deployment.resources ?? []).toEqual([]);
    },
  },
];

/** A stack's outputs and its wallet at the service, after the first `pulumi up` of a page. */
function walletUp(expectedPositions: Record<string, number>): Check {
  return {
    after: /pulumi up --yes/,
    async check(terminal) {
      const outputs = await json(terminal, "pulumi stack output --json --show-secrets");
      const walletId = outputs["walletId"];
      expect(walletId).toMatch(/^[0-9a-f-]{36}$/);
      const wallet = await walletAtService(terminal, walletId);
      expect(wallet.strategyConfig.positions).toEqual(
        expect.arrayContaining(
          Object.entries(expectedPositions).map(([positionKey, targetWeightBps]) =>
            expect.objectContaining({ positionKey, targetWeightBps }),
          ),
        ),
      );
    },
  };
}

const WALKS: Walk[] = [
  {
    name: "README (TypeScript), then cli.md's and policy.md's first examples and the two-stack example",
    // The two-stack example starts in the project the README's Install makes, as its README says.
    pages: [
      { page: "README.md", sections: ["Install", "Using the provider"] },
      { page: "docs/cli.md", sections: [""] },
      { page: "docs/policy.md", sections: ["Running it"] },
      { page: "examples/two-stack/README.md" },
    ],
    checks: [
      walletUp({ tbills: 5000, syrupUsdc: 3000, resolvRlp: 2000 }),
      {
        after: /portfolio-wallet wallets list/,
        async check(terminal, output) {
          const { walletId } = await json(terminal, "pulumi stack output --json");
          expect(output.stdout).toContain(walletId);
        },
      },
      {
        after: /--policy-pack/,
        async check(_terminal, output) {
          expect(output.stdout).toMatch(/portfolio-wallet-allocation/);
        },
      },
      {
        after: /pulumi stack output ethereumDepositAddress/,
        async check(_terminal, output) {
          // The block's last command prints the address that came through the StackReference.
          expect(output.stdout.trim().split("\n").at(-1)).toMatch(/^0x[0-9a-f]{40}$/);
        },
      },
    ],
  },
  {
    name: "docs/languages.md: Python",
    pages: [{ page: "docs/languages.md", sections: ["Before you start, in every language", "Python"] }],
    checks: [walletUp({ tbills: 5000, syrupUsdc: 3000, resolvRlp: 2000 })],
    leavesInCheckout: PIP_BUILD_IN_PLACE,
  },
  {
    name: "docs/languages.md: YAML",
    pages: [{ page: "docs/languages.md", sections: ["Before you start, in every language", "YAML"] }],
    checks: [
      {
        after: /pulumi up --yes/,
        async check(terminal) {
          const outputs = await json(terminal, "pulumi stack output --json");
          expect(outputs["ethereumDepositAddress"]).toMatch(/^0x[0-9a-f]{40}$/);
        },
      },
      {
        after: /pulumi import/,
        async check(terminal, output) {
          // YAML prints the resource to paste into Pulumi.yaml.
          expect(output.stdout).toMatch(/legacy:\s*\n\s*type: portfolio-wallet:PortfolioWallet/);
          const exported = await json(terminal, "pulumi stack export");
          const imported = exported.deployment.resources.find((r: { urn: string }) =>
            r.urn.endsWith("::legacy"),
          );
          expect(imported?.protect).toBe(true);
        },
      },
    ],
  },
  {
    name: "examples/python",
    pages: [{ page: "examples/python/README.md" }],
    checks: EXAMPLE_CHECKS,
    leavesInCheckout: PIP_BUILD_IN_PLACE,
  },
  { name: "examples/go", pages: [{ page: "examples/go/README.md" }], checks: EXAMPLE_CHECKS },
  { name: "examples/yaml", pages: [{ page: "examples/yaml/README.md" }], checks: EXAMPLE_CHECKS },
  {
    name: "examples/java",
    pages: [{ page: "examples/java/README.md" }],
    // The README's `mvn -f <checkout>/sdk/java/pom.xml install`, done once for the whole suite
    // under a lock (other test files compile against the same local Maven repository).
    before: async () => {
      const project = await LanguageProject.create(path.join(repoRoot, "examples", "java"), "docwalk-java", {
        plugin: "none",
      });
      try {
        await installJavaSdkIntoLocalRepository(project);
      } finally {
        project.cleanUp();
      }
    },
    checks: EXAMPLE_CHECKS,
  },
];

describe.each(WALKS)("$name", ({ pages, before, checks, leavesInCheckout = [] }) => {
  const blocks = pages.flatMap(({ page, sections }) => blocksOf(page, sections));
  let terminal: Terminal;
  let failedFirst: string | undefined;
  const pending = [...checks];

  const leftBehind = leavesInCheckout.filter((relative) => !existsSync(path.join(repoRoot, relative)));

  beforeAll(async () => {
    await before?.();
    terminal = new Terminal(await freePort());
  }, 900_000);

  afterAll(async () => {
    await terminal?.close();
    for (const relative of leftBehind)
      rmSync(path.join(repoRoot, relative), { recursive: true, force: true });
  });

  test.each(blocks.map((block) => ({ block, title: `${block.page}:${block.line} ${firstLine(block)}` })))(
    "$title",
    async ({ block, title }) => {
      if (failedFirst) throw new Error(`not run: ${failedFirst} failed first`);
      try {
        if (block.directive.kind === "file") {
          terminal.writeFile(block.directive.name, block.text);
          return;
        }
        if (block.directive.kind === "background") {
          terminal.background(block.text);
          return;
        }
        const output = await terminal.run(block.text).catch((error: Error) => {
          throw new Error(`${title}: ${error.message}`);
        });
        for (const check of pending.filter(({ after }) => after.test(block.text))) {
          pending.splice(pending.indexOf(check), 1);
          await check.check(terminal, output);
        }
      } catch (error) {
        failedFirst = title;
        throw error;
      }
    },
    900_000,
  );

  test("every check found its block", () => {
    expect(pending.map(({ after }) => String(after))).toEqual([]);
  });
});

function firstLine(block: Block): string {
  const line = block.text.split("\n").find((l) => l.trim() && !l.trim().startsWith("#")) ?? "";
  const what = block.directive.kind === "file" ? `(file ${block.directive.name})` : line.trim();
  return what.length > 70 ? `${what.slice(0, 67)}...` : what;
}
