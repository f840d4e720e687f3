#!/usr/bin/env bash
# Install TRL (PyPI `trl`, pinned) with torch (CPU build) and the OpenEnv client into a venv of its own on CPython 3.11,
# for tests/frameworks/test_trl.py and examples/openenv/trl_grpo.py.
#
#   bash scripts/install-trl.sh             # installs if needed; prints python=<the venv's python>
#   TRL_VENV=/opt/trl bash scripts/...       # another folder
#
# Idempotent: when the venv already holds the pinned versions it only prints the path (no network).
# The venv lives outside the clone (default ~/.cache/company-gateway/trl-<version>), once per machine.
# torch: `torch==2.13.0` on Python 3.11 takes the CPU wheel these machines keep on disk (pip's find-links, 192 MB
# wheel, ~0.9 GB installed); on a machine without it, pip takes PyPI's CUDA build of several GB. Measured here (2 cores,
# other installs running): first install ~7.5 min (torch + trl ~5.3 min, openenv ~2.3 min), 1.7 GB; from an empty
# venv with pip's cache warm 459 s; warm (already there): ~0.5 s.
set -euo pipefail

TRL_VERSION="${TRL_VERSION:-1.16.0}"
TORCH_VERSION="${TORCH_VERSION:-2.13.0}"
OPENENV_VERSION="${OPENENV_VERSION:-0.10.0}"
venv="${TRL_VENV:-$HOME/.cache/company-gateway/trl-$TRL_VERSION}"

have() {  # the venv holds the pinned trl, torch and openenv
  [ -x "$venv/bin/python" ] && "$venv/bin/python" - "$TRL_VERSION" "$TORCH_VERSION" "$OPENENV_VERSION" <<'PY' 2>/dev/null
import importlib.metadata as m, sys
trl, torch, openenv = sys.argv[1:]
sys.exit(not (m.version("trl") == trl and m.version("torch").split("+")[0] == torch and m.version("openenv") == openenv))
PY
}

if ! have; then
  python="$(command -v python3.11 || true)"
  if [ -z "$python" ]; then
    echo "install-trl: no python3.11 on PATH" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "torch==$TORCH_VERSION" "trl==$TRL_VERSION" \
    "openenv==$OPENENV_VERSION" >&2
  have || { echo "install-trl: trl $TRL_VERSION, torch $TORCH_VERSION or openenv is missing from $venv" >&2; exit 1; }
fi
echo "python=$venv/bin/python"
