#!/usr/bin/env bash
# Ensures Debian's Chromium for the console's browser tests (test/sandbox/console/) and prints the path of
# its executable. A browser build that downloads itself (playwright install) cannot work on a machine
# without internet, so the tests drive the distribution's package: `apt-get install chromium`, as
# root, or through `sudo -n` when that needs no password. One install at a time (flock), since the
# tests of several worktrees may ask at once. Prints a message on stderr and exits non-zero when
# Chromium cannot be installed: the browser tests then fail saying so, they never skip.
set -euo pipefail
{
CHROMIUM_BIN="${PORTFOLIO_WALLET_CHROMIUM:-/usr/bin/chromium}"
lock_dir="${XDG_CACHE_HOME:-$HOME/.cache}/portfolio-wallet-chromium"
log() { printf '[chromium] %s\n' "$*" >&2; }

works() { [[ -x "$CHROMIUM_BIN" ]] && "$CHROMIUM_BIN" --version >/dev/null 2>&1; }

if works; then
  printf '%s\n' "$CHROMIUM_BIN"
  exit 0
fi

if [[ "$(id -u)" -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  log "ERROR: Chromium is not installed at $CHROMIUM_BIN, and installing it needs root: run 'apt-get install -y chromium' as root (or set PORTFOLIO_WALLET_CHROMIUM to a Chromium executable)"
  exit 1
fi
command -v apt-get >/dev/null 2>&1 || {
  log "ERROR: Chromium is not installed at $CHROMIUM_BIN and this machine has no apt-get to install it with (set PORTFOLIO_WALLET_CHROMIUM to a Chromium executable)"
  exit 1
}

mkdir -p "$lock_dir"
exec 9>"$lock_dir/install.lock"
flock 9
# Another process may have installed it while this one waited for the lock.
if works; then
  printf '%s\n' "$CHROMIUM_BIN"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
log "installing Debian's chromium package (apt-get; a minute or two)"
if ! "${as_root[@]}" apt-get install -y --no-install-recommends chromium >&2; then
  log "the package index may be stale: apt-get update, then try again"
  "${as_root[@]}" apt-get update >&2 || log "apt-get update failed"
  "${as_root[@]}" apt-get install -y --no-install-recommends chromium >&2 || {
    log "ERROR: apt-get could not install chromium (see the apt-get output above)"
    exit 1
  }
fi
works || {
  log "ERROR: chromium was installed but $CHROMIUM_BIN --version does not run"
  exit 1
}
printf '%s\n' "$CHROMIUM_BIN"
exit 0
}
