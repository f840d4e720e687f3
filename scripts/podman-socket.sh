#!/usr/bin/env bash
# Start podman's Docker-compatible API socket and print the DOCKER_HOST value for it.
#
# Usage: scripts/podman-socket.sh [NAME]        start (or reuse) unix:///tmp/NAME.sock, print DOCKER_HOST=...
#        scripts/podman-socket.sh --stop [NAME] stop the service this script started for NAME
#
# NAME defaults to "company-gateway-podman". Installs nothing: needs podman and runc (see
# .ci/run). State lives in /tmp/NAME.d/: containers.conf, service.pid, service.log.
#
# containers.conf holds the two settings podman needed on the machines this was tested on:
#   default_ulimits: podman's default nofile exceeds the hard limit here, so every
#                    container failed with "setrlimit RLIMIT_NOFILE: Operation not permitted";
#   runtime = "runc": crun fails with "cgroups in hybrid mode not supported".
set -euo pipefail

stop=0
if [ "${1:-}" = "--stop" ]; then
  stop=1
  shift
fi
name="${1:-company-gateway-podman}"
sock="/tmp/${name}.sock"
state="/tmp/${name}.d"
timeout_s="${PODMAN_SOCKET_TIMEOUT_S:-30}"

ping() {
  # The Engine API's health check: GET /_ping answers "OK".
  if command -v curl >/dev/null 2>&1; then
    [ "$(curl -s -m 2 --unix-socket "$sock" http://d/_ping 2>/dev/null)" = "OK" ]
  else
    python3 - "$sock" <<'PY' 2>/dev/null
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
s.connect(sys.argv[1])
s.sendall(b"GET /_ping HTTP/1.0\r\nHost: d\r\n\r\n")
data = b""
while chunk := s.recv(4096):
    data += chunk
sys.exit(0 if data.split(b"\r\n\r\n", 1)[-1] == b"OK" else 1)
PY
  fi
}

if [ "$stop" = 1 ]; then
  if [ -f "$state/service.pid" ]; then
    pid="$(cat "$state/service.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$state/service.pid"
  fi
  rm -f "$sock"
  exit 0
fi

if ping; then
  echo "DOCKER_HOST=unix://$sock"
  exit 0
fi

command -v podman >/dev/null 2>&1 || { echo "podman is not installed; see .ci/run for the packages" >&2; exit 1; }
command -v runc >/dev/null 2>&1 || { echo "runc is not installed; see .ci/run for the packages" >&2; exit 1; }

mkdir -p "$state"
cat >"$state/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]

[engine]
runtime = "runc"
CONF

rm -f "$sock"
# From /: the service outlives this script, and conmon fails every container start ("Failed to get working
# directory") once the folder it was started in is removed (a CI clone removed and cloned again).
cd /
# setsid + nohup: the service outlives this script and the shell that ran it.
CONTAINERS_CONF="$state/containers.conf" setsid nohup podman system service --time=0 "unix://$sock" \
  >"$state/service.log" 2>&1 </dev/null &
echo $! >"$state/service.pid"

deadline=$((SECONDS + timeout_s))
until ping; do
  if ! kill -0 "$(cat "$state/service.pid")" 2>/dev/null; then
    echo "podman system service exited; its log ($state/service.log):" >&2
    tail -n 20 "$state/service.log" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "podman socket $sock did not answer /_ping within ${timeout_s}s; log: $state/service.log" >&2
    exit 1
  fi
  sleep 0.1
done
echo "DOCKER_HOST=unix://$sock"
