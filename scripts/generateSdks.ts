// `npm run generate`: the native provider's package schema, then the Python, Go and Java SDKs generated
// from it, all written into the repository and never edited by hand:
//   provider/native/schema.json  (scripts/packageSchema/generate.ts)
//   sdk/python/                  pip-installable (pyproject.toml), package pulumi_portfolio_wallet
//   sdk/go/                      the Go module github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go
//   sdk/java/                    a Maven project (pom.xml, written here), com.portfoliowallet:pulumi-portfolio-wallet
// `--check` writes nothing and fails when any committed file differs from what generation gives (a
// test runs it). The Python and Go generator is a Go program (scripts/sdkgen) over Pulumi's codegen
// packages; the Java one is pulumi-java's `pulumi-java-gen`, built with the engine
// (scripts/ensure-pulumi-engine.sh), asked for no build files (it writes Gradle's only, and Gradle
// cannot be had here), so the Maven pom.xml is written here. The API reference (docs/reference/,
// scripts/reference/generate.ts) is generated from the same schema, and checked with them; so are
// the lists of these paths in .gitattributes and .prettierignore (scripts/generatedMarks.ts).
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
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
import { generatedMarksDifferences, writeGeneratedMarks } from "./generatedMarks.ts";
import { packageSchemaText, SCHEMA_FILE } from "./packageSchema/generate.ts";
import { engineBinDir } from "./pulumiEnv.ts";
import { referencePages, type PackageSchema } from "./reference/generate.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const SDK_LANGUAGES = ["python", "go", "java"] as const;

/**
 * The Java SDK's Maven coordinates and what it compiles against. The core SDK com.pulumi:pulumi
 * 1.36.1 is the newest Maven Central serves (its versions jump from 1.20.0 to 1.36.1); code from the
 * 1.22 generator compiles against it (test/native/java.engine.test.ts builds it), and the 1.22 language
 * host runs programs built with it.
 */
export const JAVA_SDK = {
  groupId: "com.portfoliowallet",
  artifactId: "pulumi-portfolio-wallet",
  pulumiCoreVersion: "1.36.1",
} as const;
export type SdkLanguage = (typeof SDK_LANGUAGES)[number];

export const sdkDir = (language: SdkLanguage) => path.join(repoRoot, "sdk", language);

