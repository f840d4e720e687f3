#!/usr/bin/env bash
# Play company-gateway tasks with Pi, PARALLEL episodes at once. Per task: seed a session over MCP (every task,
# whatever its row's exposure: the company-mcp.ts extension gives Pi the company's MCP tools), run `pi -p` with
# that extension and this folder's models.json in a fresh agent folder for at most EPISODE_TIMEOUT_S seconds,
# verify, close.
# Prints "<task id><TAB><verify JSON>" per task ("timed_out": true added when the run was cut off), or
# "<task id><TAB>{"error": ...}" for an episode that could not run. When the extension cannot reach the company's
# MCP server, pi stops before the model is called and the line is masked: {"mask_sample": true, "failure_kind":
# "harness_mcp_failed", ...}, never a 0 against the model.
#
#   GATEWAY=http://127.0.0.1:8000 MODEL_API_KEY=... ./run-batch.sh cal-move-ops-sync dir-manager-of-owen
#
# Start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS equal to PARALLEL (README.md). Needs curl, node, pi,
# timeout (coreutils).
set -euo pipefail
PARALLEL="${PARALLEL:-4}"
export EPISODE_TIMEOUT_S="${EPISODE_TIMEOUT_S:-600}"  # longest one `pi -p` may run; then it is stopped and verified
export GATEWAY="${GATEWAY:-http://127.0.0.1:8000}" HERE="$(cd "$(dirname "$0")" && pwd)"
export RUNS_DIR="${RUNS_DIR:-$HOME/.company-gateway-runs}" PI_PROVIDER="${PI_PROVIDER:-company-model}"
export PI_MODEL="${PI_MODEL:-model-under-test}"
mkdir -p "$RUNS_DIR"
# The model's endpoint, probed when the harness times out or fails (MODEL_URL overrides it):
# the baseUrl of models.json's PI_PROVIDER.
export MODEL_URL="${MODEL_URL:-$(node -e 'const p = (require(process.argv[1]).providers || {})[process.argv[2]];
  process.stdout.write(String((p && p.baseUrl) || ""))' "$HERE/models.json" "$PI_PROVIDER")}"

# masked_if_model_unreachable TASK SID LOG: when MODEL_URL gives no HTTP answer at all (curl cannot resolve it,
# connect, or hear back within 10 s; any status code, 404 included, is an answer), print the episode's line masked
# with "failure_kind": "model_unreachable" and succeed: an infrastructure failure, never a 0 against the model.
# Otherwise print nothing and fail.
masked_if_model_unreachable() {
  local code=0
  [ -n "$MODEL_URL" ] || return 1
  curl -s -o /dev/null --max-time 10 "$MODEL_URL" || code=$?
  [ "$code" -ne 0 ] || return 1
  printf '%s\t%s\n' "$1" "$(node -e 'process.stdout.write(JSON.stringify({session_id: process.argv[1], reward: 0.0,
    checks: [], mask_sample: true, failure_kind: "model_unreachable", failure_reason: process.argv[2]}))' \
    "$2" "pi: no answer from the model at $MODEL_URL (curl exit $code); see $3")"
}
export -f masked_if_model_unreachable

episode() {
  local task=$1 seed home sid rc=0 renewer every
  # "exposure": "mcp" overrides the row's own (cli and http rows too): the extension's tools are the apps.
  if ! seed=$(curl -sS --fail-with-body "$GATEWAY/seed_session" -d "{\"task_id\": \"$task\", \"exposure\": \"mcp\"}"); then
    local none='{"error": "the gateway gave no answer to the seed"}'  # else its own {"error": ...}; no harness runs
    printf '%s\t%s\n' "$task" "${seed:-$none}"
    return 0
  fi
  field() { node -e 'let v = JSON.parse(process.argv[1]); for (const k of process.argv[2].split(".")) v = v[k];
                     process.stdout.write(String(v))' "$seed" "$1"; }
  sid=$(field session_id)
  # While the harness runs, renew the session's lease every third of it (a model turn may be slow). The loop ends
  # with this episode, or when this shell is gone: a killed batch leaves its sessions to the gateway's lease.
  renewer=""
  every=$(awk -v l="$(field lease_s)" 'BEGIN { if (l > 0) printf "%.3f", l / 3 }')
  if [ -n "$every" ]; then
    # Its own output goes nowhere (the episode's stdout must close when the episode ends); stopped, it stops its
    # sleep too.
    (trap 'kill "$nap" 2>/dev/null; exit 0' TERM
     while kill -0 $$ 2>/dev/null; do
       sleep "$every" & nap=$!
       wait "$nap"
       kill -0 $$ 2>/dev/null || break
       curl -sS -o /dev/null "$GATEWAY/renew_session" -d "{\"session_id\": \"$sid\"}" || true
     done) >/dev/null 2>&1 </dev/null &
    renewer=$!
  fi
  home=$(mktemp -d "$RUNS_DIR/pi-XXXXXX")
  cp "$HERE/models.json" "$home/models.json"
  # timeout stops pi and its children (SIGTERM, then SIGKILL 10 s later) and exits 124 (137 after SIGKILL).
  PI_CODING_AGENT_DIR="$home" PI_OFFLINE=1 COMPANY_MCP_URL="$(field mcp.url)" COMPANY_MCP_TOKEN="$(field token)" \
    COMPANY_MCP_SERVER="$(field mcp.server_name)" timeout -k 10 "$EPISODE_TIMEOUT_S" \
    pi --provider "$PI_PROVIDER" --model "$PI_MODEL" --no-session --no-builtin-tools -e "$HERE/company-mcp.ts" \
    -p "$(field instruction)" </dev/null >"$home/pi.log" 2>&1 || rc=$?
  case $rc in
    0) printf '%s\t%s\n' "$task" "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" ;;
    124 | 137)  # out of time is the model's score (verified as the world stands), unless the model
      # gave no answer at all: then it is masked
      masked_if_model_unreachable "$task" "$sid" "$home/pi.log" ||
      printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({...JSON.parse(process.argv[1]),
        timed_out: true, timeout_s: Number(process.argv[2])}))' \
        "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" "$EPISODE_TIMEOUT_S")" ;;
    # Without the company's tools (a refused token, the server down) company-mcp.ts fails to load and pi stops
    # before the model is called: the episode is masked, never a 0 against the model.
    *) if grep -q "cannot start the .* MCP server" "$home/pi.log"; then
      printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({session_id: process.argv[1],
      reward: 0.0, checks: [], mask_sample: true, failure_kind: "harness_mcp_failed", failure_reason: process.argv[2]}))' \
      "$sid" "pi: the company-mcp.ts extension could not list the MCP tools; see $home/pi.log")"
    # Any other non-zero exit is no score of the model either: masked when its endpoint gives no answer, else
    # reported as an error and not verified.
    elif masked_if_model_unreachable "$task" "$sid" "$home/pi.log"; then :
    else
      printf '%s\t{"error": "pi exited with status %s; see %s"}\n' "$task" "$rc" "$home/pi.log"
    fi ;;
  esac
  [ -z "$renewer" ] || kill "$renewer" 2>/dev/null || true
  curl -sS -o /dev/null "$GATEWAY/close_session" -d "{\"session_id\": \"$sid\"}"
}
export -f episode
printf '%s\n' "$@" | xargs -r -P "$PARALLEL" -I{} bash -c 'episode "$1"' _ {}
