"""Ada: packages hold subprograms, a body (`.adb`) their bodies, a declaration (`.ads`) their
specifications; each file's units sit in a `compilation_unit` the walk goes through. Which nodes
define what, and their names, is its definitions query (`queries/ada.scm`).
"""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="ada",
    extensions=(".adb", ".ads", ".ada"),
    grammar=Grammar("tree_sitter_ada"),
    syntax=Syntax(definitions="ours", transparent=frozenset({"compilation_unit"})),
    # Ada: `with A.B; use A.B;`, `package body X is`, `procedure X (…) is` (C#'s `out Value)` is
    # no sign: its parameters' `in out` are left out).
    signs=(
        r"^with [A-Z][\w.]*(?:\s*,\s*[A-Z][\w.]*)*;\s*(?:use [A-Z][\w.]*;)?$",
        r"^\s*package (?:body )?[A-Z][\w.]* is$",
        r"^\s*(?:overriding )?(?:procedure|function) [A-Z]\w* (?:\(.*\) )?(?:return [A-Z][\w.]* )?is$",
    ),
)
