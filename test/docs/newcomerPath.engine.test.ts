import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { engineBinDir, repoRoot } from "../../scripts/pulumiEnv.ts";
import { LanguageProject } from "../native/harness/languageProject.ts";
import { changesInPreviewText } from "../support/previewText.ts";
import { heldPort } from "../support/heldPort.ts";
import { GO_ENV, installJavaSdkIntoLocalRepository } from "../native/harness/sdks.ts";

/**
 * The newcomer's path through the docs, followed word for word: every shell block of the pages a
 * new user follows, in order, in a fresh directory outside this repository, through the real
 * engine, with nothing on PATH but Node.js and the machine's own tools (no `pulumi`: the docs say
 * how to get it). Pages: the top README's Install and Using sections (then, in the project they
 * made, the first examples of docs/cli.md and docs/policy.md and the two-stack example, whose
 * README starts there), docs/languages.md's opening with its Python and its YAML section, and
 * every other example README. docs/languages.md's language sections (Python, Go, YAML, Java) run in
 * order in the README's terminal, after its TypeScript: one sitting, one sandbox, one backend, as a
 * newcomer follows them, so that a section whose stack, wallet or requestIds meets another's fails.
 *
 * What the test changes in a block, and nothing else:
 * - `<checkout>` (the docs' name for a clone of this repository after `npm ci`) becomes this
 *   checkout;
 * - the sandbox's ports 8787 and 8788 (a second sandbox, docs/cli.md's approvals) become free ports,
 *   so that runs beside each other do not collide.
 *
 * What the docs mark, with an HTML comment above a fenced block (invisible on GitHub):
 * - `<!-- doc-test: file NAME -->`: the user saves this block as NAME in the current directory;
 * - `<!-- doc-test: edit NAME -->` above a `diff` block: the user changes NAME as the block shows
 *   (its `-` lines, with the context lines between them, become its `+` lines; they must be in the
 *   file once);
 * - `<!-- doc-test: background -->`: the user runs this block in a second terminal (the sandbox);
 *   it runs in the background until the walk ends, and the docs' next step checks that it answers;
 * - `<!-- doc-test: background-unless-answering -->`: the same, unless a sandbox already answers on
 *   the block's port (the docs say to keep that one and skip the block);
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
  /** The page's `## ` heading above the block ("" before the first). */
  section: string;
  line: number;
  directive:
    | { kind: "run" }
    | { kind: "background"; unlessAnswering: boolean }
    | { kind: "file"; name: string }
    | { kind: "edit"; name: string };
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
    const at = { page, section, line: start + 1, text };
    const file = /^(file|edit) (.+)$/.exec(comment ?? "");
    if (file) {
      if (file[1] === "edit" && fence[2] !== "diff") throw new Error(`${where}: an edit is a diff block`);
      blocks.push({ ...at, directive: { kind: file[1] as "file" | "edit", name: file[2]!.trim() } });
    } else if (comment === "background" || comment === "background-unless-answering") {
      blocks.push({ ...at, directive: { kind: "background", unlessAnswering: comment !== "background" } });
    } else if (comment !== undefined) {
      throw new Error(`${where}: unknown directive <!-- doc-test: ${comment} -->`);
    } else if (fence[2] === "sh") {
      blocks.push({ ...at, directive: { kind: "run" } });
    }
  }
  if (blocks.length === 0) throw new Error(`${page} ${sections?.join(", ") ?? ""}: no blocks found`);
  return blocks;
}

/**
 * A file changed as a `diff` block shows: the block's `-` and context lines, in order, become its
 * `+` and context lines. They must be in the file exactly once, or the docs' change is not the
 * file's.
 */
