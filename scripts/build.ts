// `npm run build` (also run by `prepare`, so by `npm ci`, `npm pack` and installs from git): the
// published JavaScript and type declarations in dist/, from a clean directory so that no file of
// an earlier build (a renamed module, say) is ever packed.
//   dist/      ES modules (tsconfig.build.json): every entry, and the command-line tool
//   dist/cjs/  CommonJS (tsconfig.build.cjs.json): every entry, for `require` (CommonJS programs,
//              such as those `pulumi new typescript` creates)
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const dist = path.join(repoRoot, "dist");

async function compile(tsconfig: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", tsconfig], { cwd: repoRoot });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    process.stderr.write(`${stdout}${stderr}`);
    throw new Error(`tsc -p ${tsconfig} failed`);
  }
}

rmSync(dist, { recursive: true, force: true });
await Promise.all([compile("tsconfig.build.json"), compile("tsconfig.build.cjs.json")]);
// Without this, Node would read dist/cjs/**/*.js as ES modules: the package itself is "type": "module".
writeFileSync(path.join(dist, "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
