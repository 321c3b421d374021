#!/usr/bin/env bash
# Ensures actionlint (the GitHub Actions workflow linter) and prints the path of its executable.
# Order: an actionlint on PATH of the pinned version; the cache in
# ${XDG_CACHE_HOME:-~/.cache}/portfolio-wallet-tools/actionlint/<version>/; else `go install` from the
# Go module proxy into that cache (about 10 s). Used by the test of examples/github-actions.
set -euo pipefail
{
ACTIONLINT_VERSION="v1.7.12"
cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/portfolio-wallet-tools/actionlint/$ACTIONLINT_VERSION"
log() { printf '[actionlint] %s\n' "$*" >&2; }

if path="$(command -v actionlint 2>/dev/null)" && [[ "$("$path" -version 2>/dev/null | sed -n 1p)" == "$ACTIONLINT_VERSION" ]]; then
  printf '%s\n' "$path"
  exit 0
fi
if [[ -x "$cache_dir/actionlint" ]]; then
  printf '%s\n' "$cache_dir/actionlint"
  exit 0
fi
command -v go >/dev/null 2>&1 || {
  log "ERROR: actionlint $ACTIONLINT_VERSION is not installed and Go is not available to build it (https://go.dev/dl/)"
  exit 1
}
mkdir -p "$cache_dir"
tmp="$(mktemp -d "$cache_dir/.tmp.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log "building actionlint $ACTIONLINT_VERSION from Go modules"
GOBIN="$tmp" GOFLAGS="-buildvcs=false" GOTOOLCHAIN=local go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION" >&2
mv "$tmp/actionlint" "$cache_dir/actionlint"
printf '%s\n' "$cache_dir/actionlint"
exit 0
}
