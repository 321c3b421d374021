#!/usr/bin/env bash
# Ensures an offline Pulumi engine for this project, all in one bin directory: the `pulumi` CLI, the
# language hosts for Node.js (`pulumi-language-nodejs`), Python (`pulumi-language-python` and its
# `pulumi-language-python-exec` script), YAML (`pulumi-language-yaml`), Go (`pulumi-language-go`) and
# Java (`pulumi-language-java`, with pulumi-java's SDK generator `pulumi-java-gen` beside it), the
# dynamic-provider plugin (`pulumi-resource-pulumi-nodejs`) and the policy-pack launcher. Prints that directory's absolute path on
# stdout (and nothing else); progress goes to stderr.
# The path is also written to node_modules/.cache/pulumi-engine/bin-dir, which scripts/pulumiEnv.ts reads.
#
# Usage: ensure-pulumi-engine.sh [--only <executable>,<executable>...]
#   With --only, just those pieces (and the CLI, always) are ensured, so a command that runs one
#   language builds no host it never starts: `npm run quickstart` asks for the CLI, the Node.js host
#   and the dynamic-provider plugin, leaving the Python, YAML, Go and Java hosts to the first command
#   that needs them (the tests' global set-up, `npm run engine`). The printed directory then may lack
#   the other pieces; a later call without --only builds just those.
#
# Resolution order:
#   1. a `pulumi` on PATH whose version equals the pinned CLI version, with every other piece next to it
#      (a regular Pulumi install ships them all);
#   2. the cache ${XDG_CACHE_HOME:-~/.cache}/portfolio-wallet-pulumi/engine/<cli>-<langhost>/bin, where each
#      missing piece is built from Go modules (minutes on 2 cores for the CLI, seconds to a minute for a
#      host), in a temp dir and renamed into place; a cache made before a piece existed gets just that piece.
#      The YAML, Go and Java hosts' versions are not part of the directory's name, so each is stamped beside
#      bin/ (versions/<executable>) and a host of another version counts as missing.
#
# Version pins (the only place they live):
#   - CLI version = the installed @pulumi/pulumi version (node_modules, else the pin in package.json). The
#     Automation API and the Node SDK expect a CLI at least as new as themselves, so they must match.
#   - Language host = LANGHOST_VERSION below. Since v3.69 the Node.js language host is its own Go module
#     (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3), which the module proxy reachable
#     here does not serve at any version; v3.68.0 is the last release where it lives inside the
#     github.com/pulumi/pulumi/sdk/v3 module. It speaks the same gRPC LanguageRuntime protocol and launches
#     the project's own (v3.259) @pulumi/pulumi/cmd/run, so programs run with the pinned SDK. Caveat: the
#     v3.68 host reads runtime options only from command-line flags, which a v3.259 CLI no longer passes
#     (it sends them in the RunRequest instead), so Pulumi.yaml `runtime.options` (typescript, nodeargs,
#     tsconfig) are ignored; see docs/offline-pulumi-engine.md. The Python host lives in the same module
#     at the same version (python/cmd/pulumi-language-python); the same caveat applies to its `virtualenv`
#     option, so the Python a program runs with is the first `python3` on PATH (or PULUMI_PYTHON_CMD).
#   - YAML language host = YAML_LANGHOST_VERSION below, from github.com/pulumi/pulumi-yaml, which the proxy
#     serves.
#   - Go language host = GO_LANGHOST_VERSION below. Since v3.67 it is its own Go module
#     (github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3), which the proxy refuses at every version;
#     v3.66.0 is the last release where it lives inside github.com/pulumi/pulumi/sdk/v3 (go/pulumi-language-go).
#     It only compiles and runs the program (`go build` with the program's own go.mod, so the program's
#     pulumi/sdk/v3, 3.259 here), over the same LanguageRuntime protocol. Like the other old hosts it cannot
#     generate code, so `pulumi import` in a Go project needs --generate-code=false (docs/languages.md).
#   - Java language host and generator = JAVA_VERSION below, from github.com/pulumi/pulumi-java/pkg (exact
#     versions only: the proxy answers 403 for its version list; from v1.23.0 the module is the repository
#     root, which the proxy refuses). Its go.mod has replace directives, copied into the throwaway module
#     (JAVA_REPLACES).
#
# Environment overrides: PULUMI_ENGINE_CACHE_DIR (cache root), PULUMI_ENGINE_FORCE_BUILD=1 (skip steps 1-2).
set -euo pipefail

