"""Rust."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="rust",
    extensions=(".rs",),
    grammar=Grammar("tree_sitter_rust"),
    syntax=Syntax(container_opener="impl _ {"),
    signs=(
        r"^\s*(?:pub(?:\([\w:]+\))? )?(?:async |unsafe |const )*fn \w+[<(]",
        r"^use [\w:{}, *]+;$",
        r"^impl\b",
        r"^\s*#!?\[\w",
    ),
    narrower_signs=frozenset({"zig", "perl"}),  # and Perl's `use strict;`, `use Foo::Bar;`
)
