"""Erlang: no grammar wheel; its own scan (`erlang_blocks.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Language
from mcp_pruner_server.pruning.structure.erlang_blocks import erlang_blocks

LANGUAGE = Language(
    name="erlang",
    extensions=(".erl", ".hrl"),
    scanner=erlang_blocks,
    # Erlang: a module's attributes at column 0 (`-module(x).`, `-export([f/1]).`, `-spec f(T) -> R.`);
    # a diff's removed line has them too, but only when it removes Erlang.
    signs=(
        r"^-(?:module|export|export_type|spec|type|opaque|record|include|include_lib|define|behaviou?r|callback|"
        r"compile|doc|moduledoc|ifdef|ifndef|endif)\b",
    ),
)
