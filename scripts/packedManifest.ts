// The package.json a user installs: the repository's, without what only this repository uses.
//   node scripts/packedManifest.ts strip     (the end of `prepack`, after the build)
//   node scripts/packedManifest.ts restore   (`postpack`)
//
// npm has no setting for what of package.json goes into the tarball: it packs the file on disk as
// it finds it between `prepack` and `postpack`. So `prepack` writes the user's manifest in place
// of the repository's, after saving the repository's beside it, and `postpack` puts it back. With
// the scripts in the tarball, npm 11 warns each user that the package's `prepack`/`prepare` "install
// scripts" are not covered by allowScripts, though they name files the tarball does not hold.
//
// While a pack is under way the checkout's package.json is the user's; what else reads it then:
// - the build's input hash (scripts/build.ts) reads the repository's, through repositoryManifest(),
//   so a pack never looks like a changed source and never starts a rebuild of dist/;
// - a second pack of the same checkout (two terminals, two test files) waits for the first to put
//   the manifest back: the saved copy is created exclusively, so it is also the lock;
// - a pack that was stopped between the two (a killed npm, a failed tar) leaves the saved copy: the
//   next pack, once the copy is older than any pack takes, puts it back first; or by hand,
//   `node scripts/packedManifest.ts restore`.
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What a user's install never reads: the repository's own commands and its development tools. */
export const REPOSITORY_ONLY_FIELDS = ["scripts", "devDependencies"] as const;

/** A pack writes its tarball in seconds; a saved copy older than this was left by a stopped pack. */
const ABANDONED_AFTER_MS = 60_000;
/** How long a pack waits for another pack of the checkout before it gives up, saying why. */
const WAIT_FOR_OTHER_PACK_MS = 5 * 60_000;
const POLL_MS = 100;

export interface ManifestFiles {
  /** The package.json npm packs. */
  manifest: string;
  /** The repository's package.json while a pack is under way (and the lock between packs). */
  saved: string;
}

export function manifestFilesOf(root: string): ManifestFiles {
  return { manifest: path.join(root, "package.json"), saved: path.join(root, ".package.json.during-pack") };
}

const defaultFiles = manifestFilesOf(fileURLToPath(new URL("..", import.meta.url)));

/** The manifest as a user installs it: every field but the repository's own. */
export function userManifestOf(repositoryManifest: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(repositoryManifest).filter(
      ([field]) => !(REPOSITORY_ONLY_FIELDS as readonly string[]).includes(field),
    ),
  );
}

/**
 * The repository's package.json text, even while a pack has the user's in its place (a manifest
 * without `scripts` is only ever the user's, and exists only while the saved copy does).
 */
export function repositoryManifest(files: ManifestFiles = defaultFiles): Buffer {
  const text = readFileSync(files.manifest);
  if ("scripts" in (JSON.parse(text.toString("utf8")) as object)) return text;
  return readFileSync(files.saved);
}

function ageMs(file: string): number | null {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Puts the repository's package.json back, when a pack had replaced it. */
export function restore(files: ManifestFiles = defaultFiles): boolean {
  try {
    renameSync(files.saved, files.manifest);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Saves the repository's package.json beside it (exclusively: at most one pack at a time) and writes the user's. */
export async function strip(files: ManifestFiles = defaultFiles): Promise<void> {
  const started = Date.now();
  for (;;) {
    const repository = repositoryManifest(files);
    try {
      writeFileSync(files.saved, repository, { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const age = ageMs(files.saved);
    if (age !== null && age > ABANDONED_AFTER_MS) {
      console.warn(
        `[pack] ${files.saved} was left by a pack that stopped before it put package.json back; putting it back`,
      );
      restore(files);
      continue;
    }
    if (Date.now() - started > WAIT_FOR_OTHER_PACK_MS)
      throw new Error(
        `another \`npm pack\` of this checkout has held ${files.saved} for over ${WAIT_FOR_OTHER_PACK_MS / 60_000} ` +
          "minutes; if no pack is running, run `node scripts/packedManifest.ts restore` and pack again",
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const user = userManifestOf(JSON.parse(readFileSync(files.saved, "utf8")) as Record<string, unknown>);
  // Renamed into place, so a reader sees one whole manifest or the other, never a half-written one.
  const next = `${files.manifest}.next`;
  writeFileSync(next, `${JSON.stringify(user, null, 2)}\n`);
  renameSync(next, files.manifest);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2];
  if (command === "strip") await strip();
  else if (command === "restore") restore();
  else {
    console.error("usage: node scripts/packedManifest.ts strip|restore");
    process.exit(2);
  }
}
