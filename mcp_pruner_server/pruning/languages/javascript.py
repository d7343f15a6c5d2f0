"""JavaScript (and JSX)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="javascript",
    extensions=(".js", ".mjs", ".cjs", ".jsx"),
    interpreters=("node", "nodejs"),
    grammar=Grammar("tree_sitter_javascript"),
    syntax=Syntax(container_opener="class _ {"),
)
