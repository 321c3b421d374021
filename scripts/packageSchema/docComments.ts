import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The TypeScript docs of the resources and functions, read from their JSDoc comments: the one
 * source of every description in the native provider's package schema, so a Python, Go or YAML
 * user reads what a TypeScript user reads on hover. A resource's inputs and outputs are documented
 * on the keys of its descriptor's inputs shape and outputs schema (sdk/nodejs/resources/*Descriptor.ts);
 * its `<Class>Args` and the class show them through mapped types, so they are read through the type
 * checker, as an editor does.
 */

export interface ResourceDocs {
  description: string;
  /** Each input's description, from the properties of `<Class>Args`. */
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

/** The docs of resource class `className` and its `<className>Args`, in `relative` (from the repo root). */
export function resourceDocs(repoRoot: string, relative: string, className: string): ResourceDocs {
  const file = programOf(repoRoot).getSourceFile(path.join(repoRoot, relative));
  if (file === undefined) throw new Error(`${relative} is not reached from sdk/nodejs/index.ts`);
  const args = file.statements.find(
    (s): s is ts.TypeAliasDeclaration | ts.InterfaceDeclaration =>
      (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name.text === `${className}Args`,
  );
  const resourceClass = file.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className,
  );
  if (args === undefined || resourceClass === undefined) {
    throw new Error(`${relative} must declare class ${className} and type ${className}Args`);
  }
  const checker = programOf(repoRoot).getTypeChecker();
  const inputs = ownPropertyDocs(checker, checker.getTypeAtLocation(args.name));
  const outputs = ownPropertyDocs(checker, checker.getTypeAtLocation(resourceClass));
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
 * The properties of a type declared in this repository (for a class, its own: not those of
 * Pulumi's CustomResource) and their docs, each one's JSDoc where it is written (the keys of a
 * descriptor's inputs shape or outputs schema).
 */
function ownPropertyDocs(checker: ts.TypeChecker, type: ts.Type): Record<string, string> {
  const docs: Record<string, string> = {};
  for (const property of type.getProperties()) {
    const declarations = property.getDeclarations() ?? [];
    const ours = declarations.filter((d) => !d.getSourceFile().fileName.includes("/node_modules/"));
    if (declarations.length === 0 || ours.length < declarations.length) continue;
    docs[property.name] = ours.map(docOf).find((doc) => doc !== "") ?? "";
  }
  return docs;
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
