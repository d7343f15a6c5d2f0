"""Objective-C: an `@implementation` holds its methods, named by their selectors. A `.m` file is
MATLAB's when its lines say so (`matlab.py`)."""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import OBJC_CONTAINERS, objc_selector
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_macro_lines


def _kind(node: Node) -> Found:
    """`@implementation X … @end`: its members are its children."""
    return ("container", node) if node.type in OBJC_CONTAINERS else None


def _selector_named(node: Node, name: str | None) -> str | None:
    """A method is named by its selector's first part."""
    return objc_selector(node) if name is None and node.type == "method_definition" else name


LANGUAGE = Language(
    name="objc",
    grep_shape="typed",
    extensions=(".m",),
    grammar=Grammar("tree_sitter_objc"),
    syntax=Syntax(
        own_kind=_kind,
        rename=_selector_named,
        blanked=blank_macro_lines,
        container_opener="@implementation _",
        methods_inside=True,
    ),
)
