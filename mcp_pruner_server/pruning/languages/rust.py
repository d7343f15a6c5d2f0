"""Rust."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="rust",
    extensions=(".rs",),
    grammar=Grammar("tree_sitter_rust"),
    syntax=Syntax(container_opener="impl _ {"),
)
