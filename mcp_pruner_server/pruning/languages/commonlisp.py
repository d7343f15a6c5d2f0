"""Common Lisp: known by its extension, read by the heuristics."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language

LANGUAGE = Language(
    name="commonlisp",
    extensions=(".lisp", ".lsp"),
)
