import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { REFERENCE_DIR } from "../../scripts/generateSdks.ts";
import { LanguageProject } from "./harness/languageProject.ts";
import { installJavaSdk, useGoSdk } from "./harness/sdks.ts";

/**
 * The examples of the generated API reference (docs/reference/api-docs) compile against the
 * generated SDKs: every page's Go example becomes a function of one Go program (`go vet`), every
 * page's Java example a method of one class (`mvn compile`). A reference whose examples name a
 * type, field or function the SDK lacks fails here.
 */

const PAGES = readdirSync(path.join(REFERENCE_DIR, "api-docs"))
  .filter((file) => file.endsWith(".md"))
  .sort();

/** Each page's example in a language: its name (the page's) and its code. */
function examplesIn(language: "go" | "java"): { name: string; code: string }[] {
  return PAGES.map((page) => {
    const text = readFileSync(path.join(REFERENCE_DIR, "api-docs", page), "utf8");
    const code = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\``).exec(text)?.[1];
    if (code === undefined) throw new Error(`${page} has no ${language} example`);
    return { name: page.replace(/\.md$/, ""), code };
  });
}

describe("the API reference's examples", () => {
  test("every Go example compiles against sdk/go", async () => {
    const project = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "reference-go"),
      "reference-go",
      { plugin: "none" },
    );
    try {
      project.writeFile("go.mod", project.readFile("go.mod.template"));
      const functions = examplesIn("go").map(({ name, code }) => {
        // The example's variables, used so that Go accepts them.
        const used = [...code.matchAll(/^(\w+), err :=/gm)].map((m) => `\t_ = ${m[1]}`).join("\n");
        return `func example_${name}(ctx *pulumi.Context) error {\n${code}\n${used}\n\treturn nil\n}\n`;
      });
      project.writeFile(
        "main.go",
        'package main\n\nimport (\n\tportfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"\n' +
          '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\n' +
          `${functions.join("\n")}\nfunc main() {}\n`,
      );
      await useGoSdk(project);
      await expect(project.run("go", ["vet", "."])).resolves.toBeDefined();
    } finally {
      project.cleanUp();
    }
  }, 600_000);

  test("every Java example compiles against sdk/java", async () => {
    const project = await LanguageProject.create(
      path.join(import.meta.dirname, "programs", "reference-java"),
      "reference-java",
      { plugin: "none" },
    );
    try {
      const methods = examplesIn("java").map(
        ({ name, code }) => `    static void ${name}(Context ctx) {\n${code}\n    }\n`,
      );
      const source = path.join(project.dir, "src", "main", "java", "reference");
      mkdirSync(source, { recursive: true });
      writeFileSync(
        path.join(source, "Examples.java"),
        "package reference;\n\nimport com.portfoliowallet.portfoliowallet.*;\nimport com.portfoliowallet.portfoliowallet.inputs.*;\n" +
          `import com.pulumi.Context;\n\npublic class Examples {\n${methods.join("\n")}}\n`,
      );
      await installJavaSdk(project);
    } finally {
      project.cleanUp();
    }
  }, 900_000);
});
