"""PHP, in HTML too; a fragment without `<?` is parsed as PHP alone (`php_only.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="php",
    first_line="<?php",
    extensions=(".php", ".phtml"),
    interpreters=("php",),
    grammar=Grammar("tree_sitter_php", "language_php"),
    fragment="php_only",
    syntax=Syntax(enum_containers=True, container_opener="class _ {"),
    signs=(r"^<\?php\b", r"^\s*(?:namespace|use) \w+\\[\w\\]+;$", r"\$this->\w"),
)
