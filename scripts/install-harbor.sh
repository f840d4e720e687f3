#!/usr/bin/env bash
# Install Harbor (PyPI `harbor`, pinned) into a venv of its own on CPython 3.12, for tests/frameworks/test_harbor.py
# and examples/harbor.
#
#   bash scripts/install-harbor.sh            # installs if needed, prints harbor=<path of the harbor command>
#   HARBOR_VENV=/opt/harbor bash scripts/...  # another folder
#
# Idempotent: when the venv already holds the pinned version it only prints the path (no network).
# The venv lives outside the clone (default ~/.cache/company-gateway/harbor-<version>), so a second CI run on the
# same machine reuses it.
# Why a venv of its own: Harbor needs Python >= 3.12 and this project runs on 3.11; the two never share a venv (the
# adapter that `company-gateway harbor-export` writes imports Harbor only, and talks to the gateway over HTTP).
# Python: pyenv's newest 3.12 when pyenv has one (these machines ship CPython 3.12 there), else python3.12 on PATH.
# No podman-compose: the exported tasks run in the gateway's own sandboxes, not in Harbor's docker/podman
# environments, so Harbor needs no compose frontend.
set -euo pipefail

HARBOR_VERSION="${HARBOR_VERSION:-0.25.0}"
venv="${HARBOR_VENV:-$HOME/.cache/company-gateway/harbor-$HARBOR_VERSION}"

have() {  # the venv holds the pinned harbor and its command
  [ -x "$venv/bin/harbor" ] && "$venv/bin/python" -c \
    'import importlib.metadata as m, sys; sys.exit(m.version("harbor") != sys.argv[1])' "$HARBOR_VERSION" 2>/dev/null
}

if ! have; then
  python=""
  if command -v pyenv >/dev/null 2>&1; then
    version="$(pyenv versions --bare 2>/dev/null | grep -E '^3\.12\.[0-9]+$' | sort -V | tail -n 1 || true)"
    [ -n "$version" ] && python="$(pyenv root)/versions/$version/bin/python3"
  fi
  if [ -z "$python" ] && command -v python3.12 >/dev/null 2>&1; then
    python="$(command -v python3.12)"
  fi
  if [ -z "$python" ] || [ ! -x "$python" ]; then
    echo "install-harbor: no CPython 3.12 (neither in pyenv nor python3.12 on PATH); Harbor needs Python >= 3.12" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "harbor==$HARBOR_VERSION" >&2
  have || { echo "install-harbor: $venv/bin/harbor is missing after install" >&2; exit 1; }
fi
echo "harbor=$venv/bin/harbor"
