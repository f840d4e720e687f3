"""Joining Ray: a stale or unreachable address is refused after a bounded wait, never waited on forever."""

from __future__ import annotations

import socket
from typing import Any

import pytest

import gateway.cluster.replicas as replicas
from gateway.runners.cli import main


class _FakeRay:
    """Stands in for ``ray``: records the addresses ``init`` was given."""

    def __init__(self) -> None:
        self.inits: list[str | None] = []

    def init(self, address: str | None = None, **_: Any) -> None:
        self.inits.append(address)

    def shutdown(self) -> None:
        pass


@pytest.fixture
def fake_ray(monkeypatch: pytest.MonkeyPatch) -> _FakeRay:
    fake = _FakeRay()
    monkeypatch.setattr(replicas, "import_ray", lambda: fake)
    monkeypatch.setattr(replicas, "local_auth_env", lambda: None)
    return fake


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_without_an_address_a_local_cluster_starts_whatever_ray_left_in_its_temp_folder(fake_ray, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    replicas.connect_ray(None)
    monkeypatch.setenv("RAY_ADDRESS", "local")
    replicas.connect_ray(None)
    assert fake_ray.inits == ["local", "local"]  # "local": Ray ignores its ray_current_cluster file


def test_an_unreachable_ray_address_fails_naming_ray_address_without_joining(fake_ray, monkeypatch):
    port = _closed_port()
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(ConnectionError) as info:
        replicas.connect_ray(None, timeout_s=2)
    message = str(info.value)
    assert f"cannot reach the Ray cluster at '127.0.0.1:{port}' (from RAY_ADDRESS) within 2 s" in message
    assert "set RAY_ADDRESS=local to start a local cluster" in message
    with pytest.raises(ConnectionError, match=r"'ray://127\.0\.0\.1:\d+' \(from --address\)"):
        replicas.connect_ray(f"ray://127.0.0.1:{port}", timeout_s=2)
    with pytest.raises(ConnectionError, match="from --address"):
        replicas.connect_ray("no-port-here", timeout_s=2)
    assert fake_ray.inits == []


def test_a_reachable_address_is_joined(fake_ray, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        address = f"127.0.0.1:{listener.getsockname()[1]}"
        replicas.connect_ray(address, timeout_s=2)
    assert fake_ray.inits == [address]


def test_cluster_command_with_an_unreachable_ray_address_exits_2_in_one_line(fake_ray, monkeypatch, capsys):
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{_closed_port()}")
    assert main(["cluster", "--replicas", "1", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("company-gateway cluster: cannot reach the Ray cluster at")
    assert "RAY_ADDRESS" in err
