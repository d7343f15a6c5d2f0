"""Lua: functions are also values assigned to a table's fields (`syntax_scripts.py`)."""

from __future__ import annotations

from typing import Any

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_scripts import script_kind, script_name


def _kind(node: Any) -> Found:
    return script_kind(node, "lua")


def _name(node: Any, name: str | None) -> str | None:
    return script_name(node, "lua", name)


LANGUAGE = Language(
    name="lua",
    extensions=(".lua",),
    interpreters=("lua",),
    grammar=Grammar("tree_sitter_lua"),
    syntax=Syntax(own_kind=_kind, rename=_name),
)
