"""Zig: types are values (`const Foo = struct { … };` holds its methods), and a function may
return one (`fn List(comptime T: type) type { return struct {…}; }`): its methods are what is
asked, so such a function always holds them as a container.
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

TYPES = frozenset({"struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration"})


def _kind(node: Node) -> Found:
    """`const Foo = struct { … };`: the type's body holds its methods."""
    if node.type == "variable_declaration":
        body = next((c for c in node.named_children if c.type in TYPES), None)
        return None if body is None else ("container", body)
    return None


def _name(node: Node, found: str | None) -> str | None:
    """The name a `const Name = struct {…}` binds, where the `name` field gives none."""
    if found is not None or node.type != "variable_declaration":
        return found
    identifier = next((c for c in node.named_children if c.type == "identifier"), None)
    return None if identifier is None else name_text(identifier)


def _returns_type(function: Node) -> bool:
    """Whether a function's result is a type (`fn List(comptime T: type) type`)."""
    if function.type != "function_declaration":
        return False
    result = function.child_by_field_name("type")
    return result is not None and result.text == b"type"


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
    signs=(
        r"@import\(\"",
        r"^\s*(?:pub\s+)?(?:inline\s+|export\s+)?fn \w+\(.*\)\s+[!?\w\[*][^{]*\{$",  # Rust writes `->`
        r"^\s*(?:errdefer|comptime)\b",
    ),
)
