#!/usr/bin/env bash
# Install NeMo Gym (PyPI nemo-gym, pinned) into a venv of its own on CPython 3.13, for tests/frameworks/test_nemo_gym.py
# and examples/nemo-gym/. Gym never shares a venv with company-gateway: it pins mcp<2, this project needs mcp>=2.
#
#   bash scripts/install-gym.sh            # installs if needed; prints GYM_HOME=... and GYM_BIN=...
#   GYM_HOME=/opt/gym bash scripts/...      # another folder (default: ~/.cache/company-gateway/nemo-gym-<version>)
#
# Idempotent: when the pinned version is there it only prints the paths (no network). A cold install downloads
# ~1.4 GB of wheels (Ray, pyarrow, mlflow, scipy...) and takes about 3 minutes here; pip's cache makes a rebuild
# faster.
#
# Python: nemo-gym 0.7.0 declares Requires-Python >=3.13.14; the pyenv CPython 3.13 on these machines is 3.13.0, on
# which it runs, so it is installed with --ignore-requires-python. Debian 12 has no python3.13 package; set
# GYM_PYTHON to another CPython 3.13 interpreter to use it instead of pyenv's.
#
# Gym starts every server from a venv of its own (`uv venv` + `uv pip install` per server). To run them all from this
# one venv instead, it makes $GYM_HOME/server-venvs/<type>/<name>/.venv links to it for the servers the examples
# use; pass `uv_venv_dir=$GYM_HOME/server-venvs skip_venv_if_present=true` to `gym env start` (no uv needed).
set -euo pipefail

GYM_VERSION="${GYM_VERSION:-0.7.0}"
home="${GYM_HOME:-$HOME/.cache/company-gateway/nemo-gym-$GYM_VERSION}"
venv="$home/venv"
marker="$venv/.company-gateway-nemo-gym-$GYM_VERSION"

find_python() {
  if [ -n "${GYM_PYTHON:-}" ]; then echo "$GYM_PYTHON"; return; fi
  local root candidate
  if command -v pyenv >/dev/null 2>&1; then root="$(pyenv root)"; else root="${PYENV_ROOT:-$HOME/.pyenv}"; fi
  for candidate in $(ls -d "$root"/versions/3.13* 2>/dev/null | sort -V -r); do
    [ -x "$candidate/bin/python3" ] && { echo "$candidate/bin/python3"; return; }
  done
  command -v python3.13 2>/dev/null || true
}

if [ ! -f "$marker" ]; then
  python="$(find_python)"
  if [ -z "$python" ]; then
    echo "install-gym: no CPython 3.13 found (pyenv versions 3.13*, python3.13 on PATH, or GYM_PYTHON)" >&2
    exit 1
  fi
  rm -rf "$venv"
  mkdir -p "$home"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --ignore-requires-python \
    "nemo-gym==$GYM_VERSION" httpx >&2
  touch "$marker"
fi

# One venv for every server the configs name: the resources server, the agent, the model, both Environment Servers.
for server in resources_servers/company_gateway responses_api_agents/simple_agent \
              responses_api_agents/company_gateway_agent \
              responses_api_models/openai_model environment_servers/legacy_agent \
              environment_servers/single_agent_turn_legacy; do
  mkdir -p "$home/server-venvs/$server"
  ln -sfn "$venv" "$home/server-venvs/$server/.venv"
done

[ -x "$venv/bin/gym" ] || { echo "install-gym: $venv/bin/gym is missing after install" >&2; exit 1; }
echo "GYM_HOME=$home"
echo "GYM_BIN=$venv/bin"
