"""An OCaml interface (`.mli`) in its parse tree: each `val` / `external` with its doc is a unit.

A signature file declares without defining: `val f : t -> t` is one or a few lines, and what
tells it apart is its `(** … *)` doc, written above it or, as often, directly below it (the
ocamldoc rule: a doc comment right after an element with a blank line after it is that
element's). `module X : sig … end` and `module type S = sig … end` hold their members. Which
nodes declare what, and their names, is its definitions query (`queries/ocaml_interface.scm`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax


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
    syntax=Syntax(definitions="ours", doc_below=doc_below_end),
)
