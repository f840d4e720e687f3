"""``company-gateway serve`` as its own process: it serves, and SIGTERM or SIGINT stops it cleanly."""

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(proc: subprocess.Popen[str], url: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"serve exited with {proc.returncode} before answering: {proc.stdout.read()}")  # type: ignore[union-attr]
        try:
            if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)  # polling a process that is starting; bounded by the deadline
    pytest.fail(f"serve did not answer /health within {START_TIMEOUT_S:g} s")


#: How the process ends after a clean stop: uvicorn raises the signal again once it has shut down, so
#: SIGTERM ends it as SIGTERM does (supervisors see that), and SIGINT gives the shell's 130, no traceback.
ENDINGS = [(signal.SIGTERM, -signal.SIGTERM), (signal.SIGINT, 128 + signal.SIGINT)]


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "status"), ENDINGS)
def test_serve_answers_then_stops_on_a_signal_and_logs_the_shutdown(sig, status):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "GATEWAY_SANDBOX_PROVIDER": "none", "GATEWAY_LOG_LEVEL": "INFO"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway.runners.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        wait_healthy(proc, url)
        seed = httpx.post(f"{url}/seed_session", json={"task_id": "dir-manager-of-owen"}, timeout=30).json()
        headers = {"Authorization": f"Bearer {seed['token']}"}
        card = httpx.post(f"{url}/api/directory/get_person", json={"person": "Owen Bell"}, headers=headers, timeout=30)
        assert card.status_code == 200 and card.json()["manager"] == "priya.shah@northwind.example"
        proc.send_signal(sig)
        output, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == status, output
    assert f"company-gateway: serving {url} (MCP at /mcp)" in output.splitlines()
    assert "shutdown: refusing new seeds; live=1" in output
    assert "Traceback" not in output


def test_a_port_in_use_is_a_usage_error_before_any_task_row_loads(monkeypatch, capsys):
    import gateway.surfaces.asgi
    from gateway.runners.cli import main

    def no_rows(*args, **kwargs):
        raise AssertionError("the rows were loaded before the port was checked")

    monkeypatch.setattr(gateway.surfaces.asgi, "create_app", no_rows)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--host", "127.0.0.1", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"company-gateway serve: --port {port} (GATEWAY_PORT) cannot be bound on 127.0.0.1: Address already "
                   "in use; choose another --port, or --port 0 for a free one\n")  # fmt: skip


def test_a_host_that_is_no_address_is_a_usage_error_before_any_task_row_loads(monkeypatch, capsys):
    import gateway.surfaces.asgi
    from gateway.runners.cli import main

    def no_rows(*args, **kwargs):
        raise AssertionError("the rows were loaded before the host was checked")

    monkeypatch.setattr(gateway.surfaces.asgi, "create_app", no_rows)
    assert main(["serve", "--host", "999.1.1.1", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("company-gateway serve: --host 999.1.1.1 (GATEWAY_HOST) is no address here: ")
    assert err.endswith("; use an interface's address, 127.0.0.1 or 0.0.0.0\n")


def test_serve_takes_the_sandbox_provider_as_demo_does(monkeypatch):
    import gateway.surfaces.asgi
    from gateway.runners.cli import main

    seen = {}

    def settings_only(settings, *args, **kwargs):
        seen["provider"] = settings.sandbox_provider
        raise SystemExit(0)

    monkeypatch.setattr(gateway.surfaces.asgi, "create_app", settings_only)
    with pytest.raises(SystemExit):
        main(["serve", "--port", "0", "--sandbox-provider", "none"])
    assert seen == {"provider": "none"}
