"""An OCaml interface (`.mli`) in its parse tree: each `val` / `external` with its doc is a unit.

A signature file declares without defining: `val f : t -> t` is one or a few lines, and what
tells it apart is its `(** … *)` doc, written above it or, as often, directly below it (the
ocamldoc rule: a doc comment right after an element with a blank line after it is that
element's). `module X : sig … end` and `module type S = sig … end` hold their members.
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

MLI_FUNCTIONS = frozenset({"value_specification", "external"})


def mli_kind(node: Node) -> tuple[str, Node] | None:
    """("function" | "container", the node holding its members) for a declaration, else None."""
    if node.type in MLI_FUNCTIONS:
        return "function", node
    if node.type == "module_type_definition":
        body = node.child_by_field_name("body")
        return None if body is None or body.type != "signature" else ("container", body)
    if node.type == "module_definition":
        binding = next((c for c in node.named_children if c.type == "module_binding"), None)
        body = None if binding is None else binding.child_by_field_name("module_type")
        return None if body is None or body.type != "signature" else ("container", body)
    return None


def mli_name(node: Node) -> str | None:
    """The name a `val`, `external` or `module` declares."""
    if node.type == "module_definition":
        node = next((c for c in node.named_children if c.type == "module_binding"), node)
    found = next(
        (c for c in node.named_children if c.type in ("value_name", "module_name", "module_type_name")), None
    )
    return None if found is None else name_text(found)


def doc_below_end(siblings: Sequence[Node], index: int, end: int) -> int:
    """The exclusive end of `siblings[index]` (`end`) with the doc comment directly below it,
    when a blank line (or nothing) follows that comment: else it is the next element's doc."""
    if index + 1 >= len(siblings):
        return end
    doc = siblings[index + 1]
    text = doc.text or b""
    if doc.type != "comment" or not text.startswith(b"(**") or int(doc.start_point[0]) != end:
        return end
    after = siblings[index + 2] if index + 2 < len(siblings) else None
    if after is not None and int(after.start_point[0]) <= int(doc.end_point[0]) + 1:
        return end
    return int(doc.end_point[0]) + 1


LANGUAGE = Language(
    name="ocaml_interface",
    extensions=(".mli",),
    grammar=Grammar("tree_sitter_ocaml", "language_ocaml_interface"),
    syntax=Syntax(kind=mli_kind, name=mli_name, doc_below=doc_below_end),
)
