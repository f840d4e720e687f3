#!/usr/bin/env bash
# Play company-gateway tasks with Claude Code, PARALLEL episodes at once. Per task: seed a session over MCP (every
# task, whatever its row's exposure: mcp.json gives Claude Code the company's MCP tools), run `claude -p` with that
# mcp.json and no built-in tools in a fresh CLAUDE_CONFIG_DIR for at most EPISODE_TIMEOUT_S seconds, verify, close.
# Prints "<task id><TAB><verify JSON>" per task ("timed_out": true added when the run was cut off), or
# "<task id><TAB>{"error": ...}" for an episode that could not run.
# Claude Code starts without a server it cannot reach (exit 0, no tools). The first event of its stream-json
# output lists each MCP server's status; when "company" is not "connected" the episode is not verified: its line
# is masked, {"mask_sample": true, "failure_kind": "harness_mcp_failed", ...}, and never a 0 against the model.
#
#   GATEWAY=http://127.0.0.1:8000 ANTHROPIC_BASE_URL=... MODEL_API_KEY=... ./run-batch.sh cal-move-ops-sync
#
# Start the gateway with GATEWAY_MAX_CONCURRENT_SESSIONS equal to PARALLEL (README.md). Needs curl, node, claude,
# timeout (coreutils).
set -euo pipefail
PARALLEL="${PARALLEL:-4}"
export EPISODE_TIMEOUT_S="${EPISODE_TIMEOUT_S:-600}"  # longest one `claude -p` may run; then it is stopped and verified
export GATEWAY="${GATEWAY:-http://127.0.0.1:8000}" HERE="$(cd "$(dirname "$0")" && pwd)"
export RUNS_DIR="${RUNS_DIR:-$HOME/.company-gateway-runs}" CLAUDE_MODEL="${CLAUDE_MODEL:-}"
mkdir -p "$RUNS_DIR"
# The model's endpoint, probed when the harness times out or fails (MODEL_URL overrides it):
# ANTHROPIC_BASE_URL, else Anthropic's API.
export MODEL_URL="${MODEL_URL:-${ANTHROPIC_BASE_URL:-https://api.anthropic.com}}"

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
    "$2" "claude: no answer from the model at $MODEL_URL (curl exit $code); see $3")"
}
export -f masked_if_model_unreachable

episode() {
  local task=$1 seed home sid status rc=0 renewer every
  # "exposure": "mcp" overrides the row's own (cli and http rows too), so the tools match mcp.json.
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
  home=$(mktemp -d "$RUNS_DIR/claude-XXXXXX")
  mkdir "$home/work"
  # mcp.json reads COMPANY_MCP_URL and COMPANY_MCP_TOKEN. ENABLE_TOOL_SEARCH=false offers the MCP tools to the
  # model directly (else behind a tool-search tool); --allowedTools mcp__<server> runs them without prompts;
  # --tools "" leaves out the built-in ones (shell, files, web). Your model's key goes in ANTHROPIC_API_KEY.
  (cd "$home/work" && CLAUDE_CONFIG_DIR="$home/config" ANTHROPIC_API_KEY="${ANTHROPIC_API_KEY:-${MODEL_API_KEY:-}}" \
    ENABLE_TOOL_SEARCH=false DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    COMPANY_MCP_URL="$(field mcp.url)" COMPANY_MCP_TOKEN="$(field token)" timeout -k 10 "$EPISODE_TIMEOUT_S" \
    claude -p "$(field instruction)" ${CLAUDE_MODEL:+--model "$CLAUDE_MODEL"} --mcp-config "$HERE/mcp.json" \
    --strict-mcp-config --tools "" --allowedTools "mcp__$(field mcp.server_name)" --output-format stream-json \
    --verbose </dev/null >"$home/claude.jsonl" 2>"$home/claude.log") || rc=$?
  # The init event: {"type": "system", "subtype": "init", "mcp_servers": [{"name", "status"}], ...}.
  status=$(node -e 'const fs = require("fs"); let s = "no init event";
    for (const line of fs.readFileSync(process.argv[1], "utf8").split("\n")) {
      let e; try { e = JSON.parse(line); } catch { continue; }
      if (e.type === "system" && e.subtype === "init") {
        const m = (e.mcp_servers || []).find((x) => x.name === process.argv[2]); s = m ? m.status : "not listed"; break; } }
    process.stdout.write(s)' "$home/claude.jsonl" "$(field mcp.server_name)")
  if [ "$status" != connected ]; then
    printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({session_id: process.argv[1],
      reward: 0.0, checks: [], mask_sample: true, failure_kind: "harness_mcp_failed",
      failure_reason: `claude: MCP server ${process.argv[2]} status ${process.argv[3]}; see ${process.argv[4]}`}))' \
      "$sid" "$(field mcp.server_name)" "$status" "$home/claude.jsonl")"
  else
    case $rc in
      0) printf '%s\t%s\n' "$task" "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" ;;
      124 | 137)  # out of time is the model's score (verified as the world stands), unless the model
        # gave no answer at all: then it is masked
        masked_if_model_unreachable "$task" "$sid" "$home/claude.jsonl" ||
        printf '%s\t%s\n' "$task" "$(node -e 'process.stdout.write(JSON.stringify({...JSON.parse(process.argv[1]),
          timed_out: true, timeout_s: Number(process.argv[2])}))' \
          "$(curl -sS "$GATEWAY/verify" -d "{\"session_id\": \"$sid\"}")" "$EPISODE_TIMEOUT_S")" ;;
      # Any other non-zero exit (the model down) is no score of the model: masked when
      # the model gives no answer at all, else not verified.
      *) masked_if_model_unreachable "$task" "$sid" "$home/claude.jsonl" ||
         printf '%s\t{"error": "claude exited with status %s; see %s"}\n' "$task" "$rc" "$home/claude.log" ;;
    esac
  fi
  [ -z "$renewer" ] || kill "$renewer" 2>/dev/null || true
  curl -sS -o /dev/null "$GATEWAY/close_session" -d "{\"session_id\": \"$sid\"}"
}
export -f episode
printf '%s\n' "$@" | xargs -r -P "$PARALLEL" -I{} bash -c 'episode "$1"' _ {}
