"""Scala: calls with type arguments (`f[A](x)`) or no parentheses (`xs.size`)."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax

LANGUAGE = Language(
    name="scala",
    extensions=(".scala", ".sc"),
    interpreters=("scala", "scala-cli"),
    grammar=Grammar("tree_sitter_scala"),
    syntax=Syntax(trailing_comments=True, container_opener="class _ {"),
    calls=Calls(shape=re.compile(r"(?<![\w$])[A-Za-z_][\w$]*(?=\s*[(\[])|(?<=\.)[A-Za-z_][\w$]*")),
)
