-- wrk script: POST one action per request to the company API's HTTP exposure (POST /api/<app>/<action>).
--
-- Environment: MCP_TOKEN (bearer token), API_PATH (e.g. /api/directory/get_person), MCP_ARGS (JSON object body).
-- Counts non-2xx answers; `done` prints one line "WRK_JSON {...}" in the shape mcp_call.lua prints.

local token = os.getenv("MCP_TOKEN") or "none"

wrk.method = "POST"
wrk.path = os.getenv("API_PATH") or "/api/directory/get_person"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
wrk.body = os.getenv("MCP_ARGS") or "{}"

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(_)
  responses = 0
  non2xx = 0
end

function response(status, _, _)
  responses = responses + 1
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  end
end

function done(summary, latency, _)
  local total, bad_status = 0, 0
  for _, t in ipairs(threads) do
    total = total + t:get("responses")
    bad_status = bad_status + t:get("non2xx")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"responses":%d,"non2xx":%d,"no_result":0,' ..
    '"socket_errors":%d,"timeouts":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d}\n',
    summary.requests, summary.duration, total, bad_status,
    e.connect + e.read + e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean, latency.max))
end
