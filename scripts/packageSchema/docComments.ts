import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The TypeScript docs of the resources and functions, read from their JSDoc comments: the one
 * source of every description in the native provider's package schema, so a Python, Go or YAML
 * user reads what a TypeScript user reads on hover.
 */

export interface ResourceDocs {
  description: string;
  /** Each input's description, from the `<Class>Args` interface. */
  inputs: Record<string, string>;
  /** Each output's description, from the class's declared properties. */
  outputs: Record<string, string>;
  /** Every output the class declares, documented or not. */
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
  const outputs: Record<string, string> = {};
  const declaredOutputs: string[] = [];
  for (const member of resourceClass.members) {
    const name = nameOf(member);
    const declared =
      ts.isPropertyDeclaration(member) &&
      member.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword);
    if (name === undefined || !declared) continue;
    declaredOutputs.push(name);
    outputs[name] = docOf(member);
  }
  return { description: docOf(resourceClass), inputs, outputs, declaredOutputs };
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
