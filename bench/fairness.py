"""Fair shares: another session's latency beside a flood, each side in its own process.

``python -m bench.fairness [SECONDS [WINDOW]]`` (``WINDOW``: only the floods whose name holds it): one
gateway (``python -m bench.serve gateway``, its own process); the victim session loops a cheap read
(``company_directory_get_person``) from this process and its p50/p99 is taken

- idle;
- beside one session keeping 64, then 256, calls in flight of the costliest searches
  (:data:`bench.hostile.CANDIDATES` on every search action), from a process of its own; a call
  answered 429 is sent again at once (a client that ignores ``Retry-After``: the worst case);
- beside the same session's 64, then 256, calls in flight sent over raw keep-alive sockets by a client that parses
  only the status line and the length (resending at once is then as fast as the server answers: the storm
  of 429s an outside tester saw with a fast client);
- beside 64 clients without a token, each posting a 7.9 MB body over and over, from a process of
  their own;
- beside one session keeping 8 calls in flight (its bound), each a ~4 MB ``tools/call`` body (just under
  ``/mcp``'s bound; a search whose query is refused once parsed: the whole cost is reading and parsing it);
- beside a session that first fills its text quota with ten ~0.5 M-character Drive files, then keeps 64 calls
  in flight of a 31-term Drive search that scans all of them (each ~0.1 s of CPU);
- beside :data:`MANY_SESSIONS` sessions, each keeping 8 calls in flight (its bound) of the costliest searches, from
  one process of their own: each stays inside its own bounds, together they fill the event loop.

Prints one JSON object: each window's ``{"calls", "failed", "p50_ms", "p99_ms", "max_ms"}``, what the
other side sent and how it was answered, and the ratios to idle (the target: p50 within 2x, p99 within 3x).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import random
import sys
from collections import Counter
from multiprocessing import get_context
from typing import Any

import httpx

from bench.common import MCP_HEADERS, READ_TASK, check_result, rpc
from bench.hostile import TASK_ROW, _attack_bodies, _seed_row, _victim
from bench.procs import Server, server_processes

__all__ = ["FILLED_FILES", "LARGE_BYTES", "LARGE_CALL_BYTES", "MANY_SESSIONS", "run"]

#: The body each tokenless client posts (just under the default 8 MiB request limit).
LARGE_BYTES = 7_900_000
#: The tool call body the large-posting session sends (just under /mcp's 4 MiB bound).
LARGE_CALL_BYTES = 4_000_000
#: Files of ~0.5 M characters the filled session stores: ~5 M characters, its whole text quota.
FILLED_FILES = 10
#: Sessions of the many-sessions flood, each with 8 calls in flight.
MANY_SESSIONS = 40


def _filled_bodies() -> tuple[list[bytes], list[bytes]]:
    """The files that fill a session to its text quota, and the costliest search over them.

    Each file is 499,000 characters of random lower-case words ending in the 31 search terms, so every term is
    found, and only after a scan of all the file's text.
    """
    rnd = random.Random(7)
    terms = [f"zq{n}" for n in range(31)]
    files = []
    for n in range(FILLED_FILES):
        words = " ".join("".join(rnd.choice("abcdefghijklmnopqrstuvwxy") for _ in range(6)) for _ in range(70_000))
        text = (words[: 499_000 - 200] + " " + " ".join(terms))[:499_000]
        call = {"name": "company_drive_create_file", "arguments": {"name": f"filled {n}.txt", "content": text}}
        files.append(rpc("tools/call", call, rid=n + 1))
    search = {"name": "company_drive_search_files", "arguments": {"query": " ".join(terms)}}
    return files, [rpc("tools/call", search)]


def _flood(
    url: str, token: str | None, lanes: int, stop: Any, out: Any, large: bool = False, filled: bool = False
) -> None:
    """Keep ``lanes`` requests in flight until ``stop`` is set; put the answers' statuses on ``out``.

    With a token: the costliest searches over MCP (``large``: one ~4 MB call; ``filled``: first fill the
    session with :data:`FILLED_FILES` files of ~0.5 M characters, then search them all for 31 terms found only at
    their ends). Without: a 7.9 MB body to ``/api`` (a new connection whenever the server closed the last one).
    """

    async def lane(http: httpx.AsyncClient, first: int, bodies: list[bytes], path: str) -> Counter[str]:
        seen: Counter[str] = Counter()
        i = first
        while not stop.is_set():
            try:
                response = await http.post(path, content=bodies[i % len(bodies)])
                seen[str(response.status_code)] += 1
            except httpx.HTTPError as exc:  # the server closed a connection whose body it would not read
                seen[type(exc).__name__] += 1
            i += 1
        return seen

    async def main() -> dict[str, int]:
        if token is not None:
            headers = {**MCP_HEADERS, "Authorization": f"Bearer {token}"}
            bodies, path = _attack_bodies(), "/mcp"
            if filled:
                fill, bodies = _filled_bodies()
                async with httpx.AsyncClient(base_url=url, headers=headers, timeout=300) as http:
                    for body in fill:
                        if not check_result(await http.post("/mcp", content=body)):
                            raise RuntimeError("a file that fills the session was refused")
            if large:
                query = "e" * (LARGE_CALL_BYTES - 200)
                call = {"name": "company_directory_search_people", "arguments": {"query": query}}
                bodies = [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}).encode()]
        else:
            headers = {"Content-Type": "application/json"}
            bodies, path = [b'{"query": "' + b"e" * (LARGE_BYTES - 14) + b'"}'], "/api/directory/search_people"
        limits = httpx.Limits(max_connections=lanes, max_keepalive_connections=lanes)
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=120, limits=limits) as http:
            out.put("ready")
            counts = await asyncio.gather(*(lane(http, k * 37, bodies, path) for k in range(lanes)))
        return dict(sum(counts, Counter()))

    out.put(asyncio.run(main()))


def _many(url: str, tokens: list[str], lanes: int, stop: Any, out: Any) -> None:
    """As :func:`_flood` with a token, for each of ``tokens`` at once: ``lanes`` calls in flight per session."""

    async def lane(http: httpx.AsyncClient, first: int, bodies: list[bytes]) -> Counter[str]:
        seen: Counter[str] = Counter()
        i = first
        while not stop.is_set():
            seen[str((await http.post("/mcp", content=bodies[i % len(bodies)])).status_code)] += 1
            i += 1
        return seen

    async def main() -> dict[str, int]:
        bodies = _attack_bodies()
        clients = [
            httpx.AsyncClient(base_url=url, headers={**MCP_HEADERS, "Authorization": f"Bearer {t}"}, timeout=120)
            for t in tokens
        ]
        out.put("ready")
        runs = [lane(http, k * 37, bodies) for http in clients for k in range(lanes)]
        counts = await asyncio.gather(*runs)
        for http in clients:
            await http.aclose()
        return dict(sum(counts, Counter()))

    out.put(asyncio.run(main()))


def _storm(url: str, token: str, lanes: int, stop: Any, out: Any) -> None:
    """As :func:`_flood` with a token, over raw keep-alive sockets: each lane resends as soon as it is answered."""
    from urllib.parse import urlsplit

    where = urlsplit(url)
    heads = [
        (
            f"POST /mcp HTTP/1.1\r\nHost: {where.netloc}\r\nAuthorization: Bearer {token}\r\n"
            + "".join(f"{k}: {v}\r\n" for k, v in MCP_HEADERS.items())
            + f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        + body
        for body in _attack_bodies()
    ]

    async def lane(first: int) -> Counter[str]:
        seen: Counter[str] = Counter()
        i = first
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        while not stop.is_set():
            writer.write(heads[i % len(heads)])
            status = (await reader.readline()).split(b" ")[1].decode()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            await reader.readexactly(length)
            seen[status] += 1
            i += 1
        writer.close()
        return seen

    async def main() -> dict[str, int]:
        out.put("ready")
        counts = await asyncio.gather(*(lane(k * 37) for k in range(lanes)))
        return dict(sum(counts, Counter()))

    out.put(asyncio.run(main()))


def _beside(
    server: Server, victim: str, token: str | list[str] | None, lanes: int, seconds: float, flood: Any = _flood
) -> dict[str, Any]:
    """The victim's latencies while :func:`_flood` runs in its own process; and what the flood was answered."""
    ctx = get_context("spawn")
    stop, out = ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=flood, args=(server.url, token, lanes, stop, out))
    proc.start()
    try:
        out.get(timeout=60)
        measured = asyncio.run(_victim(server.url, victim, seconds))
    finally:
        stop.set()
        answered = out.get(timeout=300)
        proc.join(30)
    return {**measured, "lanes": lanes, "flood_answers": answered}


