"""Haskell: a function is its type signature and its equations."""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import HASKELL_ANNOTATIONS, HASKELL_FUNCTIONS


def _annotates(node: Node) -> bool:
    """Its `-- |` doc, type signature and pragmas sit above an equation and belong to it."""
    return node.type in HASKELL_ANNOTATIONS or "comment" in node.type


LANGUAGE = Language(
    name="haskell",
    extensions=(".hs",),
    interpreters=("runhaskell", "runghc"),
    grammar=Grammar("tree_sitter_haskell"),
    syntax=Syntax(equations=HASKELL_FUNCTIONS, annotates=_annotates),
)
