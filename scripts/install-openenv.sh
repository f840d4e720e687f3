#!/usr/bin/env bash
# Install OpenEnv (PyPI `openenv`, pinned) into a venv of its own on CPython 3.11, for tests/frameworks/test_openenv.py
# and examples/openenv.
#
#   bash scripts/install-openenv.sh             # installs if needed; prints python=<the venv's python>
#   OPENENV_VENV=/opt/openenv bash scripts/...   # another folder
#
# Idempotent: when the venv already holds the pinned version it only prints the path (no network).
# The venv lives outside the clone (default ~/.cache/company-gateway/openenv-<version>), so a second run on the same
# machine reuses it. Cold: ~480 MB in the venv (gradio, fastmcp, huggingface_hub), ~3 min here with other installs
# running; warm: ~0.2 s.
# The environment package (examples/openenv/company_gateway_openenv) is not installed here: the tests put this
# checkout's copy on PYTHONPATH, and a user installs it with `pip install examples/openenv/company_gateway_openenv`.
# Why a venv of its own: openenv pins fastmcp<4 and gradio; it talks to the gateway over HTTP only.
set -euo pipefail

OPENENV_VERSION="${OPENENV_VERSION:-0.10.0}"
venv="${OPENENV_VENV:-$HOME/.cache/company-gateway/openenv-$OPENENV_VERSION}"

have() {  # the venv holds the pinned openenv
  [ -x "$venv/bin/python" ] && "$venv/bin/python" -c \
    'import importlib.metadata as m, sys; sys.exit(m.version("openenv") != sys.argv[1])' "$OPENENV_VERSION" 2>/dev/null
}

if ! have; then
  python="$(command -v python3.11 || true)"
  if [ -z "$python" ]; then
    echo "install-openenv: no python3.11 on PATH" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "openenv==$OPENENV_VERSION" >&2
  have || { echo "install-openenv: openenv $OPENENV_VERSION is missing from $venv after install" >&2; exit 1; }
fi
echo "python=$venv/bin/python"
