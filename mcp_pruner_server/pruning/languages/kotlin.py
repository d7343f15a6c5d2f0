"""Kotlin: a property with accessors of its own over several lines is a unit."""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_newer_kotlin


def property_name(node: Node) -> str | None:
    """The name a Kotlin property declares (its `variable_declaration`'s identifier); Swift's
    has a `name` field."""
    declared = next((c for c in node.named_children if c.type == "variable_declaration"), None)
    found = (
        None
        if declared is None
        else next((c for c in declared.named_children if "identifier" in c.type), None)
    )
    return None if found is None else name_text(found)


def _property_named(node: Node, name: str | None) -> str | None:
    """A property is named by its `variable_declaration`."""
    return property_name(node) if name is None and node.type == "property_declaration" else name


LANGUAGE = Language(
    name="kotlin",
    extensions=(".kt", ".kts"),
    interpreters=("kotlin",),
    grammar=Grammar("tree_sitter_kotlin"),
    syntax=Syntax(
        accessors=frozenset({"getter", "setter"}),
        rename=_property_named,
        blanked=blank_newer_kotlin,
        container_opener="class _ {",
    ),
    signs=(
        # a function, an extension of a generic type too (`fun <K, V> Map<K, V>.f(`)
        r"^\s*(?:(?:public|private|internal|protected|override|open|abstract|suspend|inline|operator|"
        r"infix|tailrec|actual|expect)\s+)*fun\s+(?:<[^>]*>\s*)?(?:[\w.]+<[^()]*>\??\.)?[\w.`]+\(",
        r"^\s*(?:companion object\b|data class \w|sealed (?:class|interface) \w)|^@file:\w|this@[a-z]\w*\.",
        r"^\s*(?:(?:private|internal|override|lateinit)\s+)*va[lr] \w+(?:: [\w<>?, .]+)? by ",
    ),
)