# The whole script is one block, so bash parses it entirely before running (safe against edits mid-run).
{
LANGHOST_VERSION="3.68.0"
YAML_LANGHOST_VERSION="1.25.0"
GO_LANGHOST_VERSION="3.66.0"
JAVA_VERSION="1.22.0"
# The replace directives of github.com/pulumi/pulumi-java/pkg's go.mod at JAVA_VERSION (a dependency's
# replaces do not apply to the main module, and without them the build picks incompatible versions).
JAVA_REPLACES=(
  "github.com/Sirupsen/logrus=github.com/sirupsen/logrus@v1.8.3"
  "github.com/gogo/protobuf=github.com/gogo/protobuf@v1.3.2"
)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
log() { printf '[pulumi-engine] %s\n' "$*" >&2; }
die() {
  printf '[pulumi-engine] ERROR: %s\n' "$*" >&2
  exit 1
}

# The first match only, read by sed itself: `sed | head -n 1` fails under pipefail when head exits
# before sed has written its last line (SIGPIPE, exit 141).
json_version() { sed -n '/^ *"version": *"\([^"]*\)".*/{s//\1/p;q;}' "$1"; }

sdk_version=""
if [[ -f "$repo_root/node_modules/@pulumi/pulumi/package.json" ]]; then
  sdk_version="$(json_version "$repo_root/node_modules/@pulumi/pulumi/package.json")"
fi
if [[ -z "$sdk_version" ]]; then
  sdk_version="$(sed -n '\|^ *"@pulumi/pulumi": *"[~^=]*\([0-9][^"]*\)".*|{s||\1|p;q;}' "$repo_root/package.json")"
fi
[[ "$sdk_version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
  die "could not read an exact @pulumi/pulumi version from node_modules or package.json (got '$sdk_version')"
cli_version="$sdk_version"

cache_root="${PULUMI_ENGINE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/portfolio-wallet-pulumi/engine}"
# The `pulumi version` probes below are this script's questions, not the caller's use of Pulumi:
# without a PULUMI_HOME of the caller's they get a home in the cache, so that they write no log
# into the account's ~/.pulumi (which the CLI finds from the account database, whatever $HOME says).
probe_home="${PULUMI_HOME:-$cache_root/probe-home}"
engine_dir="$cache_root/$cli_version-$LANGHOST_VERSION"

# A plugin launcher: runs a script of @pulumi/pulumi (resolved from the plugin's working directory,
# the Pulumi project's or the policy pack's, so from its node_modules) with the Node.js on PATH.
# Args: bin dir, launcher name, module. The same shape as the pulumi-resource-pulumi-nodejs script
# shipped in the @pulumi/pulumi npm package, with "$@" quoted and exec.
write_node_launcher() {
  cat >"$1/$2" <<EOF
#!/bin/sh
SCRIPT_PATH=\$(node -e "console.log(require.resolve('$3'))")
if [ -n "\$SCRIPT_PATH" ]; then
    exec node "\$SCRIPT_PATH" "\$@"
fi
exit 1
EOF
  chmod 0755 "$1/$2"
}

# The dynamic-provider plugin.
write_dynamic_provider_plugin() {
  write_node_launcher "$1" pulumi-resource-pulumi-nodejs @pulumi/pulumi/cmd/dynamic-provider
}

# The policy-pack launcher for packs whose PulumiPolicy.yaml says `runtime: nodejsshim`: the 3.68
# language host cannot run policy packs, and for a runtime with no language plugin the engine runs
# `pulumi-analyzer-policy-<runtime>` with the engine address and "." in the pack's directory.
write_policy_pack_plugin() {
  write_node_launcher "$1" pulumi-analyzer-policy-nodejsshim @pulumi/pulumi/cmd/run-policy-pack
}

publish() {
  if [[ -d "$repo_root/node_modules" ]]; then
    mkdir -p "$repo_root/node_modules/.cache/pulumi-engine" &&
      printf '%s\n' "$1" >"$repo_root/node_modules/.cache/pulumi-engine/bin-dir" || true
  fi
  printf '%s\n' "$1"
}

# Every executable of a complete engine, from the one list scripts/pulumiEnv.ts reads too.
mapfile -t ENGINE_EXECUTABLES < <(grep -Ev '^[[:space:]]*(#|$)' "$repo_root/scripts/engine-executables.txt")
[[ ${#ENGINE_EXECUTABLES[@]} -gt 0 ]] || die "scripts/engine-executables.txt lists no executable"

# The pieces this run ensures: all of them, or the CLI and those named by --only.
WANTED_EXECUTABLES=("${ENGINE_EXECUTABLES[@]}")
if [[ $# -gt 0 ]]; then
  [[ $# -eq 2 && "$1" == "--only" && -n "$2" ]] ||
    die "usage: $(basename "$0") [--only <executable>,<executable>...] (got: $*)"
  WANTED_EXECUTABLES=(pulumi)
  IFS=, read -r -a only_pieces <<<"$2"
  for piece in "${only_pieces[@]}"; do
    [[ " ${ENGINE_EXECUTABLES[*]} " == *" $piece "* ]] ||
      die "--only: '$piece' is not a piece of the engine; the pieces are: ${ENGINE_EXECUTABLES[*]}"
    [[ "$piece" == pulumi ]] || WANTED_EXECUTABLES+=("$piece")
  done
fi

missing_pieces() {
  local exe
  for exe in "${WANTED_EXECUTABLES[@]}"; do [[ -x "$1/$exe" ]] || printf '%s\n' "$exe"; done
}

# The pinned version of a piece whose version the cache directory's name (<cli>-<langhost>) does not
# say; fails for the others.
unkeyed_piece_version() {
  case "$1" in
    pulumi-language-yaml) printf '%s\n' "$YAML_LANGHOST_VERSION" ;;
    pulumi-language-go) printf '%s\n' "$GO_LANGHOST_VERSION" ;;
    pulumi-language-java | pulumi-java-gen) printf '%s\n' "$JAVA_VERSION" ;;
    *) return 1 ;;
  esac
}

# What a cached engine directory lacks: missing executables, and unkeyed pieces whose stamp
# (versions/<piece>, written when the piece is built) names another version or is absent.
pieces_to_build() {
  local exe wanted
  missing_pieces "$1/bin"
  for exe in "${WANTED_EXECUTABLES[@]}"; do
    wanted="$(unkeyed_piece_version "$exe")" || continue
    if [[ -x "$1/bin/$exe" && "$(cat "$1/versions/$exe" 2>/dev/null)" != "$wanted" ]]; then
      printf '%s\n' "$exe"
    fi
  done
}

# 1. A compatible pulumi already on PATH.
if [[ "${PULUMI_ENGINE_FORCE_BUILD:-}" != 1 ]] && path_cli="$(command -v pulumi 2>/dev/null)"; then
  path_cli_version="$(PULUMI_HOME="$probe_home" pulumi version 2>/dev/null | tr -d '[:space:]' || true)"
  path_bin_dir="$(cd "$(dirname "$path_cli")" && pwd)"
  if [[ "$path_cli_version" == "v$cli_version" ]]; then
    if [[ -z "$(missing_pieces "$path_bin_dir")" ]]; then
      [[ "$path_bin_dir" == "$engine_dir/bin" ]] || log "using pulumi $path_cli_version from PATH ($path_bin_dir)"
      publish "$path_bin_dir"
      exit 0
    fi
    [[ "$path_bin_dir" == "$engine_dir/bin" ]] ||
      log "pulumi $path_cli_version on PATH lacks $(missing_pieces "$path_bin_dir" | tr '\n' ' ')beside it; ignoring it"
  elif [[ "$path_bin_dir" != "$engine_dir/bin" ]]; then
    log "pulumi on PATH is ${path_cli_version:-of unknown version}, need v$cli_version; ignoring it"
  fi
fi

# 2. The cache, complete.
if [[ "${PULUMI_ENGINE_FORCE_BUILD:-}" != 1 ]] && [[ -z "$(pieces_to_build "$engine_dir")" ]]; then
  publish "$engine_dir/bin"
  exit 0
fi

# 3. Build what is missing from Go modules.
if ! command -v go >/dev/null 2>&1; then
  die "no complete Pulumi engine v$cli_version found. Install either the Pulumi CLI v$cli_version (with its bundled language hosts and plugins) on PATH, or Go >= 1.25 (https://go.dev/dl/) so this script can build it from Go modules into $cache_root."
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build.lock"
if ! flock -n 9; then
  log "another process is building the engine; waiting for it"
  flock 9
fi
if [[ "${PULUMI_ENGINE_FORCE_BUILD:-}" != 1 ]] && [[ -z "$(pieces_to_build "$engine_dir")" ]]; then
  publish "$engine_dir/bin"
  exit 0
fi

tmp_dir="$(mktemp -d "$cache_root/.tmp-$cli_version-$LANGHOST_VERSION.XXXXXX")"
trap 'rm -rf "$tmp_dir"' EXIT
mkdir -p "$tmp_dir/engine/bin"
build_start=$SECONDS

# Builds one Go command from a module at a version, in a throwaway main module (the Pulumi modules' own
# replace directives forbid `go install pkg@version`). Args: label, package path, version, output file,
# the Go variable that holds the command's version (default: the Pulumi SDK's), and any replace directives
# (old=new@version) the module needs in the main module.
go_build() {
  local label="$1" pkg="$2" version="$3" out="$4"
  local version_var="${5:-github.com/pulumi/pulumi/sdk/v3/go/common/version.Version}"
  local replaces=("${@:6}")
  local work="$tmp_dir/$label" logf="$tmp_dir/$label.log"
  mkdir -p "$work"
  log "building $label v$version from Go modules ($pkg); log: $logf"
  (
    cd "$work"
    export GOFLAGS="-mod=mod -buildvcs=false" GOWORK=off GOTOOLCHAIN=local
    go mod init "engine-build/$label" &&
      for replace in "${replaces[@]}"; do go mod edit -replace "$replace" || exit 1; done &&
      go get "$pkg@v$version" &&
      go build \
        -ldflags "-s -w -X $version_var=v$version" \
        -o "$out" "$pkg"
  ) >"$logf" 2>&1 &
  local pid=$! start=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    sleep 5
    if (((SECONDS - start) % 60 < 5)) && ((SECONDS - start >= 60)); then
      log "  ... still building $label ($((SECONDS - start))s)"
    fi
  done
  if ! wait "$pid"; then
    tail -n 40 "$logf" >&2 || true
    die "building $label v$version failed (full log above was $logf)"
  fi
  log "built $label in $((SECONDS - start))s"
}

# The Python host runs programs through this script of the same module and version, found beside it.
# `go mod download` finds the module in Go's module cache (or fetches it, when only the script is missing).
copy_python_exec() {
  local module_dir script
  module_dir="$(cd "$tmp_dir" && GOFLAGS=-mod=mod GOWORK=off GOTOOLCHAIN=local \
    go mod download -json "github.com/pulumi/pulumi/sdk/v3@v$LANGHOST_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": *"\(.*\)",*$/\1/p')" || true
  script="$module_dir/python/cmd/pulumi-language-python-exec"
  [[ -n "$module_dir" && -f "$script" ]] ||
    die "the Python host's executor script is missing from github.com/pulumi/pulumi/sdk/v3@v$LANGHOST_VERSION ('$script')"
  cp "$script" "$1/pulumi-language-python-exec"
  chmod 0755 "$1/pulumi-language-python-exec"
}

# Start from what the cache already holds (unless forced): only the missing pieces are built.
mkdir -p "$tmp_dir/engine/versions"
if [[ "${PULUMI_ENGINE_FORCE_BUILD:-}" != 1 && -d "$engine_dir/bin" ]]; then
  cp -pR "$engine_dir/bin/." "$tmp_dir/engine/bin/"
  [[ ! -d "$engine_dir/versions" ]] || cp -pR "$engine_dir/versions/." "$tmp_dir/engine/versions/"
fi
missing="$(pieces_to_build "$tmp_dir/engine")"
cli_note=""
grep -qx pulumi <<<"$missing" && cli_note="(the CLI takes several minutes on 2 cores)"
log "engine for pulumi v$cli_version: building $(tr '\n' ' ' <<<"$missing")$cli_note"
bin="$tmp_dir/engine/bin"
needs() { grep -qx "$1" <<<"$missing"; }
needs pulumi-language-nodejs &&
  go_build pulumi-language-nodejs github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs \
    "$LANGHOST_VERSION" "$bin/pulumi-language-nodejs"
needs pulumi-language-python &&
  go_build pulumi-language-python github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python \
    "$LANGHOST_VERSION" "$bin/pulumi-language-python"
needs pulumi-language-python-exec && copy_python_exec "$bin"
if needs pulumi-language-yaml; then
  go_build pulumi-language-yaml github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml \
    "$YAML_LANGHOST_VERSION" "$bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/pkg/version.Version
  printf '%s\n' "$YAML_LANGHOST_VERSION" >"$tmp_dir/engine/versions/pulumi-language-yaml"
fi
if needs pulumi-language-go; then
  go_build pulumi-language-go github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go \
    "$GO_LANGHOST_VERSION" "$bin/pulumi-language-go"
  printf '%s\n' "$GO_LANGHOST_VERSION" >"$tmp_dir/engine/versions/pulumi-language-go"
fi
for java_exe in pulumi-language-java pulumi-java-gen; do
  if needs "$java_exe"; then
    go_build "$java_exe" "github.com/pulumi/pulumi-java/pkg/cmd/$java_exe" "$JAVA_VERSION" "$bin/$java_exe" \
      github.com/pulumi/pulumi-java/pkg/version.Version "${JAVA_REPLACES[@]}"
    printf '%s\n' "$JAVA_VERSION" >"$tmp_dir/engine/versions/$java_exe"
  fi
done
needs pulumi && go_build pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$cli_version" "$bin/pulumi"
needs pulumi-resource-pulumi-nodejs && write_dynamic_provider_plugin "$bin"
needs pulumi-analyzer-policy-nodejsshim && write_policy_pack_plugin "$bin"

built_version="$(PULUMI_HOME="$probe_home" "$bin/pulumi" version 2>/dev/null | tr -d '[:space:]' || true)"
[[ "$built_version" == "v$cli_version" ]] || die "built pulumi reports version '$built_version', expected v$cli_version"
[[ -z "$(pieces_to_build "$tmp_dir/engine")" ]] ||
  die "the engine still lacks $(pieces_to_build "$tmp_dir/engine" | tr '\n' ' ')"

# Atomic publish: rename the finished tree into place (replacing the older, incomplete one).
if [[ -e "$engine_dir" ]]; then
  mv "$engine_dir" "$tmp_dir/old"
fi
mv "$tmp_dir/engine" "$engine_dir"
log "engine ready in $engine_dir/bin (built in $((SECONDS - build_start))s)"
publish "$engine_dir/bin"
exit 0
}
