#!/usr/bin/env bash
# Builds and checks every artifact of a release into an output directory, publishing nothing:
#   <out>/npm/       the npm package (npm pack)
#   <out>/python/    the Python SDK: sdist and wheel (python -m build; twine check)
#   <out>/plugin/    the provider plugin archive for `pulumi plugin install --file`
#   <out>/java/      the Java SDK: its jar and pom.xml (mvn package), attached to the GitHub release for
#                    `mvn install:install-file`; not published to Maven Central, which needs a
#                    verified namespace and signed artifacts that this project does not have yet
#   <out>/go-tag     the tag of the Go SDK module (sdk/go/v<version>)
# The release workflow (.github/workflows/release.yml) runs it on a version tag, then publishes what
# it built; the tests run it too (test/release/release.checkout.engine.test.ts), so every build step is tried.
# Usage: scripts/release.sh <version> <out dir>
set -euo pipefail
{
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[release] %s\n' "$*" >&2; }
die() {
  printf '[release] ERROR: %s\n' "$*" >&2
  exit 1
}

version="${1:-}"
out="${2:-}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || die "usage: $0 <version> <out dir> (got version '$version')"
[[ -n "$out" ]] || die "usage: $0 <version> <out dir>"
cd "$repo_root"

package_version="$(node -p 'require("./package.json").version')"
[[ "$package_version" == "$version" ]] ||
  die "the tag says $version but package.json says $package_version: bump package.json, run npm run generate, and tag again"
schema_version="$(node -p 'require("./provider/native/schema.json").version')"
[[ "$schema_version" == "$version" ]] || die "provider/native/schema.json says $schema_version: run npm run generate"

log "the package schema and the SDKs are what generation gives"
node scripts/generateSdks.ts --check

rm -rf "$out"
mkdir -p "$out/npm" "$out/python" "$out/plugin" "$out/java"

log "npm package"
node scripts/build.ts --if-changed
npm pack --silent --pack-destination "$out/npm" >/dev/null
archive="dist/plugin/pulumi-resource-portfolio-wallet-v$version.tar.gz"
[[ -f "$archive" ]] || die "npm run build did not write $archive"
# Listed first, then searched: `tar | grep -q` under pipefail fails when grep exits at its first
# match while tar is still writing names (SIGPIPE, exit 141), and a corrupt archive stops here.
archive_names="$(tar -tzf "$archive")"
grep -qx pulumi-resource-portfolio-wallet <<<"$archive_names" || die "$archive lacks the plugin's launcher"
cp "$archive" "$out/plugin/"

log "Python SDK"
tools="$(bash scripts/ensure-python-env.sh scripts/python/release-tools.txt)"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
# Built from a copy: the build writes beside its sources.
cp -R sdk/python "$staging/python"
"$tools/bin/python" -m build --sdist --wheel --outdir "$out/python" "$staging/python" >&2
"$tools/bin/python" -m twine check --strict "$out/python"/* >&2
ls "$out/python"/*.whl >/dev/null 2>&1 || die "no wheel was built"

log "Java SDK"
command -v mvn >/dev/null 2>&1 || die "the Java SDK needs Maven (mvn) and a JDK 11 or newer"
cp -R sdk/java "$staging/java"
mvn --batch-mode --quiet -f "$staging/java/pom.xml" package >&2
jar="$staging/java/target/pulumi-portfolio-wallet-$version.jar"
[[ -f "$jar" ]] || die "mvn package did not write $jar"
cp "$jar" "$out/java/"
cp "$staging/java/pom.xml" "$out/java/pulumi-portfolio-wallet-$version.pom"

printf 'sdk/go/v%s\n' "$version" >"$out/go-tag"
log "built release $version in $out"
exit 0
}
