"""Every package's public surface is its ``__all__``, and nothing reaches past it.

Modelled on httpx's ``tests/test_exported_members.py``, extended over the whole tree: for every
module of the five packages, each name in ``__all__`` exists, and every ``from M import name``
anywhere in the packages takes either a submodule of ``M`` or a name in ``M.__all__``. A helper
used across modules is public (listed); one used in its own module only has a leading underscore.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tools", "gateway", "cli_shim", "docs_tool", "sandbox")


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        pkg = importlib.import_module(package)
        names += [m.name for m in pkgutil.walk_packages(pkg.__path__, f"{package}.") if not m.name.endswith("__main__")]
    return sorted(names)


MODULES = _modules()


def _source(name: str) -> Path:
    path = ROOT / Path(*name.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@pytest.mark.parametrize("name", MODULES)
def test_every_exported_name_exists(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # an optional backend (ray, docker, opensandbox) that is not installed
        pytest.skip(f"{name}: {exc}")
    exported = getattr(module, "__all__", None)
    if exported is None:
        assert not _source(name).read_text().strip(), f"{name} declares no __all__"
        return
    for member in exported:
        assert hasattr(module, member), f"{name}.{member} is in __all__ but does not exist"


def _imports_of(name: str) -> list[tuple[str, str, int]]:
    tree = ast.parse(_source(name).read_text())
    out = []
    package = name if _source(name).name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] in PACKAGES:
                out += [(base, alias.name, node.lineno) for alias in node.names]
    return out


@pytest.mark.parametrize("name", MODULES)
def test_imports_take_only_exported_names(name: str) -> None:
    bypasses = []
    for base, member, line in _imports_of(name):
        if importlib.util.find_spec(f"{base}.{member}") is not None if _is_package(base) else False:
            continue  # a submodule
        try:
            module = importlib.import_module(base)
        except ImportError:
            continue
        exported = getattr(module, "__all__", None)
        if exported is not None and member not in exported:
            bypasses.append(f"line {line}: {base}.{member}")
    assert not bypasses, f"{name} takes names its source module does not export: {bypasses}"


def _is_package(name: str) -> bool:
    return _source(name).name == "__init__.py"


def test_the_private_modules_contract_names_every_private_app_module() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in config if c["name"].startswith("Nothing outside an app imports its private")]
    covered = {m.rpartition(".")[2] for m in contract["forbidden_modules"]}
    private = {p.stem for p in (ROOT / "tools" / "apps").glob("*/_*.py") if p.name != "__init__.py"}
    assert private <= covered, f"add {sorted(private - covered)} to the contract's forbidden_modules"
