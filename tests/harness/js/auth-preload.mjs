// Node --import preload: add an Authorization header to every HTTP request this process sends to one origin.
//
// For tools with no header option (the MCP conformance suite). It installs an undici global dispatcher that
// adds the header, which covers both ways a Node program sends requests: undici's request() and the global
// fetch (Node's built-in fetch uses the same global dispatcher).
//
//   AUTH_PRELOAD_ORIGIN=http://127.0.0.1:8000 AUTH_PRELOAD_AUTHORIZATION="Bearer T" \
//     node --import ./auth-preload.mjs program.js
//
// undici is resolved from the program being run (process.argv[1]), so the program must depend on it.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";

const origin = process.env.AUTH_PRELOAD_ORIGIN;
const authorization = process.env.AUTH_PRELOAD_AUTHORIZATION;
if (!origin || !authorization) {
  throw new Error("auth-preload: set AUTH_PRELOAD_ORIGIN and AUTH_PRELOAD_AUTHORIZATION");
}

const ours = (url) => {
  try {
    return new URL(String(url)).origin === origin;
  } catch {
    return false;
  }
};

function withAuthorization(headers) {
  if (headers == null) return { authorization };
  if (Array.isArray(headers)) {
    const flat = headers.flat();
    for (let i = 0; i < flat.length; i += 2) if (String(flat[i]).toLowerCase() === "authorization") return headers;
    return [...flat, "authorization", authorization];
  }
  if (typeof headers[Symbol.iterator] === "function") return withAuthorization([...headers]);
  if (Object.keys(headers).some((k) => k.toLowerCase() === "authorization")) return headers;
  return { ...headers, authorization };
}

const { Agent, setGlobalDispatcher } = createRequire(realpathSync(process.argv[1]))("undici");
setGlobalDispatcher(
  new Agent().compose((dispatch) => (opts, handler) =>
    dispatch(ours(opts.origin) ? { ...opts, headers: withAuthorization(opts.headers) } : opts, handler),
  ),
);
