"""R: no grammar wheel; its definitions found by its own scan (`r_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.language_hooks import R_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.r_blocks import r_blocks

LANGUAGE = Language(
    name="r",
    extensions=(".r",),
    interpreters=("Rscript",),
    scanner=r_blocks,
    hooks=HOOKS,
)
