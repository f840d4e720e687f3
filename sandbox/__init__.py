"""Sandboxes: a workspace plus a place to run shell commands, behind one provider interface.

``get_provider("local", root=..., owner=...)`` gives a provider; providers are
imported lazily so optional backends cost nothing until used. This package
imports nothing from the rest of the project: a provider knows no session and
no app.
"""

from __future__ import annotations

from typing import Any

from sandbox.base import WORKSPACE, ExecResult, Provider, Sandbox, SandboxSpec, workspace_path
from sandbox.exceptions import (
    FileMissing,
    FileTooLarge,
    ProviderUnavailable,
    SandboxError,
    SandboxGone,
    TooManyEntries,
    WorkspacePathError,
)

__all__ = [
    "PROVIDERS",
    "WORKSPACE",
    "ExecResult",
    "FileMissing",
    "FileTooLarge",
    "Provider",
    "ProviderUnavailable",
    "Sandbox",
    "SandboxError",
    "SandboxGone",
    "SandboxSpec",
    "TooManyEntries",
    "WorkspacePathError",
    "get_provider",
    "workspace_path",
]

PROVIDERS = ("local", "docker", "opensandbox")
"""Every provider name ``get_provider`` knows."""

_NOT_YET: set[str] = set()


def get_provider(name: str, **options: Any) -> Provider:
    """Build the provider called ``name``, importing its module only now.

    Args:
        name: One of ``PROVIDERS``.
        **options: The provider's constructor arguments, e.g. for ``"local"``:
            ``root`` (Path), ``owner`` (str), ``use_bwrap`` (bool or None), ``hidden`` (paths); for ``"docker"``:
            ``owner`` (str), ``base_url`` (str), ``image`` (str), ``host_binds`` (list of str).

    Returns:
        A ready provider.

    Raises:
        ValueError: ``name`` is not a known provider.
        ProviderUnavailable: The provider is known but not available in this version, or its
            backend is missing (e.g. ``use_bwrap=True`` without bubblewrap).
    """
    if name == "local":
        from sandbox.local import LocalProvider

        return LocalProvider(**options)
    if name == "docker":
        try:
            from sandbox.docker import DockerProvider
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] not in ("docker", "requests", "urllib3"):
                raise
            raise ProviderUnavailable(
                "the 'docker' sandbox provider needs the docker SDK: pip install 'company-gateway[docker]'"
            ) from exc
        return DockerProvider(**options)
    if name == "opensandbox":
        try:
            from sandbox.opensandbox import OpenSandboxProvider
        except ModuleNotFoundError as exc:
            if (exc.name or "").partition(".")[0] != "opensandbox":
                raise
            raise ProviderUnavailable(
                "the 'opensandbox' sandbox provider needs its SDK: pip install 'company-gateway[opensandbox]'"
            ) from exc
        return OpenSandboxProvider(**options)
    if name in _NOT_YET:
        raise ProviderUnavailable(f"the {name!r} sandbox provider is not available yet; use 'local'")
    raise ValueError(f"unknown sandbox provider {name!r}; expected one of {', '.join(PROVIDERS)}")
