"""A PHP fragment without `<?php` (else the whole of it would be HTML text)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="php_only",
    grammar=Grammar("tree_sitter_php", "language_php_only"),
    syntax=Syntax(enum_containers=True, container_opener="class _ {"),
)
