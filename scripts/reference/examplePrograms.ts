// An example as a whole program in each language, as a user pastes it (imports, Go's package and
// main, Java's class, YAML's name and runtime), and the examples section of a page.
import { isRef, type ExampleValue } from "./exampleValues.ts";

export const LANGUAGES = ["TypeScript", "Python", "Go", "YAML", "Java"] as const;
export type Language = (typeof LANGUAGES)[number];

export const indented = (code: string, prefix: string) =>
  code
    .split("\n")
    .map((line) => (line === "" ? line : `${prefix}${line}`))
    .join("\n");

/** A Go example as a whole `main` package, as a user pastes it into main.go. */
export function goProgram(body: string, exportLine: string): string {
  return (
    `package main\n\nimport (\n\tportfoliowallet "github.com/portfolio-wallet/pulumi-portfolio-wallet/sdk/go/portfoliowallet"\n` +
    `\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n` +
    `${indented(body, "\t\t")}\n\t\t${exportLine}\n\t\treturn nil\n\t})\n}`
  );
}

/** The Java SDK's package (sdk/java): resources, their Args and the functions here, other Args under `.inputs`. */
const JAVA_PACKAGE = "com.portfoliowallet.portfoliowallet";

/**
 * A Java example as a whole compilation unit, `src/main/java/App.java` of languages.md's Maven
 * project, importing exactly the SDK classes it names.
 */
export function javaProgram(body: string, exportLine: string, resourceNames: string[]): string {
  const classes = [...new Set([...body.matchAll(/\b([A-Z]\w*)\b/g)].map((match) => match[1]!))].sort();
  const inBasePackage = (name: string) =>
    name === "PortfoliowalletFunctions" || resourceNames.some((r) => name === r || name === `${r}Args`);
  const imports = classes
    .filter((name) => inBasePackage(name) || name.endsWith("Args"))
    .map((name) => `import ${JAVA_PACKAGE}.${inBasePackage(name) ? "" : "inputs."}${name};`)
    .sort();
  return (
    `${[...imports, "import com.pulumi.Pulumi;"].join("\n")}\n\npublic class App {\n    public static void main(String[] args) {\n` +
    `        Pulumi.run(ctx -> {\n${indented(body, "            ")}\n            ${exportLine}\n        });\n    }\n}`
  );
}

/** A YAML example as a whole Pulumi.yaml: a YAML program is its project file. */
export function yamlProgram(body: string, outputLine: string): string {
  return `name: treasury\nruntime: yaml\n${body}\noutputs:\n  ${outputLine}`;
}

/** A walletId variable for the examples that need one. */
export const WALLET_ID_SETUP: Record<Language, string> = {
  TypeScript: 'const walletId = "<walletId>";',
  Python: 'wallet_id = "<walletId>"',
  Go: 'walletId := "<walletId>"',
  YAML: "config:\n  walletId:\n    type: string",
  Java: 'var walletId = "<walletId>";',
};

export function needsWalletId(args: Record<string, ExampleValue>): boolean {
  return Object.values(args).some((value) => isRef(value) && value.ref === "walletId");
}

const FENCE: Record<Language, string> = {
  TypeScript: "typescript",
  Python: "python",
  Go: "go",
  YAML: "yaml",
  Java: "java",
};

export function examplesSection(render: (language: Language) => string): string {
  return LANGUAGES.map(
    (language) => `### ${language}\n\n\`\`\`${FENCE[language]}\n${render(language)}\n\`\`\`\n`,
  ).join("\n");
}
