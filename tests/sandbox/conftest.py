"""Fixtures for the sandbox tests that need a real Docker Engine API (podman's socket here)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require_binary

REPO = Path(__file__).resolve().parents[2]
SOCKET_SCRIPT = REPO / "scripts" / "podman-socket.sh"
BUILD_SCRIPT = REPO / "examples" / "images" / "build-local.sh"
SOCKET_NAME = "company-gateway-podman"  # the name .ci/run starts, so a CI run reuses its socket
IMAGE = "localhost/company-sandbox:latest"
HOST_BINDS = ["/usr:/usr:ro", "/lib:/lib:ro", "/lib64:/lib64:ro"]


def _unavailable(reason: str) -> None:
    """Skip, or fail under CI=true (CI must run the engine tests for real)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires a Docker Engine API", pytrace=False)
    pytest.skip(reason)


def _ping(base_url: str) -> str | None:
    """``None`` when the engine at ``base_url`` answers, else why not."""
    import docker

    try:
        client = docker.DockerClient(base_url=base_url, timeout=10, version="1.44")
    except docker.errors.DockerException as exc:
        return str(exc)
    try:
        client.ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "no engine"; the reason is reported
        return str(exc)
    finally:
        client.close()
    return None


@pytest.fixture(scope="session")
def docker_host() -> Iterator[str]:
    """A ``DOCKER_HOST`` value whose engine answers and holds the sandbox image.

    Uses ``DOCKER_HOST`` when set (CI exports it); otherwise starts podman's socket with
    ``scripts/podman-socket.sh`` (stopped again at the end if this fixture started it).
    Builds the image with ``examples/images/build-local.sh`` when it is missing.
    """
    try:
        import docker  # noqa: F401
    except ModuleNotFoundError:
        _unavailable("the docker SDK is missing: pip install 'company-gateway[docker]'")
    started = False
    base_url = os.environ.get("DOCKER_HOST")
    if base_url:
        if (why := _ping(base_url)) is not None:
            _unavailable(f"DOCKER_HOST={base_url} does not answer: {why}")
    else:
        require_binary("podman")
        require_binary("runc")
        base_url = f"unix:///tmp/{SOCKET_NAME}.sock"
        started = _ping(base_url) is not None
        run = subprocess.run(
            ["bash", str(SOCKET_SCRIPT), SOCKET_NAME], capture_output=True, text=True, timeout=60, check=False
        )
        if run.returncode != 0:
            _unavailable(f"podman's API socket did not start: {run.stderr.strip()}")
        base_url = run.stdout.strip().removeprefix("DOCKER_HOST=")
    _ensure_image(base_url)
    yield base_url
    if started:
        subprocess.run(["bash", str(SOCKET_SCRIPT), "--stop", SOCKET_NAME], timeout=30, check=False)


def _ensure_image(base_url: str) -> None:
    import docker

    client = docker.DockerClient(base_url=base_url, timeout=30, version="1.44")
    try:
        client.images.get(IMAGE)
        return
    except docker.errors.ImageNotFound:
        pass
    finally:
        client.close()
    env = {**os.environ, "DOCKER_HOST": base_url}
    run = subprocess.run(
        ["bash", str(BUILD_SCRIPT), IMAGE], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    if run.returncode != 0:
        _unavailable(f"the sandbox image {IMAGE} could not be built: {run.stderr.strip()}")
