"""Objective-C: an `@implementation` holds its methods, named by their selectors. A `.m` file is
MATLAB's when its lines say so (`matlab.py`)."""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_macro_lines

# Objective-C's `@implementation`, whose members are its direct children. An `@interface` only
# declares them (a `.m` file's class extension, `@interface Foo ()`): its lines are chunks, never a
# unit named like the class that outranks the methods it lists.
OBJC_CONTAINERS = frozenset({"class_implementation"})


def objc_selector(method: Node) -> str | None:
    """An Objective-C method's name: its selector's first part (`setImage` of `setImage:forKey:`)."""
    found = next((c for c in method.named_children if c.type == "identifier"), None)
    return None if found is None else name_text(found)


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
    signs=(
        r"^#import [<\"]",
        r"^@(?:interface|implementation|end|property|protocol|synthesize)\b",
        r"^[-+] \(\w",
    ),
)
