// The official TypeScript MCP SDK client (npm @modelcontextprotocol/sdk) against one URL with a bearer token.
//
//   MCP_SDK_NODE_MODULES=.harness/node_modules node sdk-client.mjs PLAN_JSON
//
// PLAN_JSON: {"url": ..., "token": ..., "steps": [{"tool": MCP tool name, "arguments": {...}, "save": {...}}]}.
// It connects, lists the tools, then calls the steps in order. A step's "save" maps a variable to a dotted
// path into its result (structuredContent, else the JSON of its text); "{var}" in later arguments is replaced
// by the saved value (a whole-string "{var}" keeps the value's type), like gateway/tasks.py's substitute().
// Prints one JSON object: {"server", "tools", "calls"}; on an error {"error": {name, message, code}}, exit 1.
import { createRequire } from "node:module";
import { join } from "node:path";

const sdk = createRequire(join(process.env.MCP_SDK_NODE_MODULES ?? "node_modules", "_"));
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StreamableHTTPClientTransport } = sdk("@modelcontextprotocol/sdk/client/streamableHttp.js");

const VAR = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function substitute(value, vars) {
  const lookup = (name) => {
    if (!(name in vars)) throw new Error(`step uses {${name}} before saving it`);
    return vars[name];
  };
  if (typeof value === "string") {
    const whole = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    return whole ? lookup(whole[1]) : value.replace(VAR, (_, name) => String(lookup(name)));
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}

function extract(result, path) {
  let cur = result;
  for (const part of path.split(".")) {
    cur = Array.isArray(cur) ? cur[Number(part)] : cur?.[part];
    if (cur === undefined) throw new Error(`result has no ${JSON.stringify(path)} (stopped at ${part})`);
  }
  return cur;
}

const plan = JSON.parse(process.argv[2]);
const client = new Client({ name: "company-gateway-tests", version: "1.0.0" });
const transport = new StreamableHTTPClientTransport(new URL(plan.url), {
  requestInit: { headers: { Authorization: `Bearer ${plan.token}` } },
});
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const vars = {};
  const calls = [];
  for (const step of plan.steps ?? []) {
    const args = substitute(step.arguments ?? {}, vars);
    const result = await client.callTool({ name: step.tool, arguments: args });
    calls.push({ tool: step.tool, arguments: args, result });
    if (result.isError) break;
    const data = result.structuredContent ?? JSON.parse(result.content.find((c) => c.type === "text").text);
    for (const [name, path] of Object.entries(step.save ?? {})) vars[name] = extract(data, path);
  }
  console.log(JSON.stringify({ server: client.getServerVersion(), tools, calls }));
  await client.close();
} catch (err) {
  console.log(JSON.stringify({ error: { name: err?.name, message: String(err?.message ?? err), code: err?.code } }));
  process.exitCode = 1;
  await client.close().catch(() => {});
}
