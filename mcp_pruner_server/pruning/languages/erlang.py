"""Erlang: no grammar wheel; its own scan (`erlang_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.erlang_blocks import erlang_blocks

LANGUAGE = Language(
    name="erlang",
    extensions=(".erl", ".hrl"),
    scanner=erlang_blocks,
)
