#!/usr/bin/env bash
# Install the real agent harnesses the harness tests drive, at pinned versions, into .harness/ (gitignored).
#
#   bash scripts/install-harnesses.sh          # installs if needed, prints the bin paths
#   HARNESS_PREFIX=/opt/h bash scripts/...      # another prefix
#
# Idempotent: when the pinned versions are already there it only prints the paths (no network).
# Versions: Codex and Pi as shared/recipes/real-harnesses.md records them; OpenCode as tested here.
set -euo pipefail
cd "$(dirname "$0")/.."

CODEX_VERSION="${CODEX_VERSION:-0.169.0}"
PI_VERSION="${PI_VERSION:-0.73.1}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"  # npm opencode-ai: a ~180 MB binary
prefix="${HARNESS_PREFIX:-$PWD/.harness}"

installed() {  # installed <package> <version>: the package.json under the prefix names that version
  local manifest="$prefix/node_modules/$1/package.json"
  [ -f "$manifest" ] && node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
    "$manifest" "$2"
}

command -v npm >/dev/null 2>&1 || { echo "install-harnesses: npm is missing (needs Node 20+ and npm)" >&2; exit 1; }

packages=("@openai/codex@$CODEX_VERSION" "@mariozechner/pi-coding-agent@$PI_VERSION" "opencode-ai@$OPENCODE_VERSION")
missing=0
for spec in "${packages[@]}"; do
  installed "${spec%@*}" "${spec##*@}" || missing=1
done
for bin in codex pi opencode; do
  [ -x "$prefix/node_modules/.bin/$bin" ] || missing=1
done

if [ "$missing" = 1 ]; then
  mkdir -p "$prefix"
  [ -f "$prefix/package.json" ] || echo '{"private": true}' > "$prefix/package.json"
  npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error --save-exact "${packages[@]}" >&2
fi

for bin in codex pi opencode; do
  path="$prefix/node_modules/.bin/$bin"
  [ -x "$path" ] || { echo "install-harnesses: $path is missing after install" >&2; exit 1; }
  echo "$bin=$path"
done
