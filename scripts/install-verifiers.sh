#!/usr/bin/env bash
# Install verifiers (PyPI `verifiers`, pinned) into a venv of its own on CPython 3.11, for
# tests/frameworks/test_verifiers.py and examples/verifiers.
#
#   bash scripts/install-verifiers.sh             # installs if needed; prints vf_eval=<path of vf-eval>
#   VERIFIERS_VENV=/opt/vf bash scripts/...        # another folder
#
# Idempotent: when the venv already holds the pinned version it only prints the path (no network).
# The venv lives outside the clone (default ~/.cache/company-gateway/verifiers-<version>), so a second run on the same
# machine reuses it. Cold: ~580 MB in the venv (transformers, numpy, the Prime SDKs), ~4 min here with other installs
# running; warm: ~0.3 s.
# The taskset package (examples/verifiers/company_gateway_env) is not installed here: the tests put this checkout's
# copy on PYTHONPATH, and a user installs it with `pip install examples/verifiers/company_gateway_env` (see its README).
# Why a venv of its own: verifiers pins mcp==2.0.0 and pulls transformers; it talks to the gateway over HTTP only.
# At its first run verifiers' `null` harness installs uv (`pip install --user uv`) and its chat program's own
# dependencies (uv, from PyPI) once per machine.
set -euo pipefail

VERIFIERS_VERSION="${VERIFIERS_VERSION:-0.4.0}"
venv="${VERIFIERS_VENV:-$HOME/.cache/company-gateway/verifiers-$VERIFIERS_VERSION}"

have() {  # the venv holds the pinned verifiers and its command
  [ -x "$venv/bin/vf-eval" ] && "$venv/bin/python" -c \
    'import importlib.metadata as m, sys; sys.exit(m.version("verifiers") != sys.argv[1])' "$VERIFIERS_VERSION" 2>/dev/null
}

if ! have; then
  python="$(command -v python3.11 || true)"
  if [ -z "$python" ]; then
    echo "install-verifiers: no python3.11 on PATH; verifiers $VERIFIERS_VERSION needs Python >= 3.11" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "verifiers==$VERIFIERS_VERSION" >&2
  have || { echo "install-verifiers: $venv/bin/vf-eval is missing after install" >&2; exit 1; }
fi
echo "vf_eval=$venv/bin/vf-eval"
