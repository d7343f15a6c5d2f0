"""Julia (`syntax_elixir_julia.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_elixir_julia import (
    julia_kind,
    julia_name,
    julia_signature_end,
    julia_unwrap,
)

LANGUAGE = Language(
    name="julia",
    extensions=(".jl",),
    interpreters=("julia",),
    grammar=Grammar("tree_sitter_julia"),
    syntax=Syntax(kind=julia_kind, unwrap=julia_unwrap, name=julia_name, head_end=julia_signature_end),
)
