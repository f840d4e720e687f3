import ast
import sys
from pathlib import Path

import pytest

import sandbox
from sandbox import (
    FileMissing,
    ProviderUnavailable,
    SandboxError,
    SandboxGone,
    WorkspacePathError,
    get_provider,
)
from sandbox.local import LocalProvider


def test_exported_members_are_defined_and_documented():
    for name in sandbox.__all__:
        member = getattr(sandbox, name)
        if callable(member):
            assert member.__doc__, f"{name} has no docstring"
    assert sorted(sandbox.__all__) == sorted(set(sandbox.__all__))


def test_every_public_module_declares_all():
    for module in ("base", "exceptions", "local"):
        imported = __import__(f"sandbox.{module}", fromlist=["__all__"])
        for name in imported.__all__:
            assert hasattr(imported, name), f"sandbox.{module}.__all__ names missing {name}"


def test_sandbox_imports_nothing_from_the_rest_of_the_project():
    project = {"tools", "gateway", "cli_shim", "docs_tool", "examples"}
    for path in Path(sandbox.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert not roots & project, f"{path.name} imports {roots & project}"


def test_error_tree_matches_its_docstring():
    assert issubclass(ProviderUnavailable, SandboxError)
    assert issubclass(SandboxGone, ProviderUnavailable)
    assert issubclass(FileMissing, SandboxError)
    assert not issubclass(FileMissing, ProviderUnavailable)
    assert issubclass(WorkspacePathError, SandboxError)
    assert not issubclass(WorkspacePathError, ProviderUnavailable)


def test_get_provider_builds_the_local_provider(tmp_path):
    provider = get_provider("local", root=tmp_path, owner="me", use_bwrap=False)
    assert isinstance(provider, LocalProvider)
    assert provider.owner == "me"


@pytest.mark.parametrize("name", ["docker", "opensandbox"])
def test_get_provider_names_the_extra_when_the_sdk_is_missing(name, monkeypatch):
    monkeypatch.setitem(sys.modules, name, None)  # import of the SDK now fails
    for module in [m for m in sys.modules if m == f"sandbox.{name}" or m.startswith(f"sandbox.{name}.")]:
        monkeypatch.delitem(sys.modules, module)
    with pytest.raises(ProviderUnavailable, match=rf"pip install 'company-gateway\[{name}\]'"):
        get_provider(name, owner="x")


def test_get_provider_refuses_unknown_names_and_lists_known_ones():
    with pytest.raises(ValueError, match="unknown sandbox provider 'k8s'.*local, docker, opensandbox"):
        get_provider("k8s")