def run(server: Server, seconds: float, only: str = "") -> dict[str, Any]:
    """The victim's p50/p99 idle and beside each flood (see the module docstring); ratios to idle.

    Each flood's window is preceded by an idle window of the same length, and its ratios are to that one.
    """

    async def tokens() -> tuple[str, str, str, list[str]]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
            victim = await _seed_row(http, {"task_id": READ_TASK})
            flooder = await _seed_row(http, {"task": {**TASK_ROW, "exposure": "mcp"}})
            filler = await _seed_row(http, {"task": {**TASK_ROW, "exposure": "mcp"}})
            many = [await _seed_row(http, {"task": {**TASK_ROW, "exposure": "mcp"}}) for _ in range(MANY_SESSIONS)]
            return victim, flooder, filler, many

    victim, flooder, filler, many = asyncio.run(tokens())
    asyncio.run(_victim(server.url, victim, 0.5))  # warm the connection path and caches
    floods = {
        "session_64_in_flight": (flooder, 64),
        "session_256_in_flight": (flooder, 256),
        "session_64_raw_resend": (flooder, 64),
        "session_256_raw_resend": (flooder, 256),
        "tokenless_64_large_posts": (None, 64),
        "session_8_large_calls": (flooder, 8),
        "filled_session_64_searches": (filler, 64),
        f"sessions_{MANY_SESSIONS}_x_8_in_flight": (many, 8),
    }
    windows: dict[str, Any] = {}
    ratios: dict[str, Any] = {}
    for name, (token, lanes) in floods.items():
        if only not in name:
            continue
        # idle right before each flood: on a shared machine the load of other work drifts between windows
        idle = asyncio.run(_victim(server.url, victim, seconds))
        flood = (
            _storm
            if "raw" in name
            else _many
            if isinstance(token, list)
            else functools.partial(_flood, large="large_calls" in name, filled="filled" in name)
        )
        beside = _beside(server, victim, token, lanes, seconds, flood)
        windows[name] = {"idle": idle, "beside": beside}
        ratios[name] = {
            "p50": round(beside["p50_ms"] / idle["p50_ms"], 2),
            "p99": round(beside["p99_ms"] / idle["p99_ms"], 2),
        }
    return {"load_average_at_end": os.getloadavg(), **windows, "ratios_to_idle": ratios}


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    with server_processes("gateway") as (gw,):
        print(json.dumps(run(gw, secs, sys.argv[2] if len(sys.argv) > 2 else ""), indent=1))
