"""Python: its blocks found by indentation (`code_blocks.py`), as well as its parser finds them."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language

LANGUAGE = Language(
    name="python",
    extensions=(".py", ".pyi", ".pyw"),
    interpreters=("python",),
)
