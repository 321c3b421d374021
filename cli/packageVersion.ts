import { readFileSync } from "node:fs";

/** This package's version, from its package.json (two levels up from cli/ in the repo, three from dist/cli/). */
export function packageVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === "@portfolio-wallet/pulumi" && manifest.version) return manifest.version;
    } catch {
      // not this one
    }
  }
  return "unknown";
}
