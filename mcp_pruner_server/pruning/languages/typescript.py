"""TypeScript."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="typescript",
    includes_signs_of="javascript",
    extensions=(".ts", ".mts", ".cts"),
    interpreters=("deno", "ts-node"),
    grammar=Grammar("tree_sitter_typescript", "language_typescript"),
    syntax=Syntax(container_opener="class _ {"),
    signs=(
        r"^\s*(?:export )?(?:declare )?(?:interface \w+|type \w+(?:<[^>]*>)?\s*=)",
        r"^\s*(?:export )?(?:declare )?(?:enum \w+ \{|abstract class )",
        r"^\s*(?:private|public|protected|readonly) \w+[?!]?:",
    ),
)
