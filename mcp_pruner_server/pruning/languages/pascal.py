"""Delphi and Free Pascal: no grammar wheel; its own scan (`pascal_blocks.py`). A `.pp` file is
Puppet's too: Pascal's when its lines say so."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.pascal_blocks import is_pascal, pascal_blocks

LANGUAGE = Language(
    name="pascal",
    extensions=(".pas", ".dpr", ".lpr", ".dpk"),
    scanner=pascal_blocks,
    claims=(".pp",),
    recognises=is_pascal,
)
