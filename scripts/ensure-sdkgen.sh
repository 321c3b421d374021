#!/usr/bin/env bash
# Ensures the SDK generator (scripts/sdkgen, a Go program over github.com/pulumi/pulumi/pkg/v3's codegen
# at the engine's version) is built, cached in ${XDG_CACHE_HOME:-~/.cache}/portfolio-wallet-pulumi/sdkgen/
# keyed by a hash of its sources, and prints the binary's path (and nothing else on stdout). The Go modules
# it needs are the CLI's (scripts/ensure-pulumi-engine.sh), so after the engine it takes about a minute.
set -euo pipefail
{
log() { printf '[sdkgen] %s\n' "$*" >&2; }
die() {
  printf '[sdkgen] ERROR: %s\n' "$*" >&2
  exit 1
}
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/sdkgen" && pwd)"
hash="$(cat "$source_dir/go.mod" "$source_dir/go.sum" "$source_dir"/*.go | sha256sum | cut -c1-16)"
cache_root="${SDKGEN_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/portfolio-wallet-pulumi/sdkgen}"
binary="$cache_root/$hash/sdkgen"
if [[ -x "$binary" ]]; then
  printf '%s\n' "$binary"
  exit 0
fi
command -v go >/dev/null 2>&1 || die "Go >= 1.25 is needed to build the SDK generator (https://go.dev/dl/)"
mkdir -p "$cache_root"
exec 9>"$cache_root/.build.lock"
flock 9
if [[ ! -x "$binary" ]]; then
  log "building the SDK generator from $source_dir (about a minute)"
  tmp="$(mktemp -d "$cache_root/.tmp.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (
    cd "$source_dir"
    export GOFLAGS="-mod=mod -buildvcs=false" GOWORK=off GOTOOLCHAIN=local
    go build -o "$tmp/sdkgen" .
  ) >&2 || die "building the SDK generator failed"
  mkdir -p "$(dirname "$binary")"
  mv "$tmp/sdkgen" "$binary"
fi
printf '%s\n' "$binary"
exit 0
}
