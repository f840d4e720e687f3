"""A fake OpenSandbox for the provider's tests: its HTTP APIs, answered through respx (no network at all).

``FakeOpenSandbox`` answers like a lifecycle server with execd behind its proxy. Each route
names the part of OpenSandbox it mimics:

* ``specs/sandbox-lifecycle.yml`` (opensandbox-group/OpenSandbox): ``/v1/sandboxes...``,
  JSON bodies in camelCase, errors as ``{"code", "message"}``;
* ``server/opensandbox_server/api/proxy.py`` and ``lifecycle.py`` (alibaba/OpenSandbox): with
  ``use_server_proxy=true`` an endpoint is ``<host>/sandboxes/{id}/proxy/{port}`` and requests
  there reach execd; for a sandbox that is gone the server answers 404;
* ``specs/execd-api.yaml``: ``/ping``, ``/directories``, ``/files/upload``, ``/files/download``
  (with ``Range``: 206 and the bytes asked for), ``/files/info`` (``FileInfo`` per path),
  ``/command`` (and its interrupt);
* ``components/execd/pkg/web/controller/sse.go`` and ``pkg/runtime/command_common.go``: the
  command stream is bare JSON objects each followed by a blank line, one event per output line
  (line end removed; an empty line is sent as ``"\\n"``), then ``error`` (exit code in
  ``evalue``, ``-1`` with ``signal: killed`` when killed) or ``execution_complete``;
* ``filesystem_upload.go`` and ``filesystem.go``: an upload makes the parent folders (Go's ``MkdirAll``,
  failing with ``not a directory`` where a file is in the way); a download or a stat answers 404
  ``FILE_NOT_FOUND`` only when nothing is there, else 500 with Go's error.

With ``server.shell = True`` (the provider contract, ``TestOpenSandboxContract``) ``/command`` plays the
contract's commands (tests/sandbox/contract.py) as a shell in the image would: ``FakeShell``.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import parse_qsl

import httpx
import respx

import sandbox.opensandbox.provider as provider_module
from tests.sandbox import contract

HOST = "opensandbox.test"
EXECD_PORT = 44772
NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

Events = list[dict[str, Any]]


def error_response(status: int, code: str, message: str) -> httpx.Response:
    # specs/sandbox-lifecycle.yml + specs/execd-api.yaml: ErrorResponse {code, message}
    return httpx.Response(status, json={"code": code, "message": message})


def _multipart(request: httpx.Request) -> list[tuple[dict[str, Any], bytes]]:
    """(metadata, bytes) pairs of an execd upload: a JSON ``metadata`` part, then its ``file`` part."""
    boundary = request.headers["content-type"].split("boundary=", 1)[1].encode()
    parts = []
    for chunk in request.content.split(b"--" + boundary)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, body = chunk[2:].partition(b"\r\n\r\n")
        assert body.endswith(b"\r\n")
        parts.append((head.decode(), body[:-2]))
    pairs = []
    for (meta_head, meta), (file_head, data) in zip(parts[::2], parts[1::2], strict=True):
        assert 'name="metadata"' in meta_head and 'name="file"' in file_head
        pairs.append((json.loads(meta), data))
    return pairs


def _is_dir(box: dict[str, Any], path: str) -> bool:
    return path in {folder for folder, _ in box["dirs"]}


def _file_above(box: dict[str, Any], path: str) -> str | None:
    """The file standing where a folder above ``path`` should be, if any."""
    return next((str(p) for p in PurePosixPath(path).parents if str(p) in box["files"]), None)


class FakeOpenSandbox:
    """One OpenSandbox server in memory: sandboxes with metadata, files and a scripted ``/command``."""

    def __init__(self, router: respx.MockRouter) -> None:
        self.router = router
        self.sandboxes: dict[str, dict[str, Any]] = {}
        self.created: list[dict[str, Any]] = []
        self.commands: list[dict[str, Any]] = []
        self.interrupted: list[str] = []
        self.on_command: Callable[[dict[str, Any]], Events | httpx.Response] = lambda body: [
            {"type": "execution_complete", "execution_time": 1}
        ]
        #: Play ``/command`` with ``FakeShell`` instead of ``on_command``.
        self.shell = False
        self._ids = count(1)
        self._stamps = count(1_900_000_000_000)
        # specs/sandbox-lifecycle.yml
        sandbox_path = r"^/v1/sandboxes/(?P<sid>[^/]+)"
        self._route("POST", r"^/v1/sandboxes$", "create", self._create)
        self._route("GET", r"^/v1/sandboxes$", "list", self._list)
        self._route("DELETE", sandbox_path + "$", "kill", self._kill)
        self._route("POST", sandbox_path + "/renew-expiration$", "renew", self._renew)
        self._route("GET", sandbox_path + r"/endpoints/(?P<port>\d+)$", "endpoint", self._endpoint)
        # specs/execd-api.yaml, reached through server/opensandbox_server/api/proxy.py
        proxy = rf"^/sandboxes/(?P<sid>[^/]+)/proxy/{EXECD_PORT}"
        self._route("GET", proxy + "/ping$", "ping", self._execd(self._ping))
        self._route("POST", proxy + "/directories$", "mkdir", self._execd(self._mkdir))
        self._route("POST", proxy + "/files/upload$", "upload", self._execd(self._upload))
        self._route("GET", proxy + "/files/download$", "download", self._execd(self._download))
        self._route("GET", proxy + "/files/info$", "info", self._execd(self._info))
        self._route("POST", proxy + "/command$", "command", self._execd(self._command))
        self._route("DELETE", proxy + "/command$", "interrupt", self._execd(self._interrupt))

    def _route(self, method: str, path: str, name: str, handler: Callable[..., Any]) -> None:
        self.router.route(method=method, host=HOST, path__regex=path, name=name).mock(side_effect=handler)

    # -- lifecycle server ---------------------------------------------------------------------

    def _create(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.created.append(body)
        sid = f"sbx-{next(self._ids)}"
        expires = NOW + timedelta(seconds=body["timeout"]) if body.get("timeout") else None
        self.sandboxes[sid] = {
            "metadata": body.get("metadata", {}),
            "state": "Running",
            "files": {},
            "dirs": set(),
            "expiresAt": expires,
            "gone": False,
            "env": body.get("env", {}),
        }
        return httpx.Response(202, json=self._sandbox_json(sid) | {"entrypoint": body["entrypoint"]})

    def _sandbox_json(self, sid: str) -> dict[str, Any]:
        box = self.sandboxes[sid]
        data = {
            "id": sid,
            "status": {"state": box["state"], "reason": "", "message": ""},
            "metadata": box["metadata"],
            "createdAt": NOW.isoformat(),
            "entrypoint": ["tail", "-f", "/dev/null"],
        }
        if box["expiresAt"] is not None:
            data["expiresAt"] = box["expiresAt"].isoformat()
        return data

    def _list(self, request: httpx.Request) -> httpx.Response:
        wanted = dict(parse_qsl(request.url.params.get("metadata", ""), strict_parsing=False))
        page = int(request.url.params.get("page", "1"))
        size = int(request.url.params.get("pageSize", "20"))
        rows = [
            self._sandbox_json(sid)
            for sid, box in self.sandboxes.items()
            if not box["gone"] and all(box["metadata"].get(k) == v for k, v in wanted.items())
        ]
        chunk = rows[(page - 1) * size : page * size]
        pages = max(1, -(-len(rows) // size))
        pagination = {
            "page": page,
            "pageSize": size,
            "totalItems": len(rows),
            "totalPages": pages,
            "hasNextPage": page < pages,
        }
        return httpx.Response(200, json={"items": chunk, "pagination": pagination})

    def _missing(self, sid: str) -> httpx.Response:
        return error_response(404, "DOCKER::SANDBOX_NOT_FOUND", f"no sandbox with id {sid}")

    def _alive(self, sid: str) -> bool:
        return sid in self.sandboxes and not self.sandboxes[sid]["gone"]

    def _kill(self, request: httpx.Request, sid: str) -> httpx.Response:
        if not self._alive(sid):
            return self._missing(sid)
        self.sandboxes[sid]["gone"] = True
        return httpx.Response(204)

    def _renew(self, request: httpx.Request, sid: str) -> httpx.Response:
        if not self._alive(sid):
            return self._missing(sid)
        body = json.loads(request.content)
        assert set(body) == {"expiresAt"}  # RenewSandboxExpirationRequest, additionalProperties: false
        expires = datetime.fromisoformat(body["expiresAt"])
        self.sandboxes[sid]["expiresAt"] = expires
        return httpx.Response(200, json={"expiresAt": expires.isoformat()})

    def _endpoint(self, request: httpx.Request, sid: str, port: str) -> httpx.Response:
        if not self._alive(sid):
            return self._missing(sid)
        assert request.url.params["use_server_proxy"] == "true"
        return httpx.Response(200, json={"endpoint": f"{HOST}/sandboxes/{sid}/proxy/{port}"})

    def expire(self, sid: str) -> None:
        """The TTL ran out: the server forgot the sandbox."""
        self.sandboxes[sid]["gone"] = True

    # -- execd behind the proxy ---------------------------------------------------------------

    def _execd(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        async def route(request: httpx.Request, sid: str) -> httpx.Response:
            assert request.headers["OPEN-SANDBOX-API-KEY"] == "key-1"  # proxy requests pass the server's auth
            if not self._alive(sid):
                return self._missing(sid)
            await request.aread()
            result = handler(request, self.sandboxes[sid])
            return await result if asyncio.iscoroutine(result) else result

        return route

    def _ping(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        return httpx.Response(200)

    def _mkdir(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        for path, permission in json.loads(request.content).items():
            box["dirs"].add((path, permission["mode"]))
        return httpx.Response(200)

    def _upload(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        for meta, data in _multipart(request):  # one pair after the other: those before a failure stay written
            parent = str(PurePosixPath(meta["path"]).parent)
            if blocked := _file_above(box, meta["path"]):
                message = f"error creating target directory {parent}. mkdir {blocked}: not a directory"
                return error_response(500, "RUNTIME_ERROR", message)
            if _is_dir(box, meta["path"]):
                message = f"error opening destination file {meta['path']}. open {meta['path']}: is a directory"
                return error_response(500, "RUNTIME_ERROR", message)
            for folder in PurePosixPath(meta["path"]).parents:
                if str(folder) != "/" and not _is_dir(box, str(folder)):
                    box["dirs"].add((str(folder), 755))  # MkdirAll: os.ModePerm less the umask
            box["files"][meta["path"]] = (data, meta["mode"])
        return httpx.Response(200)

    def _download(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        path = request.url.params["path"]
        if _file_above(box, path):
            return error_response(500, "RUNTIME_ERROR", f"error accessing file: open {path}: not a directory")
        if _is_dir(box, path):
            return error_response(500, "RUNTIME_ERROR", f"error accessing file: read {path}: is a directory")
        if path not in box["files"]:
            return error_response(404, "FILE_NOT_FOUND", f"file not found. open {path}: no such file or directory")
        data = box["files"][path][0]
        wanted = request.headers.get("Range")
        if wanted is None:
            return httpx.Response(200, content=data, headers={"Content-Type": "application/octet-stream"})
        first, _, last = wanted.removeprefix("bytes=").partition("-")
        part = data[int(first) : int(last) + 1]
        content_range = f"bytes {first}-{int(first) + len(part) - 1}/{len(data)}"
        headers = {"Content-Type": "application/octet-stream", "Content-Range": content_range}
        return httpx.Response(206, content=part, headers=headers)

    def _info(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        found = {}
        for path in request.url.params.get_list("path"):
            if _file_above(box, path):
                return error_response(500, "RUNTIME_ERROR", f"error accessing file: stat {path}: not a directory")
            if _is_dir(box, path):
                kind, size = "directory", 4096
            elif path in box["files"]:
                kind, size = "file", box.get("sizes", {}).get(path, len(box["files"][path][0]))
            else:
                return error_response(404, "FILE_NOT_FOUND", f"file not found. stat {path}: no such file or directory")
            stamp = NOW.isoformat()
            found[path] = {"path": path, "size": size, "modified_at": stamp, "created_at": stamp,
                           "owner": "root", "group": "root", "mode": 644, "type": kind}  # fmt: skip
        return httpx.Response(200, json=found)

    def _command(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        body = json.loads(request.content)
        self.commands.append(body)
        if self.shell:
            return FakeShell(self, box, body).run()
        events = self.on_command(body)
        if isinstance(events, httpx.Response):
            return events
        return self.stream([{"type": "init", "text": "cmd-1"}, *events])

    def _interrupt(self, request: httpx.Request, box: dict[str, Any]) -> httpx.Response:
        self.interrupted.append(request.url.params["id"])
        return httpx.Response(200)

    def stream(self, events: Events, *, hang: asyncio.Event | None = None) -> httpx.Response:
        """A /command response: each event a bare JSON object and a blank line, as execd writes them."""
        frames = [json.dumps({**event, "timestamp": next(self._stamps)}).encode() + b"\n\n" for event in events]

        async def body() -> AsyncIterator[bytes]:
            for frame in frames:
                yield frame
            if hang is not None:
                await hang.wait()

        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())


#: Programs the fake image holds (a path on PATH that no installed command shadows).
IMAGE_PROGRAMS = {"/bin/sh", "/bin/cat", "/bin/pwd", "/bin/ls", "/bin/sleep", "/bin/true", "/usr/bin/env"}


class FakeShell:
    """What a shell in the image does with the provider contract's commands, streamed as execd streams them.

    The image's programs are played from what the contract asks of them (tests/sandbox/contract.py); a
    command installed with ``install_commands`` is found on the ``PATH`` the sandbox and the request give,
    and its script runs for real in the host's ``sh`` (the contract's are one ``echo`` each).
    """

    def __init__(self, server: FakeOpenSandbox, box: dict[str, Any], body: dict[str, Any]) -> None:
        self.server, self.box, self.body = server, box, body
        self.cwd = body["cwd"]
        self.env = {**box["env"], **(body.get("envs") or {}), "PWD": self.cwd}
        self.timeout_s = body["timeout"] / 1000
        self.stdin = b""

    def run(self) -> httpx.Response:
        if not _is_dir(self.box, self.cwd):
            why = f"error running commands resolve request cwd {self.cwd}: no such file or directory"
            return error_response(500, "RUNTIME_ERROR", why)
        argv = self.body["argv"]
        if argv[:3] == ["sh", "-c", provider_module._STDIN_SCRIPT]:  # exec 0<"$0" && rm -f -- "$0" && exec "$@"
            self.stdin = self.box["files"].pop(argv[3])[0]
            argv = argv[4:]
        out, err, runs_s, end = self._play(argv)
        lines = [*self._lines(out, "stdout"), *self._lines(err, "stderr")]
        killed = {"ename": "CommandExecError", "evalue": "-1", "traceback": ["signal: killed"]}
        if runs_s > self.timeout_s:
            runs_s, end = self.timeout_s, {"type": "error", "error": killed}  # execd's timeout kills it
        elif end == "killed":
            end = {"type": "error", "error": killed}

        async def body() -> AsyncIterator[bytes]:
            for event in [{"type": "init", "text": "cmd-1"}, *lines]:
                yield json.dumps({**event, "timestamp": 0}).encode() + b"\n\n"
            await asyncio.sleep(runs_s)
            yield json.dumps({**end, "timestamp": 0}).encode() + b"\n\n"

        return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body())

    @staticmethod
    def _lines(text: bytes, kind: str) -> Events:
        return [{"type": kind, "text": "\n" if line == "\n" else line.removesuffix("\n")}
                for line in text.decode().splitlines(keepends=True)]  # fmt: skip

    @staticmethod
    def _exit(code: int) -> dict[str, Any]:
        if code == 0:
            return {"type": "execution_complete", "execution_time": 1}
        return {"type": "error", "error": {"ename": "CommandExecError", "evalue": str(code),
                                           "traceback": [f"exit status {code}"]}}  # fmt: skip

    def _play(self, argv: list[str]) -> tuple[bytes, bytes, float, Any]:
        """(stdout, stderr, seconds it runs, the closing event or "killed") of ``argv``."""
        name, args = argv[0], argv[1:]
        found = next((f"{d}/{name}" for d in self.env["PATH"].split(":")
                      if f"{d}/{name}" in self.box["files"] or f"{d}/{name}" in IMAGE_PROGRAMS), None)  # fmt: skip
        if found is None:
            why = f'exec: "{name}": executable file not found in $PATH'
            return b"", b"", 0, {"type": "error", "error": {"ename": "CommandExecError", "evalue": why}}
        if found in self.box["files"]:
            script, mode = self.box["files"][found]
            assert int(str(mode), 8) & 0o111, f"{found} is not executable"
            ran = subprocess.run(["sh", "-c", script.decode(), name, *args], capture_output=True, timeout=10)
            return ran.stdout, ran.stderr, 0, self._exit(ran.returncode)
        files = self.box["files"]
        match PurePosixPath(found).name, args:
            case "cat", []:
                return self.stdin, b"", 0, self._exit(0)
            case "pwd", []:
                return f"{self.cwd}\n".encode(), b"", 0, self._exit(0)
            case "env", []:
                return "".join(f"{k}={v}\n" for k, v in self.env.items()).encode(), b"", 0, self._exit(0)
            case "ls", []:
                names = {PurePosixPath(p).name for p in [*files, *(d for d, _ in self.box["dirs"])]
                         if str(PurePosixPath(p).parent) == self.cwd}  # fmt: skip
                return "".join(f"{n}\n" for n in sorted(names)).encode(), b"", 0, self._exit(0)
            case "sleep", [seconds]:
                return b"", b"", float(seconds), self._exit(0)
            case "sh", ["-c", contract.OUT_ERR_EXIT_3]:
                return b"out\n", b"err\n", 0, self._exit(3)
            case "sh", ["-c", contract.SHARE_THE_WORKSPACE]:
                data = files[f"{self.cwd}/in.txt"][0]
                files[f"{self.cwd}/out.txt"] = (b"from the command", 644)
                return data, b"", 0, self._exit(0)
            case "sh", ["-c", contract.KILL_ITSELF]:
                return b"", b"", 0, "killed"
            case "sh", ["-c", contract.START_THEN_SLEEP]:
                return b"started\n", b"", 30, self._exit(0)
        raise AssertionError(f"the fake shell does not know {argv!r}")
