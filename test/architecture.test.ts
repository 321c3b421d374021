import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { repoRoot } from "../scripts/pulumiEnv.ts";

/**
 * The layering of docs/architecture.md, checked on the import graph: a module imports only
 * modules of its own layer or of layers below. The table is the same as the document's.
 */

/** Layers from the bottom up; a module belongs to the first layer whose prefix matches its path. */
const LAYERS: { name: string; paths: string[] }[] = [
  { name: "contract", paths: ["sdk/nodejs/contract/"] },
  { name: "client", paths: ["sdk/nodejs/client/"] },
  {
    name: "settings",
    paths: ["sdk/nodejs/stackSettings.ts", "sdk/nodejs/retryWording.ts", "sdk/nodejs/allocationFile.ts"],
  },
  { name: "approval and webhook verification", paths: ["sdk/nodejs/approval/", "sdk/nodejs/webhooks/"] },
  { name: "resource classes and functions", paths: ["sdk/nodejs/resources/", "sdk/nodejs/functions/"] },
  { name: "package entry", paths: ["sdk/nodejs/index.ts"] },
  { name: "provider implementation", paths: ["provider/"] },
  { name: "sandbox money arithmetic", paths: ["sandbox/domain/money/arithmetic/"] },
  { name: "sandbox store", paths: ["sandbox/store/"] },
  { name: "sandbox domain", paths: ["sandbox/clock.ts", "sandbox/domain/"] },
  {
    name: "sandbox http",
    paths: ["sandbox/http/", "sandbox/signing/", "sandbox/routes/", "sandbox/console/"],
  },
  { name: "sandbox wiring", paths: ["sandbox/index.ts", "sandbox/app.ts", "sandbox/options.ts"] },
  { name: "policy pack", paths: ["policy/"] },
  { name: "command-line tool", paths: ["cli/"] },
];

/** The sandbox and the provider side share only the contract: what the sandbox may use outside itself. */
const SANDBOX_MAY_USE = ["sdk/nodejs/contract/"];
/** The one part of the provider side that may start a sandbox: the command-line tool's `sandbox` command. */
const MAY_USE_SANDBOX = ["cli/"];

const SOURCE_DIRS = ["sdk/nodejs", "provider", "sandbox", "policy", "cli"];
/** The console's browser scripts: JavaScript bundled with what they import (the contract's rules), so in the graph too. */
const CONSOLE_SCRIPTS = "sandbox/console/web/src/";

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((entry) => {
    const relative = `${dir}/${entry}`;
    if (statSync(path.join(repoRoot, relative)).isDirectory()) return sourceFiles(relative);
    if (relative.startsWith(CONSOLE_SCRIPTS) && entry.endsWith(".js")) return [relative];
    return /\.c?ts$/.test(entry) && !entry.endsWith(".d.ts") ? [relative] : [];
  });
}

function layerOf(file: string): number {
  return LAYERS.findIndex((layer) =>
    layer.paths.some((prefix) => file === prefix || file.startsWith(prefix)),
  );
}

/** Every relative import of a file (static, dynamic, re-exports, type-only), as repo-relative paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(repoRoot, file), "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)),
  );
}

const files = SOURCE_DIRS.flatMap(sourceFiles);

describe("architecture (docs/architecture.md)", () => {
  test("the document names every layer's folders and files", () => {
    const document = readFileSync(path.join(repoRoot, "docs", "architecture.md"), "utf8");
    const unnamed = LAYERS.flatMap((layer) => layer.paths).filter(
      (prefix) => !document.includes(`\`${prefix}\``),
    );
    expect(unnamed).toEqual([]);
  });

  test("every source module belongs to a layer", () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  test("no module imports a module of a layer above its own", () => {
    const upward = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => layerOf(target) > layerOf(file))
        .map(
          (target) =>
            `${file} (${LAYERS[layerOf(file)]!.name}) imports ${target} (${LAYERS[layerOf(target)]!.name})`,
        ),
    );
    expect(upward).toEqual([]);
  });

  test("the sandbox uses nothing outside itself but the contract", () => {
    const crossing = files
      .filter((file) => file.startsWith("sandbox/"))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => !target.startsWith("sandbox/"))
          .filter((target) => !SANDBOX_MAY_USE.some((allowed) => target.startsWith(allowed)))
          .map((target) => `${file} imports ${target}`),
      );
    expect(crossing).toEqual([]);
  });

  test("nothing of the provider side uses the sandbox but the command-line tool", () => {
    const crossing = files
      .filter((file) => !file.startsWith("sandbox/"))
      .filter((file) => !MAY_USE_SANDBOX.some((allowed) => file.startsWith(allowed)))
      .flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith("sandbox/"))
          .map((target) => `${file} imports ${target}`),
      );
    expect(crossing).toEqual([]);
  });

  test("every folder imports only folders below it: no two top-level folders import each other", () => {
    const folderOf = (file: string) => file.split("/")[0]!;
    const folderEdges = new Set(
      files.flatMap((file) =>
        importsOf(file)
          .filter((target) => folderOf(target) !== folderOf(file))
          .map((target) => `${folderOf(file)} -> ${folderOf(target)}`),
      ),
    );
    const cycles = [...folderEdges].filter((edge) => {
      const [from, to] = edge.split(" -> ");
      return folderEdges.has(`${to} -> ${from}`);
    });
    expect(cycles).toEqual([]);
  });

  test("no sub-folder imports a module of a folder above it that imports the sub-folder back", () => {
    // A sub-folder (sandbox/domain/money/) holds rules its parent builds on: a module of the parent
    // it imports must not itself stand on the sub-folder, or the two rooms are one.
    const backUp = files.flatMap((file) => {
      const folder = path.posix.dirname(file);
      return importsOf(file)
        .filter((target) => folder.startsWith(`${path.posix.dirname(target)}/`))
        .filter((target) => files.includes(target))
        .filter((target) => importsOf(target).some((back) => back.startsWith(`${folder}/`)))
        .map((target) => `${file} imports ${target}, which imports ${folder}/`);
    });
    expect(backUp).toEqual([]);
  });

  test("no module reaches itself through what it imports to run (no import circle, within a folder either)", () => {
    // Types (`import type`, JSDoc's `import("…")`) are erased before anything runs: a view and the
    // sections that name its type are no circle; a store that runs another that runs it is one.
    const valueImportsOf = (file: string) => {
      const code = readFileSync(path.join(repoRoot, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\b(?:import|export)\s+type\b[^;]*;/g, "");
      return [...code.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((match) =>
        path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]!)),
      );
    };
    const graph = new Map(
      files.map((file) => [file, valueImportsOf(file).filter((target) => files.includes(target))]),
    );
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, trail: string[]) => {
      const start = trail.indexOf(file);
      if (start >= 0) circles.push([...trail.slice(start), file].join(" -> "));
      if (start >= 0 || done.has(file)) return;
      for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
      done.add(file);
    };
    for (const file of files) visit(file, []);
    expect(circles).toEqual([]);
  });
});
