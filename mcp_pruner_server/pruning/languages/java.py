"""Java."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="java",
    grep_shape="typed",
    extensions=(".java",),
    grammar=Grammar("tree_sitter_java"),
    syntax=Syntax(enum_containers=True, container_opener="class _ {"),
    signs=(
        r"^package [\w.]+;$",
        r"^import (?:static )?[\w.*]+;$",
        r"^(?:public |final |abstract )*(?:class|interface|enum) \w+",
    ),
)
