"""Zig: types are values (`const Foo = struct { … };` holds its methods), and a function may
return one (`fn List(comptime T: type) type { return struct {…}; }`): its methods are what is
asked, so such a function always holds them as a container. A type bound to a constant is its
definitions query (`queries/zig.scm`).
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

# Its types, which are values (`return struct { … };` holds the methods of the type a function makes).
TYPES = frozenset({"struct_declaration", "union_declaration", "enum_declaration", "opaque_declaration"})


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
        definitions="ours",
        adds_to_shared=True,
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