export function applyEdit(file: string, original: string, diff: string): string {
  const lines = diff.replace(/\n$/, "").split("\n");
  const bad = lines.find((line) => !/^[-+ ]/.test(line) && line !== "");
  if (bad !== undefined) throw new Error(`${file}: a diff line starts with -, + or a space: "${bad}"`);
  const before = lines.filter((line) => !line.startsWith("+")).map((line) => line.slice(1));
  const after = lines.filter((line) => !line.startsWith("-")).map((line) => line.slice(1));
  const from = before.join("\n");
  const count = original.split(from).length - 1;
  if (count !== 1)
    throw new Error(`${file}: the lines the docs change are in it ${count} times, not once:\n${from}`);
  return original.replace(from, () => after.join("\n"));
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
  /** The docs' ports (8787, and 8788 for a second sandbox) and the free ports that stand for them. */
  readonly ports: Record<DocPort, number>;
  /** What the checks learn on the way (a wallet's id, to find it again after its destroy). */
  readonly notes = new Map<string, string>();
  readonly #state = path.join(this.root, "shell-state");
  readonly #background: { child: ChildProcess; output: string[] }[] = [];

  /** The free port of the docs' 8787, the sandbox the walk's stacks use. */
  get port(): number {
    return this.ports["8787"];
  }

  constructor(ports: Record<DocPort, number>, startingNode: StartingNode) {
    this.ports = ports;
    const home = path.join(this.root, "home");
    const work = path.join(this.root, "work");
    mkdirSync(home, { recursive: true });
    mkdirSync(work, { recursive: true });
    mkdirSync(this.#state, { recursive: true });
    writeFileSync(path.join(this.#state, "cwd"), work);
    const exports = Object.entries(userEnv(home, startingNode))
      .map(([name, value]) => `export ${name}=${shellQuote(value)}`)
      .join("\n");
    writeFileSync(path.join(this.#state, "env"), `${exports}\n`);
  }

  /** The block as the user types it: the checkout's path, the free ports. */
  #typed(text: string): string {
    return DOC_PORTS.reduce(
      (typed, port) => typed.replaceAll(port, String(this.ports[port])),
      text.replaceAll("<checkout>", repoRoot),
    );
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

  /**
   * A block the user runs in a second terminal: started in a process group of its own. With
   * `unlessAnswering`, not started when a sandbox already answers on the block's port.
   */
  async background(text: string, unlessAnswering: boolean): Promise<void> {
    if (unlessAnswering) {
      const port = DOC_PORTS.find((docPort) => text.includes(docPort));
      if (port === undefined) throw new Error(`a background-unless-answering block names no port:\n${text}`);
      const answers = await fetch(`http://127.0.0.1:${this.ports[port]}/openapi.json`).then(
        (response) => response.ok,
        () => false,
      );
      if (answers) return;
    }
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
    const file = path.join(this.cwd(), name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, this.#typed(text));
  }

  editFile(name: string, diff: string): void {
    const file = path.join(this.cwd(), name);
    writeFileSync(file, applyEdit(name, readFileSync(file, "utf8"), this.#typed(diff)));
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

/** The sandbox ports the docs name, each replaced by a free port of its own. */
const DOC_PORTS = ["8787", "8788"] as const;
type DocPort = (typeof DOC_PORTS)[number];

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Which Node.js a walk's shell starts with: the machine's own (the README's walk: its Install
 * section says how to get Node.js 24 with the machine's npm, and a newcomer on a Node 20 machine
 * starts there), or the one running the tests (the example READMEs, which take the README's
 * Node.js step as done).
 */
type StartingNode = "machine" | "tests";

/** The machine's tools: PATH without this repository's, the engine's or a Pulumi directory. */
function machinePath(): string[] {
  const engine = engineBinDir();
  return (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .filter((dir) => dir && !dir.startsWith(repoRoot) && dir !== engine && !dir.includes(".pulumi"));
}

/** The machine's own `node` (first on its PATH), or undefined when it has none. */
function machineNode(): string | undefined {
  return machinePath()
    .map((dir) => path.join(dir, "node"))
    .find((candidate) => existsSync(candidate));
}

/**
 * A new user's environment on this machine: the machine's tools on PATH (with the tests' Node.js,
 * 24, first, unless the walk starts on the machine's own), without this repository's or the
 * engine's directories; HOME new; the machine's caches kept; nothing of this repository's settings.
 */
function userEnv(home: string, startingNode: StartingNode): Record<string, string> {
  const keepPath = machinePath();
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
    PATH: (startingNode === "tests" ? [path.dirname(process.execPath), ...keepPath] : keepPath).join(
      path.delimiter,
    ),
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
  /** Runs after the first block whose text matches (in `within`'s page and section, when given). */
  after: RegExp;
  within?: { page: string; section?: string };
  check: (terminal: Terminal, output: Output) => Promise<void>;
}

function checkFits(check: Check, block: Block): boolean {
  const { within } = check;
  if (within && (within.page !== block.page || (within.section ?? block.section) !== block.section))
    return false;
  return check.after.test(block.text);
}

interface Walk {
  name: string;
  pages: { page: string; sections?: string[] }[];
  before?: () => Promise<void>;
  /** The Node.js the walk's shell starts with ("tests" unless said). */
  startingNode?: StartingNode;
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
async function walletAtService(terminal: Terminal, walletId: string, port = terminal.port) {
  const response = await fetch(`http://127.0.0.1:${port}/v2/portfolio-wallets/${walletId}`, {
    headers: { authorization: "Bearer sandbox-token" },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    label: string;
    status: string;
    strategyConfig: { positions: unknown[] };
  };
}

const positionsOf = (weights: Record<string, number>) =>
  Object.entries(weights).map(([positionKey, targetWeightBps]) =>
    expect.objectContaining({ positionKey, targetWeightBps }),
  );

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
function walletUp(expectedPositions: Record<string, number>, within?: Check["within"]): Check {
  return {
    after: /pulumi up --yes/,
    within,
    async check(terminal) {
      const outputs = await json(terminal, "pulumi stack output --json --show-secrets");
      const walletId = outputs["walletId"];
      expect(walletId).toMatch(/^[0-9a-f-]{36}$/);
      const wallet = await walletAtService(terminal, walletId);
      expect(wallet.strategyConfig.positions).toEqual(expect.arrayContaining(positionsOf(expectedPositions)));
    },
  };
}

/**
 * One language's section of a sitting: its `up` makes a wallet of its own (no other section's,
 * which a collision of stacks or requestIds would hand it), its `up --diff` of the edited program
 * shows the reweight per source and the service applies it, and after its destroy the stack is
 * empty while the wallet stays at the service, as the docs say.
 */
function languageSection(
  within: { page: string; section: string },
  first: Record<string, number>,
  reweighted: Record<string, number>,
): Check[] {
  const key = `${within.page}#${within.section}`;
  // The section's project directory and wallet, learnt at its `up` (its destroy block may `cd ..`).
  let project = "";
  let walletId = "";
  return [
    {
      ...walletUp(first, within),
      async check(terminal, output) {
        await walletUp(first).check(terminal, output);
        project = terminal.cwd();
        walletId = (await json(terminal, "pulumi stack output --json"))["walletId"];
        const earlier = [...terminal.notes].find(([, id]) => id === walletId);
        expect(earlier, `${key}'s wallet is the one of ${earlier?.[0]}`).toBeUndefined();
        terminal.notes.set(key, walletId);
      },
    },
    {
      after: /pulumi up --yes --diff/,
      within,
      async check(terminal, output) {
        for (const positionKey of Object.keys(reweighted)) expect(output.stdout).toContain(positionKey);
        const wallet = await walletAtService(terminal, walletId);
        expect(wallet.strategyConfig.positions).toEqual(expect.arrayContaining(positionsOf(reweighted)));
      },
    },
    {
      after: /pulumi destroy --yes/,
      within,
      async check(terminal) {
        // In a subshell: the terminal stays where the block left it.
        const exported = await json(terminal, `(cd ${shellQuote(project)} && pulumi stack export)`);
        expect(exported.deployment.resources ?? []).toEqual([]);
        // The service has no wallet delete: the wallet stays, empty and active.
        const wallet = await walletAtService(terminal, walletId);
        expect(wallet.status).toBe("active");
      },
    },
  ];
}

const LANGUAGES = "docs/languages.md";

/** The Java SDK in the local Maven repository, as `mvn -f <checkout>/sdk/java/pom.xml install` puts it. */
async function installJavaSdk(): Promise<void> {
  // Done once for the whole suite under a lock (other test files compile against the same local
  // Maven repository), in place of the pages' `mvn install`, which they mark skipped for this.
  const project = await LanguageProject.create(path.join(repoRoot, "examples", "java"), "docwalk-java", {
    plugin: "none",
  });
  try {
    await installJavaSdkIntoLocalRepository(project);
  } finally {
    project.cleanUp();
  }
}

const WALKS: Walk[] = [
  {
    name: "README (TypeScript), cli.md's and policy.md's examples, the two-stack example, then languages.md's Python, Go, YAML and Java in one sitting",
    // The two-stack example starts in the project the README's Install makes, as its README says;
    // languages.md's sections follow in the same terminal, sandbox and backend, as a newcomer
    // who read the README first follows them.
    pages: [
      { page: "README.md", sections: ["Install", "Using the provider"] },
      { page: "docs/cli.md", sections: ["", "Approving with the money in view"] },
      { page: "docs/policy.md", sections: ["Running it"] },
      { page: "examples/two-stack/README.md" },
      {
        page: LANGUAGES,
        sections: ["Before you start, in every language", "Python", "Go", "YAML", "Java"],
      },
    ],
    before: installJavaSdk,
    // The README's Node.js step is walked from the machine's Node.js (20 here), as a newcomer on a
    // Debian or Ubuntu machine starts; the walk's first check asserts that it started there.
    startingNode: "machine",
    checks: [
      {
        after: /npm install --prefix "\$HOME\/.local\/node24" node@24/,
        within: { page: "README.md" },
        async check(terminal, output) {
          // The Node.js the README's step installed is the one on PATH from then on.
          expect(output.stdout).toMatch(/^v24\./m);
          const node = (await terminal.run("command -v node")).stdout.trim();
          expect(node).toBe(
            path.join(terminal.root, "home", ".local", "node24", "node_modules", ".bin", "node"),
          );
        },
      },
      ...languageSection(
        { page: "README.md", section: "Using the provider" },
        { tbills: 5000, syrupUsdc: 3000, resolvRlp: 2000 },
        { tbills: 4000, syrupUsdc: 4000, resolvRlp: 2000 },
      ),
      {
        after: /portfolio-wallet wallets list/,
        async check(terminal, output) {
          // The README's destroyed wallet is still listed: the service has no wallet delete.
          expect(output.stdout).toContain(terminal.notes.get("README.md#Using the provider"));
        },
      },
      {
        after: /portfolio-wallet approve/,
        async check(terminal, output) {
          // The money of the update, then the vote; the service then applies the update.
          expect(output.stdout).toMatch(/^Strategy update of treasury \(wallet [0-9a-f-]{36}\)/m);
          expect(output.stdout).toMatch(/Moves \$[\d,]+\.\d\d of \$[\d,]+\.\d\d/);
          const exported = JSON.parse(readFileSync(path.join(terminal.cwd(), "state.json"), "utf8"));
          const wallet = exported.deployment.resources.find((r: { urn: string }) =>
            r.urn.endsWith("::treasury"),
          );
          expect(wallet.outputs.strategyChangeStatus).toBe("pending_approval");
          await expect
            .poll(
              async () =>
                (await walletAtService(terminal, wallet.outputs.walletId, terminal.ports["8788"]))
                  .strategyConfig.positions,
              { timeout: 30_000 },
            )
            .toEqual(expect.arrayContaining(positionsOf({ tbills: 4000, syrupUsdc: 3000, resolvRlp: 3000 })));
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
        within: { page: "examples/two-stack/README.md" },
        async check(_terminal, output) {
          // The block's last command prints the address that came through the StackReference.
          expect(output.stdout.trim().split("\n").at(-1)).toMatch(/^0x[0-9a-f]{40}$/);
        },
      },
      ...languageSection(
        { page: LANGUAGES, section: "Python" },
        { tbills: 5000, syrupUsdc: 3000, resolvRlp: 2000 },
        { tbills: 4000, syrupUsdc: 4000, resolvRlp: 2000 },
      ),
      ...languageSection(
        { page: LANGUAGES, section: "Go" },
        { tbills: 6000, syrupUsdc: 4000 },
        { tbills: 5000, syrupUsdc: 5000 },
      ),
      ...languageSection(
        { page: LANGUAGES, section: "YAML" },
        { tbills: 6000, syrupUsdc: 4000 },
        { tbills: 3000, syrupUsdc: 7000 },
      ),
      {
        after: /pulumi import/,
        within: { page: LANGUAGES, section: "YAML" },
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
      ...languageSection(
        { page: LANGUAGES, section: "Java" },
        { tbills: 6000, syrupUsdc: 4000 },
        { tbills: 2000, syrupUsdc: 8000 },
      ),
    ],
    leavesInCheckout: PIP_BUILD_IN_PLACE,
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
    before: installJavaSdk,
    checks: EXAMPLE_CHECKS,
  },
];

describe.each(WALKS)("$name", ({ pages, before, startingNode = "tests", checks, leavesInCheckout = [] }) => {
  const blocks = pages.flatMap(({ page, sections }) => blocksOf(page, sections));
  let terminal: Terminal;
  let failedFirst: string | undefined;
  const pending = [...checks];

  const leftBehind = leavesInCheckout.filter((relative) => !existsSync(path.join(repoRoot, relative)));

  beforeAll(async () => {
    await before?.();
    const sandboxPort = await heldPort();
    terminal = new Terminal({ "8787": sandboxPort, "8788": await heldPort([sandboxPort]) }, startingNode);
  }, 900_000);

  if (startingNode === "machine")
    test("the shell starts with the machine's Node.js, not the tests'", async () => {
      const node = machineNode();
      if (node === undefined)
        throw new Error(
          "this machine has no node of its own on PATH: the README's Node.js step cannot be walked from it",
        );
      const started = await terminal.run("command -v node && node --version");
      const [firstNode, version] = started.stdout.trim().split("\n");
      expect(firstNode).toBe(node);
      expect(firstNode).not.toBe(process.execPath);
      // The walk means something only when the machine's Node.js is older than the README's floor.
      expect(version, `the machine's ${node} is ${version}`).toMatch(/^v(1\d|20|21|22\.(1[0-8]|\d))\./);
    });

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
        if (block.directive.kind === "edit") {
          terminal.editFile(block.directive.name, block.text);
          return;
        }
        if (block.directive.kind === "background") {
          await terminal.background(block.text, block.directive.unlessAnswering);
          return;
        }
        const output = await terminal.run(block.text).catch((error: Error) => {
          throw new Error(`${title}: ${error.message}`);
        });
        for (const check of pending.filter((check) => checkFits(check, block))) {
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
  const { directive } = block;
  const what =
    directive.kind === "file" || directive.kind === "edit"
      ? `(${directive.kind} ${directive.name})`
      : line.trim();
  return what.length > 70 ? `${what.slice(0, 67)}...` : what;
}
