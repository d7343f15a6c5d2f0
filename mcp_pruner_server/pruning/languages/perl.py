"""Perl: subs as values and Moose modifiers (`syntax_scripts.py`); its POD is documentation."""

from __future__ import annotations

from typing import Any

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.language_hooks import PERL_HOOKS as HOOKS
from mcp_pruner_server.pruning.structure.syntax_scripts import blank_stray_cuts, script_kind, script_name


def _kind(node: Any) -> Found:
    return script_kind(node, "perl")


def _name(node: Any, name: str | None) -> str | None:
    return script_name(node, "perl", name)


LANGUAGE = Language(
    name="perl",
    extensions=(".pl", ".pm"),
    interpreters=("perl",),
    grammar=Grammar("tree_sitter_perl"),
    hooks=HOOKS,
    syntax=Syntax(own_kind=_kind, rename=_name, blanked=blank_stray_cuts, pod_docs=True),
)
