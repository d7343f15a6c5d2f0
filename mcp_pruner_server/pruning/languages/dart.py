"""Dart: a function is its signature and the body after it."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import DART_SIGNATURES

LANGUAGE = Language(
    name="dart",
    grep_shape="typed",
    extensions=(".dart",),
    grammar=Grammar("tree_sitter_dart"),
    syntax=Syntax(enum_containers=True, bodiless_signatures=DART_SIGNATURES, container_opener="class _ {"),
)
