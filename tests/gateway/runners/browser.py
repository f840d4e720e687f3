"""Headless Chromium driven over the DevTools protocol (a small client on ``websockets``' sync API).

Opens pages from disk, evaluates JavaScript in them, collects every console error, uncaught exception and
failed load, and takes full-page screenshots. Debian's ``chromium`` package is the browser
(``.ci/run`` installs it); :func:`chromium_path` is None where it is absent.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

#: Seconds any one wait (the browser starting, a reply, a page drawing) may take.
WAIT_S = 30.0


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def chromium_path() -> str | None:
    """The Chromium executable, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium and one page of it (a context manager)."""

    def __init__(self, width: int = 1280, height: int = 900) -> None:
        self.width, self.height = width, height
        self.events: list[dict[str, Any]] = []
        self._ids = itertools.count(1)

    def __enter__(self) -> Browser:
        executable = chromium_path()
        if executable is None:
            raise RuntimeError("chromium is not installed (apt-get install chromium)")
        self._stack = contextlib.ExitStack()
        try:
            profile = self._stack.enter_context(
                tempfile.TemporaryDirectory(prefix="report-chromium-", ignore_cleanup_errors=True))
            process = subprocess.Popen(
                [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--no-default-browser-check", "--disable-extensions", "--remote-debugging-port=0",
                 f"--user-data-dir={profile}", f"--window-size={self.width},{self.height}", "about:blank"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            self._stack.callback(_stop, process)
            port_file = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + WAIT_S
            while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("chromium did not open its DevTools port")
                time.sleep(0.05)  # bounded by WAIT_S: chromium writes the file once it listens
            port = port_file.read_text().split()[0]
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=WAIT_S) as answer:
                page = next(t for t in json.load(answer) if t["type"] == "page")
            self._ws = self._stack.enter_context(
                connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=WAIT_S))
            for domain in ("Page", "Runtime", "Log"):
                self.send(f"{domain}.enable")
            self.send("Emulation.setDeviceMetricsOverride",
                      {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send one DevTools command; returns its result (events that arrive meanwhile are kept)."""
        number = next(self._ids)
        self._ws.send(json.dumps({"id": number, "method": method, "params": params or {}}))
        while True:
            message = json.loads(self._ws.recv(timeout=WAIT_S))
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message.get("result") or {})
            self.events.append(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True, "timeout": WAIT_S * 1000})  # fmt: skip
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> str:
        """Load ``url`` and wait until the report page has drawn; returns ``drawn`` or ``failed``."""
        seen = len(self.events)
        navigated = self.send("Page.navigate", {"url": url})
        if navigated.get("errorText"):
            raise RuntimeError(f"{url}: {navigated['errorText']}")
        self._wait_for("Page.loadEventFired", seen)
        wait = f"""new Promise((resolve, reject) => {{
            const limit = Date.now() + {int(WAIT_S * 1000)};
            const look = () => {{
              const ready = document.body && document.body.dataset.ready;
              if (ready) resolve(ready);
              else if (Date.now() > limit) reject(new Error("the page did not draw"));
              else setTimeout(look, 20);
            }};
            look();
        }})"""
        return str(self.evaluate(wait))

    def _wait_for(self, method: str, after: int) -> dict[str, Any]:
        """The first event ``method`` after the first ``after`` events (waiting for it, up to WAIT_S)."""
        while True:
            for event in self.events[after:]:
                if event.get("method") == method:
                    return event
            after = len(self.events)
            self.events.append(json.loads(self._ws.recv(timeout=WAIT_S)))

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and failed loads seen so far, as text."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params") or {}
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                found.append(f"exception: {details.get('exception', {}).get('description') or details.get('text')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                found.append("console: " + " ".join(str(a.get("value", a.get("description"))) for a in params["args"]))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                found.append(f"log: {params['entry']['text']} {params['entry'].get('url', '')}")
        return found

    def screenshot(self, path: Path) -> None:
        """A PNG of the whole page (its full height) at the browser's width."""
        height = int(self.evaluate("Math.ceil(document.documentElement.scrollHeight)"))
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": min(max(height, self.height), 12000), "deviceScaleFactor": 1,
                   "mobile": False})  # fmt: skip
        shot = self.send("Page.captureScreenshot", {"format": "png"})
        path.write_bytes(base64.b64decode(shot["data"]))
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": False})
