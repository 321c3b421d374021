#!/usr/bin/env bash
# Ensures a Python virtual environment with exactly the packages of a requirements file, cached in
# ${XDG_CACHE_HOME:-~/.cache}/portfolio-wallet-pulumi/python/<file name>-<hash of the file>, and prints its
# path (and nothing else on stdout). Usage: scripts/ensure-python-env.sh scripts/python/<name>.txt
# The first run installs from PyPI; later runs find it in the cache. A venv cannot be moved (its scripts
# name their own path), so it is made in place, under a lock, and marked complete only at the end.
set -euo pipefail
{
log() { printf '[python-env] %s\n' "$*" >&2; }
die() {
  printf '[python-env] ERROR: %s\n' "$*" >&2
  exit 1
}

requirements="${1:-}"
[[ -f "$requirements" ]] || die "usage: $0 <requirements file> (got '${requirements}')"
python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 || die "no $python on PATH: install Python 3.11 (or set PYTHON)"

name="$(basename "$requirements" .txt)"
hash="$( (cat "$requirements"; "$python" --version) | sha256sum | cut -c1-16)"
cache_root="${PYTHON_ENV_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/portfolio-wallet-pulumi/python}"
venv="$cache_root/$name-$hash"

if [[ -f "$venv/.complete" ]]; then
  printf '%s\n' "$venv"
  exit 0
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.$name.lock"
flock 9
if [[ ! -f "$venv/.complete" ]]; then
  rm -rf "$venv"
  log "creating $venv from $requirements"
  "$python" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2 ||
    die "pip could not install $requirements into $venv"
  touch "$venv/.complete"
fi
printf '%s\n' "$venv"
exit 0
}
