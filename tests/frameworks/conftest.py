"""Fixtures for the framework tests: the Docker Engine API fixture the sandbox tests use."""

from tests.sandbox.conftest import docker_host

__all__ = ["docker_host"]
