#!/usr/bin/env bash
# Play company-gateway tasks with Codex CLI, PARALLEL episodes at once. Per task: seed a session over MCP (every
# task, whatever its row's exposure: this config gives Codex the company's MCP tools), run `codex exec` with this
# folder's config.toml in a fresh CODEX_HOME for at most EPISODE_TIMEOUT_S seconds, verify, close.
# Prints "<task id><TAB><verify JSON>" per task ("timed_out": true added when the run was cut off), or
# "<task id><TAB>{"error": ...}" for an episode that could not run. When codex cannot reach the company's MCP
# server (config.toml's `required = true` stops it before the model is called), the line is masked:
# {"mask_sample": true, "failure_kind": "harness_mcp_failed", ...}, never a 0 against the model.
#
#   GATEWAY=http://127.0.0.1:8000 MODEL_API_KEY=... ./run-batch.sh cal-move-ops-sync dir-manager-of-owen
#
# Start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS equal to PARALLEL (README.md). Needs curl, node, codex,
# timeout (coreutils).
set -euo pipefail
PARALLEL="${PARALLEL:-4}"
export EPISODE_TIMEOUT_S="${EPISODE_TIMEOUT_S:-600}"  # longest one `codex exec` may run; then it is stopped and verified
export GATEWAY="${GATEWAY:-http://127.0.0.1:8000}" HERE="$(cd "$(dirname "$0")" && pwd)"
export RUNS_DIR="${RUNS_DIR:-$HOME/.company-gateway-runs}"  # CODEX_HOMEs live here: outside /tmp (config-cli.toml)
mkdir -p "$RUNS_DIR"
# The model's endpoint, probed when the harness times out or fails (MODEL_URL overrides it):
# config.toml's base_url.
export MODEL_URL="${MODEL_URL:-$(sed -n 's/^base_url = "\([^"]*\)".*/\1/p' "$HERE/config.toml" | head -n 1)}"

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
    "$2" "codex: no answer from the model at $MODEL_URL (curl exit $code); see $3")"
}
export -f masked_if_model_unreachable

episode() {
  local task=$1 seed home sid rc=0 renewer every
  # "exposure": "mcp" overrides the row's own (cli and http rows too), so the tools match config.toml.
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
  home=$(mktemp -d "$RUNS_DIR/codex-XXXXXX")
  cp "$HERE/config.toml" "$home/config.toml"
  # timeout stops codex and its children (SIGTERM, then SIGKILL 10 s later) and exits 124 (137 after SIGKILL).
  CODEX_HOME="$home" COMPANY_MCP_TOKEN="$(field token)" timeout -k 10 "$EPISODE_TIMEOUT_S" \
    codex exec --skip-git-repo-check --ephemeral -c "mcp_servers.$(field mcp.server_name).url=\"$(field mcp.url)\"" \
    "$(field instruction)" </dev/null >"$home/codex.log" 2>&1 || rc=$?
  case $rc in
    0) printf '%s\t%s\n' "$task" "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" ;;
    124 | 137)  # out of time is the model's score (verified as the world stands), unless the model
      # gave no answer at all: then it is masked
      masked_if_model_unreachable "$task" "$sid" "$home/codex.log" ||
      printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({...JSON.parse(process.argv[1]),
        timed_out: true, timeout_s: Number(process.argv[2])}))' \
        "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" "$EPISODE_TIMEOUT_S")" ;;
    # Without the company's tools (a refused token, the server down) `required = true` stops codex before the
    # model is called: the episode is masked, never a 0 against the model.
    *) if grep -q "required MCP servers failed to initialize" "$home/codex.log"; then
      printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({session_id: process.argv[1],
      reward: 0.0, checks: [], mask_sample: true, failure_kind: "harness_mcp_failed", failure_reason: process.argv[2]}))' \
      "$sid" "codex: required MCP servers failed to initialize; see $home/codex.log")"
    # Any other non-zero exit is no score of the model either: masked when its endpoint gives no answer, else
    # reported as an error and not verified.
    elif masked_if_model_unreachable "$task" "$sid" "$home/codex.log"; then :
    else
      printf '%s\t{"error": "codex exited with status %s; see %s"}\n' "$task" "$rc" "$home/codex.log"
    fi ;;
  esac
  [ -z "$renewer" ] || kill "$renewer" 2>/dev/null || true
  curl -sS -o /dev/null "$GATEWAY/close_session" -d "{\"session_id\": \"$sid\"}"
}
export -f episode
printf '%s\n' "$@" | xargs -r -P "$PARALLEL" -I{} bash -c 'episode "$1"' _ {}
