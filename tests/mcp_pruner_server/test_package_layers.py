"""Imports between the server's packages run one way: a lower package never imports an upper one
(the tools are registered by the pipeline, the gateway is installed by the HTTP app), type-only
imports included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mcp_pruner_server"

# (lower, upper): no module of `lower` imports a module of `upper`.
ONE_WAY = [
    ("tools", "pipeline"),
    ("gateway", "http"),
    ("jsonrpc.py", "errors"),
    ("jsonrpc.py", "http"),
    ("urls.py", "http"),
]


def _imported(path: Path) -> set[str]:
    """Every module `path` imports, absolute (`from . import x` is resolved against the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _modules(part: str) -> list[Path]:
    path = PACKAGE / part
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


@pytest.mark.parametrize(("lower", "upper"), ONE_WAY)
def test_a_lower_package_imports_nothing_of_an_upper_one(lower: str, upper: str) -> None:
    upper_name = "mcp_pruner_server." + upper
    back = {
        str(module.relative_to(PACKAGE)): sorted(
            name for name in _imported(module) if name == upper_name or name.startswith(upper_name + ".")
        )
        for module in _modules(lower)
    }
    assert {module: names for module, names in back.items() if names} == {}
