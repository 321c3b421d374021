// `npm run generate`: the native provider's package schema, then the Python and Go SDKs generated from
// it, all written into the repository and never edited by hand:
//   provider/native/schema.json  (scripts/packageSchema/generate.ts)
//   sdk/python/                  pip-installable (pyproject.toml), package pulumi_portfolio_wallet
//   sdk/go/                      the Go module github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go
// `--check` writes nothing and fails when any committed file differs from what generation gives (a
// test runs it). The generator is a Go program (scripts/sdkgen) over Pulumi's codegen packages.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { packageSchemaText, SCHEMA_FILE } from "./packageSchema/generate.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const SDK_LANGUAGES = ["python", "go"] as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

export const sdkDir = (language: SdkLanguage) => path.join(repoRoot, "sdk", language);

/** The SDK generator's binary, built and cached by scripts/ensure-sdkgen.sh. */
function sdkgenBinary(): string {
  return execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-sdkgen.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

/** Generates one SDK from a schema file into `outDir` (emptied first). */
function generateSdk(sdkgen: string, schemaFile: string, language: SdkLanguage, outDir: string): void {
  execFileSync(sdkgen, [schemaFile, language, outDir], { stdio: ["ignore", "inherit", "inherit"] });
  if (language === "python") {
    // pyproject.toml names README.md beside it; the generator writes it into the package.
    copyFileSync(path.join(outDir, "pulumi_portfolio_wallet", "README.md"), path.join(outDir, "README.md"));
  }
}

/** Every file under a directory, as paths relative to it, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  let entries: string[];
  try {
    entries = readdirSync(path.join(dir, prefix));
  } catch {
    return [];
  }
  return entries
    .flatMap((entry) => {
      const relative = path.join(prefix, entry);
      // What building or installing an SDK leaves beside it (its .gitignore lists the same).
      if (["__pycache__", "build", "dist"].includes(entry) || entry.endsWith(".egg-info")) return [];
      return statSync(path.join(dir, relative)).isDirectory() ? filesUnder(dir, relative) : [relative];
    })
    .sort();
}

/** What differs between a generated tree and a committed one: files missing, extra, or changed. */
export function treeDifferences(generated: string, committed: string): string[] {
  const wanted = filesUnder(generated);
  const present = new Set(filesUnder(committed));
  const differences: string[] = [];
  for (const file of wanted) {
    if (!present.has(file)) differences.push(`missing ${file}`);
    else if (!readFileSync(path.join(generated, file)).equals(readFileSync(path.join(committed, file)))) {
      differences.push(`changed ${file}`);
    }
    present.delete(file);
  }
  for (const file of present) differences.push(`not generated ${file}`);
  return differences;
}

/** Regenerates everything into temp dirs and lists each committed file that is not what generation gives. */
export function generatedDifferences(): string[] {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "pw-generate-"));
  try {
    const differences: string[] = [];
    const schemaText = packageSchemaText();
    if (readFileSync(SCHEMA_FILE, "utf8") !== schemaText)
      differences.push("changed provider/native/schema.json");
    const schemaFile = path.join(scratch, "schema.json");
    writeFileSync(schemaFile, schemaText);
    const sdkgen = sdkgenBinary();
    for (const language of SDK_LANGUAGES) {
      const out = path.join(scratch, language);
      generateSdk(sdkgen, schemaFile, language, out);
      differences.push(...treeDifferences(out, sdkDir(language)).map((d) => `${d} (sdk/${language})`));
    }
    return differences;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function generateAll(): void {
  writeFileSync(SCHEMA_FILE, packageSchemaText());
  const sdkgen = sdkgenBinary();
  for (const language of SDK_LANGUAGES) generateSdk(sdkgen, SCHEMA_FILE, language, sdkDir(language));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const differences = generatedDifferences();
    if (differences.length > 0) {
      console.error(`generated files are out of date (run npm run generate):\n  ${differences.join("\n  ")}`);
      process.exit(1);
    }
    console.error("the schema and the SDKs are what generation gives");
  } else {
    generateAll();
  }
}
