#!/usr/bin/env bash
# Offline Pulumi environment for shells; the settings themselves live in scripts/pulumiEnv.ts.
#   source scripts/pulumi-env.sh          # sets PATH, PULUMI_HOME, PULUMI_BACKEND_URL, ... in this shell
#   scripts/pulumi-env.sh pulumi stack ls # runs one command with that environment
_pulumi_env_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_pulumi_env_exports="$(PATH="$_pulumi_env_repo/node_modules/.bin:$PATH" node "$_pulumi_env_repo/scripts/pulumiEnv.ts" --shell)" || {
  echo "pulumi-env.sh: could not compute the Pulumi environment (run npm ci, then npm run engine)" >&2
  # shellcheck disable=SC2317
  return 1 2>/dev/null || exit 1
}
eval "$_pulumi_env_exports"
unset _pulumi_env_repo _pulumi_env_exports

if [[ "${BASH_SOURCE[0]}" == "$0" && $# -gt 0 ]]; then
  exec "$@"
fi
