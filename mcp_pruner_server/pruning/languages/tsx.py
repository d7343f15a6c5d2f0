"""TypeScript with JSX."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="tsx",
    extensions=(".tsx",),
    grammar=Grammar("tree_sitter_typescript", "language_tsx"),
    syntax=Syntax(container_opener="class _ {"),
)
