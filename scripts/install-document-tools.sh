#!/usr/bin/env bash
# Install the sandboxes' document tools: a Python venv on the system's /usr/bin/python3 holding openpyxl,
# python-docx and pypdf (pinned), for document work in the shell (reading and writing .xlsx, .docx, .pdf).
#
#   bash scripts/install-document-tools.sh       # installs if needed, prints the venv's folder
#   DOCUMENT_TOOLS=/opt/x bash scripts/...       # another folder
#
# The venv lives outside the clone (default ~/.cache/office-tools/python; not ~/.cache/.../documents,
# which holds the default company's built documents). The local provider binds it read-only at /opt/tools in
# every sandbox, its bin/ on PATH after the app commands, so `python3` there imports the three packages;
# examples/images/build-local.sh copies it into the registry-free image. Inside a sandbox only /opt/tools is
# seen, so the venv holds no host path: no activate scripts, no pip, pyvenv.cfg without its `command` line,
# and its bytecode compiled for /opt/tools (unchecked-hash .pyc: valid whatever the files' times).
# Built on /usr/bin/python3 because sandboxes see the host's /usr; the packages come from the project's own
# pip (the same CPython minor version, so the same wheels).
# Idempotent: when the venv already holds the pinned versions it only prints its folder (no network).
# Cost: cold ~10 s with the wheels in pip's cache (~25 MB, most of it lxml); warm ~0.2 s.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${DOCUMENT_TOOLS:-$HOME/.cache/office-tools/python}"
pip="${PIP:-.venv/bin/pip}"
base="${SANDBOX_PYTHON:-/usr/bin/python3}"
pins=(openpyxl==3.1.5 python-docx==1.2.0 pypdf==7.1.1)
stamp="$(printf '%s\n' "${pins[@]}" | sha256sum | cut -c1-12)"

if [ -f "$venv/.pins-$stamp" ] && [ -x "$venv/bin/python3" ]; then
  echo "$venv"
  exit 0
fi
version="$("$base" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
if [ "$("$pip" --version | sed -E 's/.*\(python ([0-9]+\.[0-9]+)\)$/\1/')" != "$version" ]; then
  echo "install-document-tools: $pip is not for Python $version ($base); set PIP to a pip of that version" >&2
  exit 1
fi
rm -rf "$venv"
mkdir -p "$(dirname "$venv")"
"$base" -m venv --without-pip "$venv"
site="$venv/lib/python$version/site-packages"
"$pip" install -q --disable-pip-version-check --no-compile --target "$site" "${pins[@]}"
rm -f "$venv"/bin/activate* "$venv"/bin/Activate.ps1
rm -rf "$site"/bin
sed -i '/^command = /d' "$venv/pyvenv.cfg"
"$base" -m compileall -q -j 0 --invalidation-mode unchecked-hash -s "$venv" -p /opt/tools "$site"
touch "$venv/.pins-$stamp"
echo "$venv"
