#!/usr/bin/env bash
# Play company-gateway tasks with OpenCode, PARALLEL episodes at once. Per task: seed a session over MCP (every
# task, whatever its row's exposure: opencode.json gives OpenCode the company's MCP tools), run `opencode run`
# with this folder's opencode.json (the MCP url and token come from the environment), verify, close.
# Prints "<task id><TAB><verify JSON>" per task, or "<task id><TAB>{"error": ...}" for an episode that could not run.
# `opencode mcp list` is checked first, and OpenCode's log after: an episode without the company's tools is masked:
# {"mask_sample": true, "failure_kind": "harness_mcp_failed", ...}, never a 0 against the model.
#
#   GATEWAY=http://127.0.0.1:8000 MODEL_API_KEY=... ./run-batch.sh cal-move-ops-sync dir-manager-of-owen
#
# Start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS equal to PARALLEL (README.md). Needs curl, node, opencode.
set -euo pipefail
PARALLEL="${PARALLEL:-4}"
export GATEWAY="${GATEWAY:-http://127.0.0.1:8000}" HERE="$(cd "$(dirname "$0")" && pwd)"
export RUNS_DIR="${RUNS_DIR:-$HOME/.company-gateway-runs}"
mkdir -p "$RUNS_DIR"
# The model's endpoint, probed when the harness times out or fails (MODEL_URL overrides it):
# the baseURL of opencode.json's model provider.
export MODEL_URL="${MODEL_URL:-$(node -e 'const c = require(process.argv[1]);
  const p = (c.provider || {})[String(c.model).split("/")[0]]; process.stdout.write(String((p && p.options && p.options.baseURL) || ""))' "$HERE/opencode.json")}"

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
    "$2" "opencode: no answer from the model at $MODEL_URL (curl exit $code); see $3")"
}
export -f masked_if_model_unreachable

episode() {
  local task=$1 seed home sid ok=1 tools=1 renewer every
  # "exposure": "mcp" overrides the row's own (cli and http rows too), so the tools match opencode.json.
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
  home=$(mktemp -d "$RUNS_DIR/opencode-XXXXXX")
  export OPENCODE_CONFIG="$HERE/opencode.json" OPENCODE_DISABLE_MODELS_FETCH=1 OPENCODE_DISABLE_AUTOUPDATE=1 \
    COMPANY_MCP_URL="$(field mcp.url)" COMPANY_MCP_TOKEN="$(field token)"
  # Before the episode: `opencode mcp list` shows the server "connected" or "failed" (colours stripped).
  (cd "$home" && timeout 120 opencode mcp list) 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >"$home/mcp-list.log" || true
  if grep -qE "company +connected" "$home/mcp-list.log"; then
    opencode run --print-logs --log-level WARN --dir "$home" "$(field instruction)" </dev/null >"$home/opencode.log" 2>&1 || ok=0
  else
    echo 'message="server unavailable" (opencode mcp list)' >"$home/opencode.log"
  fi
  grep -q 'message="server unavailable"' "$home/opencode.log" && tools=0
  if [ "$tools" = 0 ]; then
    printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({session_id: process.argv[1],
    reward: 0.0, checks: [], mask_sample: true, failure_kind: "harness_mcp_failed", failure_reason: process.argv[2]}))' \
    "$sid" "opencode: MCP server unavailable; see $home/mcp-list.log and $home/opencode.log")"
  elif [ "$ok" = 1 ]; then
    printf '%s\t%s\n' "$task" "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")"
  elif ! masked_if_model_unreachable "$task" "$sid" "$home/opencode.log"; then  # a model with no answer at all is masked
    printf '%s\t{"error": "opencode exited non-zero; see %s"}\n' "$task" "$home/opencode.log"
  fi
  [ -z "$renewer" ] || kill "$renewer" 2>/dev/null || true
  curl -sS -o /dev/null "$GATEWAY/close_session" -d "{\"session_id\": \"$sid\"}"
}
export -f episode
printf '%s\n' "$@" | xargs -r -P "$PARALLEL" -I{} bash -c 'episode "$1"' _ {}
