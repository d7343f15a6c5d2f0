"""Groovy (Gradle, Nextflow, Jenkins pipelines): Java's grammar with Groovy's additions, which
misreads much Groovy without many errors to show for it, so its parse is checked against the
heuristics' headers before it is trusted (`syntax_solidity_groovy.covers_headers`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="groovy",
    extensions=(".groovy", ".gradle", ".nf"),
    file_names=("jenkinsfile",),
    interpreters=("groovy",),
    grammar=Grammar("tree_sitter_groovy"),
    syntax=Syntax(partial=True, trailing_comments=True, container_opener="class _ {"),
)
