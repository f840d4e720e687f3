#!/usr/bin/env bash
# Play company-gateway tasks with Pi, PARALLEL episodes at once. Per task: seed a session, run `pi -p` with the
# company-mcp.ts extension and this folder's models.json in a fresh agent folder, verify, close.
# Prints "<task id><TAB><verify JSON>" per task, or "<task id><TAB>{"error": ...}" for an episode that could not run.
#
#   GATEWAY=http://127.0.0.1:8000 MODEL_API_KEY=... ./run-batch.sh cal-move-ops-sync dir-manager-of-owen
#
# Start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS equal to PARALLEL (README.md). Needs curl, node, pi.
set -euo pipefail
PARALLEL="${PARALLEL:-4}"
export GATEWAY="${GATEWAY:-http://127.0.0.1:8000}" HERE="$(cd "$(dirname "$0")" && pwd)"
export RUNS_DIR="${RUNS_DIR:-$HOME/.company-gateway-runs}" PI_PROVIDER="${PI_PROVIDER:-company-model}"
export PI_MODEL="${PI_MODEL:-model-under-test}"
mkdir -p "$RUNS_DIR"

episode() {
  local task=$1 seed home sid
  seed=$(curl -sS --fail-with-body "$GATEWAY/seed_session" -d "{\"task_id\": \"$task\"}")
  field() { node -e 'let v = JSON.parse(process.argv[1]); for (const k of process.argv[2].split(".")) v = v[k];
                     process.stdout.write(String(v))' "$seed" "$1"; }
  sid=$(field session_id)
  home=$(mktemp -d "$RUNS_DIR/pi-XXXXXX")
  cp "$HERE/models.json" "$home/models.json"
  # A non-zero exit (a refused token, the model's endpoint down) is no score of the model: not verified.
  if PI_CODING_AGENT_DIR="$home" PI_OFFLINE=1 COMPANY_MCP_URL="$(field mcp.url)" COMPANY_MCP_TOKEN="$(field token)" \
      COMPANY_MCP_SERVER="$(field mcp.server_name)" pi --provider "$PI_PROVIDER" --model "$PI_MODEL" --no-session \
      --no-builtin-tools -e "$HERE/company-mcp.ts" -p "$(field instruction)" </dev/null >"$home/pi.log" 2>&1; then
    printf '%s\t%s\n' "$task" "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")"
  else
    printf '%s\t{"error": "pi exited with an error; see %s"}\n' "$task" "$home/pi.log"
  fi
  curl -sS -o /dev/null "$GATEWAY/close_session" -d "{\"session_id\": \"$sid\"}"
}
export -f episode
printf '%s\n' "$@" | xargs -r -P "$PARALLEL" -I{} bash -c 'episode "$1"' _ {}
