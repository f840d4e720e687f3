// Pi extension: the company-gateway MCP tools as Pi tools (Pi has no MCP client of its own).
//   COMPANY_MCP_URL=<seed mcp.url> COMPANY_MCP_TOKEN=<seed token> pi -e company-mcp.ts -p "..." < /dev/null
// Speaks MCP streamable HTTP over fetch: initialize, tools/list, tools/call, with "Authorization: Bearer <token>".
// Like Codex's `required = true`: if the server cannot be reached or refuses the token, the extension fails to
// load, and `pi -p` exits with status 1 ("Failed to load extension ...") instead of running without the tools.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const SERVER = process.env.COMPANY_MCP_SERVER ?? "company"; // the seed response's mcp.server_name
const URL_ = process.env.COMPANY_MCP_URL ?? "";
const TOKEN = process.env.COMPANY_MCP_TOKEN ?? "";
let nextId = 1;
let protocolVersion = "2025-06-18";

async function rpc(method: string, params: object = {}, signal?: AbortSignal): Promise<any> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${TOKEN}`,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": protocolVersion,
  };
  const id = nextId++;
  const res = await fetch(URL_, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id, method, params }), signal });
  const text = await res.text();
  if (!res.ok) throw new Error(`${SERVER} MCP ${method}: HTTP ${res.status} ${text.slice(0, 300)}`);
  // JSON mode answers one object; SSE mode answers "data: {...}" lines, one of which carries our id.
  const bodies = res.headers.get("content-type")?.includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)))
    : [JSON.parse(text)];
  const reply = bodies.find((b) => b.id === id);
  if (!reply) throw new Error(`${SERVER} MCP ${method}: no reply in ${text.slice(0, 300)}`);
  if (reply.error) throw new Error(`${SERVER} MCP ${method}: ${reply.error.message}`);
  return reply.result;
}

export default async function (pi: ExtensionAPI) {
  let tools: any[];
  try {
    if (!URL_ || !TOKEN) throw new Error("COMPANY_MCP_URL and COMPANY_MCP_TOKEN must both be set");
    const init = await rpc("initialize", {
      protocolVersion, capabilities: {}, clientInfo: { name: "pi-company-mcp", version: "1.0.0" },
    });
    protocolVersion = init.protocolVersion ?? protocolVersion;
    tools = (await rpc("tools/list")).tools;
    if (!tools?.length) throw new Error("tools/list returned no tools");
  } catch (err) {
    throw new Error(`cannot start the ${SERVER} MCP server at ${URL_}: ${(err as Error).message}`);
  }
  for (const tool of tools) {
    pi.registerTool({
      name: tool.name,
      label: `${SERVER}: ${tool.name}`,
      description: tool.description ?? tool.name,
      parameters: tool.inputSchema, // Pi accepts raw JSON Schema
      async execute(_toolCallId: string, params: any, signal?: AbortSignal) {
        const result = await rpc("tools/call", { name: tool.name, arguments: params ?? {} }, signal);
        const text = (result.content ?? []).map((c: any) => c.text ?? "").join("");
        if (result.isError) throw new Error(text || "the tool failed"); // Pi reports it with isError
        return { content: [{ type: "text", text }], details: {} };
      },
    } as any);
  }
}
