import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The TypeScript docs of the resources and functions, read from their JSDoc comments: the one
 * source of every description in the native provider's package schema, so a Python, Go or YAML
 * user reads what a TypeScript user reads on hover. A resource's outputs are documented on the
 * keys of its descriptor's outputs schema (sdk/nodejs/resources/*Descriptor.ts); the class shows them
 * through its merged interface, so they are read through the type checker, as an editor does.
 */

export interface ResourceDocs {
  description: string;
  /** Each input's description, from the `<Class>Args` interface. */
  inputs: Record<string, string>;
  /** Each output's description, from the class's output properties. */
  outputs: Record<string, string>;
  /** Every output property of the class, documented or not. */
  declaredOutputs: string[];
}

/** A JSDoc comment's text without its tags; `{@link X}` reads as `X`. */
function docOf(node: ts.Node): string {
  const parts = ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "");
  return parts
    .join("\n\n")
    .replace(/\{@link(?:code|plain)?\s+([^}|\s]+)(?:[|\s][^}]*)?\}/g, "`$1`")
    .trim();
}

function sourceFile(repoRoot: string, relative: string): ts.SourceFile {
  const file = path.join(repoRoot, relative);
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
}

const nameOf = (member: ts.ClassElement | ts.TypeElement) =>
  member.name !== undefined && ts.isIdentifier(member.name) ? member.name.text : undefined;

/** The docs of resource class `className` and its `<className>Args`, in `relative` (from the repo root). */
export function resourceDocs(repoRoot: string, relative: string, className: string): ResourceDocs {
  const file = sourceFile(repoRoot, relative);
  const args = file.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === `${className}Args`,
  );
  const resourceClass = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  if (args === undefined || resourceClass === undefined) {
    throw new Error(`${relative} must declare class ${className} and interface ${className}Args`);
  }
  const inputs: Record<string, string> = {};
  for (const member of args.members) {
    const name = nameOf(member);
    if (name !== undefined) inputs[name] = docOf(member);
  }
  const outputs = outputDocs(repoRoot, relative, className);
  return { description: docOf(resourceClass), inputs, outputs, declaredOutputs: Object.keys(outputs) };
}

const programs = new Map<string, ts.Program>();

/** One type-checked program of the resource classes per repository (made once: it takes seconds). */
function programOf(repoRoot: string): ts.Program {
  let program = programs.get(repoRoot);
  if (program === undefined) {
    const configFile = path.join(repoRoot, "tsconfig.json");
    const config = ts.parseJsonConfigFileContent(
      ts.readConfigFile(configFile, ts.sys.readFile).config,
      ts.sys,
      repoRoot,
    );
    program = ts.createProgram([path.join(repoRoot, "sdk", "nodejs", "index.ts")], {
      ...config.options,
      noEmit: true,
    });
    programs.set(repoRoot, program);
  }
  return program;
}

/**
 * The output properties of class `className` and their docs: its own properties, not those of
 * Pulumi's CustomResource, with each one's JSDoc where it is written (the descriptor's schema keys).
 */
function outputDocs(repoRoot: string, relative: string, className: string): Record<string, string> {
  const program = programOf(repoRoot);
  const file = program.getSourceFile(path.join(repoRoot, relative));
  const resourceClass = file?.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  if (resourceClass === undefined) throw new Error(`${relative} is not reached from sdk/nodejs/index.ts`);
  const checker = program.getTypeChecker();
  const outputs: Record<string, string> = {};
  for (const property of checker.getTypeAtLocation(resourceClass).getProperties()) {
    const declarations = property.getDeclarations() ?? [];
    const ours = declarations.filter((d) => !d.getSourceFile().fileName.includes("/node_modules/"));
    if (declarations.length === 0 || ours.length < declarations.length) continue;
    outputs[property.name] = ours.map(docOf).find((doc) => doc !== "") ?? "";
  }
  return outputs;
}

/** The docs of the exported functions of a module, by name. */
export function functionDocs(repoRoot: string, relative: string): Record<string, string> {
  const docs: Record<string, string> = {};
  for (const statement of sourceFile(repoRoot, relative).statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined) {
      docs[statement.name.text] = docOf(statement);
    }
  }
  return docs;
}
