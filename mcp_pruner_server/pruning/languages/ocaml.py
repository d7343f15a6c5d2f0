"""OCaml: its `let`, `module`, `class` and `method` (`ocaml_kind`); calls need no
parentheses."""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.ml_code import ocaml_lines
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text


def ocaml_kind(node: Node) -> tuple[str, Node] | None:
    """A `let` or `method` over several lines is a function; a `module X = struct … end`, an
    `include struct … end` and a `class c = object … end` hold their members."""
    t = node.type
    if t in ("value_definition", "method_definition"):
        return ("function", node) if node.end_point[0] > node.start_point[0] else None
    if t == "module_definition":
        binding = next((c for c in node.named_children if c.type == "module_binding"), None)
        body = (
            None
            if binding is None
            else next((c for c in binding.named_children if c.type == "structure"), None)
        )
    elif t == "include_module":
        body = next((c for c in node.named_children if c.type == "structure"), None)
    elif t == "class_definition":  # a class computed before its `object` (`let … in object`) is a chunk
        binding = next((c for c in node.named_children if c.type == "class_binding"), None)
        body = None if binding is None else binding.child_by_field_name("body")
        body = body if body is not None and body.type == "object_expression" else None
    else:
        return None
    return None if body is None else ("container", body)


# The nodes an OCaml definition binds its name in, and the name's node in each.
_OCAML_BINDINGS = {"let_binding": "pattern", "module_binding": "", "class_binding": ""}
_OCAML_NAMES = frozenset({"module_name", "class_name", "method_name"})


def ocaml_name(node: Node) -> str | None:
    """The name an OCaml `let`, `module`, `class` or `method` binds (its binding's `pattern`, or
    its module, class or method name)."""
    binding = next((c for c in node.named_children if c.type in _OCAML_BINDINGS), node)
    field = _OCAML_BINDINGS.get(binding.type)
    found = (binding.child_by_field_name(field) if field else None) or next(
        (c for c in binding.named_children if c.type in _OCAML_NAMES), None
    )
    return None if found is None else name_text(found)


LANGUAGE = Language(
    name="ocaml",
    extensions=(".ml",),
    grammar=Grammar("tree_sitter_ocaml", "language_ocaml"),
    syntax=Syntax(kind=ocaml_kind, name=ocaml_name),
    calls=Calls(bare_words=re.compile(r"(?<![\w'~?])[a-z_][\w']*"), code_of=ocaml_lines),
    # (`let f x =` and `open M` are F#'s too: `SHARED`; F# comments with `//`, OCaml with `(*`.)
    signs=(
        # a comment: `(* … *)`, `(**`, `(*` ending its line (Lisp's `(* a b)` multiplies)
        r"^module [A-Z]\w* = struct\b|^\s*(?:end|done);;$|^\(\*|^\s*\(\*(?:\*|\s*$|\s.*\*\)$)",
        r"^\s*(?:module type|external) |^\s*let%\w|\[@@?(?:deriving|inline|warning|ocaml)\b",
    ),
)
