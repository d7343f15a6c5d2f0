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
    signs=(
        r"^\s*(?:(?:override|final|private|protected|implicit)(?:\[\w+\])?\s+)*def \w+(?:\[[^\]]*\])?"
        r"(?:\(.*\))*\s*:\s*[\w\[(]",  # a return type after `:` (Python's `def f(x):` ends there)
        r"^\s*(?:sealed |abstract )?(?:trait \w+|case class \w+|(?:case )?object \w+ (?:extends|\{))",
        r"^import [\w.]+\.(?:_|\{[^}]*\}|given)$",
    ),
)
