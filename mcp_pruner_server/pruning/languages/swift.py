"""Swift: a computed property over several lines is a unit."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="swift",
    extensions=(".swift",),
    interpreters=("swift",),
    grammar=Grammar("tree_sitter_swift"),
    syntax=Syntax(accessors=frozenset({"computed_property"}), container_opener="class _ {"),
)
