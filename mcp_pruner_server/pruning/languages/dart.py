"""Dart: a function is its signature and the body after it."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

# Dart gives a function as two siblings: its signature, then its `function_body` (a member's is a
# `method_signature`; a top-level getter or setter has its own).
DART_SIGNATURES = frozenset(
    {"method_signature", "function_signature", "getter_signature", "setter_signature"}
)


LANGUAGE = Language(
    name="dart",
    grep_shape="typed",
    extensions=(".dart",),
    grammar=Grammar("tree_sitter_dart"),
    syntax=Syntax(enum_containers=True, bodiless_signatures=DART_SIGNATURES, container_opener="class _ {"),
    signs=(
        r"^(?:import|export) '(?:package|dart):|^(?:import|export|part) '[^']*\.dart'",
        r"^part (?:of )?'",
        r"^\s*@override$",
        # `late`, `final x = …;` (Java's `final` has a type, Groovy's no `;`), a getter `get x =>`,
        # `{required T x}`, `factory`
        r"^\s*(?:late\s+(?:final\s+)?\w|(?:static\s+)?final [a-z_]\w* = .*;$|factory [A-Z]\w*(?:\.\w+)?\("
        r"|mixin [A-Z])"
        r"|get(?<=\bget) \w+ (?:=>|\{)|\{required [A-Za-z]",
    ),
)
