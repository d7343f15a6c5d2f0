"""Zig: types are values (`const Foo = struct { … };`), and a function may return one."""

from __future__ import annotations

from typing import Any

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_scripts import returns_type, script_kind, script_name

# Zig's types are values: `const Foo = struct { … };` holds its methods.
TYPES = frozenset({"struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration"})


def _kind(node: Any) -> Found:
    found = script_kind(node, "zig")
    if found is None and node.type == "variable_declaration":  # `const Foo = struct { … };`
        body = next((c for c in node.named_children if c.type in TYPES), None)
        return None if body is None else ("container", body)
    return found


def _name(node: Any, name: str | None) -> str | None:
    return script_name(node, "zig", name)


def _returns_type(node: Any) -> bool:
    return returns_type(node, "zig")


LANGUAGE = Language(
    name="zig",
    extensions=(".zig",),
    grammar=Grammar("tree_sitter_zig"),
    syntax=Syntax(
        own_kind=_kind,
        rename=_name,
        type_values=TYPES,
        returns_type=_returns_type,
        container_opener="const _ = struct {",
    ),
)
