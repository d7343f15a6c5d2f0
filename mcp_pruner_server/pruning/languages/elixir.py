"""Elixir: its definitions are `def` calls (`syntax_elixir_julia.py`)."""

from __future__ import annotations

from typing import Any

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_elixir_julia import (
    elixir_annotates,
    elixir_kind,
    elixir_name,
    elixir_signature_end,
)


def _annotates(node: Any) -> bool:
    """Comments, and the `@doc`, `@spec`, `@impl` attributes above a `def`."""
    return "comment" in node.type or elixir_annotates(node)


LANGUAGE = Language(
    name="elixir",
    extensions=(".ex", ".exs"),
    interpreters=("elixir",),
    grammar=Grammar("tree_sitter_elixir"),
    syntax=Syntax(kind=elixir_kind, name=elixir_name, head_end=elixir_signature_end, annotates=_annotates),
)