/** The SDK generator's binary, built and cached by scripts/ensure-sdkgen.sh. */
function sdkgenBinary(): string {
  return execFileSync("bash", [path.join(repoRoot, "scripts", "ensure-sdkgen.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
}

/** The Java SDK's pom.xml: Maven plugins pinned, so a build needs nothing but Maven and Maven Central. */
function javaPom(version: string): string {
  const plugin = (artifactId: string, pluginVersion: string) =>
    `      <plugin>\n        <groupId>org.apache.maven.plugins</groupId>\n        <artifactId>${artifactId}</artifactId>\n        <version>${pluginVersion}</version>\n      </plugin>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/generateSdks.ts (npm run generate); do not edit. -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${JAVA_SDK.groupId}</groupId>
  <artifactId>${JAVA_SDK.artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
  <name>Portfolio Wallet Pulumi SDK</name>
  <description>Pulumi resources and functions of the Portfolio Wallet Yield Service, generated from the package schema.</description>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.pulumi</groupId>
      <artifactId>pulumi</artifactId>
      <version>${JAVA_SDK.pulumiCoreVersion}</version>
    </dependency>
    <!-- javax.annotation.Nullable in the generated code; com.pulumi:pulumi has it at runtime scope only. -->
    <dependency>
      <groupId>com.google.code.findbugs</groupId>
      <artifactId>jsr305</artifactId>
      <version>3.0.2</version>
    </dependency>
  </dependencies>
  <build>
    <plugins>
${plugin("maven-compiler-plugin", "3.13.0")}${plugin("maven-resources-plugin", "3.3.1")}${plugin("maven-jar-plugin", "3.4.2")}${plugin("maven-install-plugin", "3.1.3")}${plugin("maven-surefire-plugin", "3.5.2")}    </plugins>
  </build>
</project>
`;
}

/** Generates one SDK from a schema file into `outDir` (emptied first). */
function generateSdk(sdkgen: string, schemaFile: string, language: SdkLanguage, outDir: string): void {
  if (language === "java") {
    rmSync(outDir, { recursive: true, force: true });
    // The generator takes --out relative to its working directory, even an absolute one.
    mkdirSync(path.dirname(outDir), { recursive: true });
    const { version } = JSON.parse(readFileSync(schemaFile, "utf8")) as { version: string };
    execFileSync(
      path.join(engineBinDir(), "pulumi-java-gen"),
      [
        "generate",
        "--schema",
        schemaFile,
        "--out",
        path.basename(outDir),
        "--build",
        "none",
        "--version",
        version,
      ],
      { cwd: path.dirname(outDir), stdio: ["ignore", "ignore", "pipe"] },
    );
    writeFileSync(path.join(outDir, "pom.xml"), javaPom(version));
    return;
  }
  execFileSync(sdkgen, [schemaFile, language, outDir], { stdio: ["ignore", "inherit", "inherit"] });
  if (language === "python") {
    // pyproject.toml names README.md beside it; the generator writes it into the package.
    copyFileSync(path.join(outDir, "pulumi_portfolio_wallet", "README.md"), path.join(outDir, "README.md"));
  }
}

/**
 * The notice at the top of each SDK's README.md (the Go generator writes none, so it gets one with
 * the package's description). An HTML comment, as docs/reference/ and pom.xml carry: whoever opens
 * the folder's files to edit them reads it, while the README the package registries show is the
 * package's description alone.
 */
const GENERATED_NOTICE =
  "<!-- Generated from provider/native/schema.json by scripts/generateSdks.ts (npm run generate); do not edit. -->\n";

function writeGeneratedNotice(schemaFile: string, outDir: string): void {
  const readme = path.join(outDir, "README.md");
  const { description } = JSON.parse(readFileSync(schemaFile, "utf8")) as { description: string };
  const text = existsSync(readme) ? readFileSync(readme, "utf8") : `${description}\n`;
  // Once, even where a generator leaves an earlier README.md in place.
  writeFileSync(readme, text.startsWith(GENERATED_NOTICE) ? text : GENERATED_NOTICE + text);
}

export const REFERENCE_DIR = path.join(repoRoot, "docs", "reference");

/**
 * Everything `npm run generate` writes, relative to the repository root: the one list, from the
 * generators' own output paths. `npm run generate` writes it into .gitattributes (each marked
 * `linguist-generated`) and .prettierignore (scripts/generatedMarks.ts).
 */
export const GENERATED_PATHS: readonly string[] = [
  SCHEMA_FILE,
  ...SDK_LANGUAGES.map(sdkDir),
  REFERENCE_DIR,
].map((generated) => path.relative(repoRoot, generated).split(path.sep).join("/"));

/** Writes the API reference of a schema into `outDir` (emptied first). */
function writeReference(schemaText: string, outDir: string): void {
  rmSync(outDir, { recursive: true, force: true });
  for (const [relative, text] of referencePages(JSON.parse(schemaText) as PackageSchema)) {
    mkdirSync(path.dirname(path.join(outDir, relative)), { recursive: true });
    writeFileSync(path.join(outDir, relative), text);
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
      if (["__pycache__", "build", "dist", "target"].includes(entry) || entry.endsWith(".egg-info"))
        return [];
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
      writeGeneratedNotice(schemaFile, out);
      differences.push(...treeDifferences(out, sdkDir(language)).map((d) => `${d} (sdk/${language})`));
    }
    writeReference(schemaText, path.join(scratch, "reference"));
    differences.push(
      ...treeDifferences(path.join(scratch, "reference"), REFERENCE_DIR).map((d) => `${d} (docs/reference)`),
    );
    differences.push(...generatedMarksDifferences(GENERATED_PATHS, repoRoot));
    return differences;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function generateAll(): void {
  writeFileSync(SCHEMA_FILE, packageSchemaText());
  const sdkgen = sdkgenBinary();
  for (const language of SDK_LANGUAGES) {
    generateSdk(sdkgen, SCHEMA_FILE, language, sdkDir(language));
    writeGeneratedNotice(SCHEMA_FILE, sdkDir(language));
  }
  writeReference(readFileSync(SCHEMA_FILE, "utf8"), REFERENCE_DIR);
  writeGeneratedMarks(GENERATED_PATHS, repoRoot);
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
