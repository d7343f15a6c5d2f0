"""Solidity: a `contract`, `library` or `interface` holds its members in a `contract_body`; a
function, constructor, modifier, `receive` / `fallback` is a unit with the NatSpec (`///`, `/** …
*/`) above it, and an event, struct, enum or error over several lines is one too (its fields are
what a question about it asks). A constructor and `receive` / `fallback` are named by their
keyword, as the language calls them (so is the unnamed `function()` of Solidity before 0.6, its
fallback).
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text, unwrapped
from mcp_pruner_server.pruning.structure.syntax_spans import (
    container_signature_end,
    signature_end,
)

SOLIDITY_CONTAINERS = frozenset({"contract_declaration", "library_declaration", "interface_declaration"})


SOLIDITY_FUNCTIONS = frozenset(
    {"function_definition", "constructor_definition", "modifier_definition", "fallback_receive_definition"}
)


# Declarations that are a unit only over several lines (a one-line `event Paid(uint a);` is a chunk).
SOLIDITY_DECLARATIONS = frozenset(
    {"event_definition", "struct_declaration", "enum_declaration", "error_declaration"}
)


SOLIDITY_KEYWORD_NAMES = {"constructor_definition": "constructor"}


def _multi_line(node: Node) -> bool:
    return bool(node.end_point[0] > node.start_point[0])


def solidity_kind(node: Node) -> tuple[str, Node] | None:
    t = node.type
    if t in SOLIDITY_CONTAINERS:
        body = node.child_by_field_name("body")
        return None if body is None else ("container", body)
    if t in SOLIDITY_FUNCTIONS or (t in SOLIDITY_DECLARATIONS and _multi_line(node)):
        return "function", node
    return None


def solidity_name(node: Node) -> str | None:
    if node.type in SOLIDITY_KEYWORD_NAMES:
        return SOLIDITY_KEYWORD_NAMES[node.type]
    if node.type == "fallback_receive_definition":  # `receive() external payable`, `fallback(…)`
        first = node.child(0) if node.child_count else None
        keyword = None if first is None else name_text(first)
        return "fallback" if keyword == "function" else keyword  # before 0.6: `function() payable`
    found = node.child_by_field_name("name")
    return None if found is None else name_text(found)


def solidity_signature_end(node: Node, header: int) -> int:
    if node.type in SOLIDITY_CONTAINERS:
        body = node.child_by_field_name("body")
        return header + 1 if body is None else container_signature_end(body, header)
    return signature_end(node, header)


LANGUAGE = Language(
    name="solidity",
    extensions=(".sol",),
    grammar=Grammar("tree_sitter_solidity"),
    syntax=Syntax(
        kind=solidity_kind,
        unwrap=unwrapped,
        name=solidity_name,
        head_end=solidity_signature_end,
        head_end_of_containers=True,
        container_opener="contract _ {",
    ),
)
