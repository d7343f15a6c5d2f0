"""Go."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="go",
    extensions=(".go",),
    grammar=Grammar("tree_sitter_go"),
    syntax=Syntax(brace_only=True),
    signs=(r"^package [a-z_]\w*\s*$", r"^func (?:\([^)]*\) )?\w+\(", r"^import \($"),
)
