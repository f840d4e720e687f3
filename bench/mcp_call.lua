-- wrk script: POST one tool call per request, as an MCP tools/call (stateless JSON mode) or, with API_PATH
-- set, as the company API's HTTP exposure (POST /api/<app>/<action>, the arguments as the body).
--
-- Environment: MCP_TOKEN (bearer token), MCP_TOOL (tool name), MCP_ARGS (JSON object of arguments),
-- API_PATH (e.g. /api/directory/get_person; unset: MCP at /mcp).
-- Counts non-2xx answers and (MCP) 2xx answers without a successful result; `done` prints one line
-- "WRK_JSON {...}" with latency percentiles (microseconds), requests, duration and the counts.

local token = os.getenv("MCP_TOKEN") or "none"
local tool = os.getenv("MCP_TOOL") or "company_directory_get_person"
local args = os.getenv("MCP_ARGS") or "{}"
local api_path = os.getenv("API_PATH")

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
if api_path then
  wrk.path = api_path
  wrk.body = args
else
  wrk.path = "/mcp"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.body = string.format(
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":%s}}', tool, args)
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(_)
  responses = 0
  non2xx = 0
  noresult = 0
end

function response(status, _, body)
  responses = responses + 1
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
  elseif not api_path and (not string.find(body, '"result"', 1, true) or string.find(body, '"isError":true', 1, true)) then
    noresult = noresult + 1
  end
end

function done(summary, latency, _)
  local total, bad_status, bad_body = 0, 0, 0
  for _, t in ipairs(threads) do
    total = total + t:get("responses")
    bad_status = bad_status + t:get("non2xx")
    bad_body = bad_body + t:get("noresult")
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"responses":%d,"non2xx":%d,"no_result":%d,' ..
    '"socket_errors":%d,"timeouts":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"mean_us":%.1f,"max_us":%d}\n',
    summary.requests, summary.duration, total, bad_status, bad_body,
    e.connect + e.read + e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean, latency.max))
end
