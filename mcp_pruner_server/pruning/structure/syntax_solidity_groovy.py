"""Solidity's definitions in their parse trees, which the shared tables cannot describe, and when
Groovy's parse is trusted.

Solidity: a `contract`, `library` or `interface` holds its members in a `contract_body`; a
function, constructor, modifier, `receive` / `fallback` is a unit with the NatSpec (`///`,
`/** … */`) above it, and an event, struct, enum or error over several lines is one too (its
fields are what a question about it asks). A constructor and `receive` / `fallback` are named
by their keyword, as the language calls them (so is the unnamed `function()` of Solidity before
0.6, its fallback).

Groovy's grammar is Java's with Groovy's additions, and the shared tables read it; but it misreads
much Groovy without many errors to show for it, so its parse is checked against the heuristics'
headers before it is trusted (`covers_headers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcp_pruner_server.pruning.structure.code_blocks import Block, is_header
from mcp_pruner_server.pruning.structure.syntax_grammars import Reader, name_text, unwrapped
from mcp_pruner_server.pruning.structure.syntax_spans import container_signature_end, signature_end

SOLIDITY_CONTAINERS = frozenset({"contract_declaration", "library_declaration", "interface_declaration"})
SOLIDITY_FUNCTIONS = frozenset(
    {"function_definition", "constructor_definition", "modifier_definition", "fallback_receive_definition"}
)
# Declarations that are a unit only over several lines (a one-line `event Paid(uint a);` is a chunk).
SOLIDITY_DECLARATIONS = frozenset(
    {"event_definition", "struct_declaration", "enum_declaration", "error_declaration"}
)
SOLIDITY_KEYWORD_NAMES = {"constructor_definition": "constructor"}


def _multi_line(node: Any) -> bool:
    return bool(node.end_point[0] > node.start_point[0])


def solidity_kind(node: Any) -> tuple[str, Any] | None:
    t = node.type
    if t in SOLIDITY_CONTAINERS:
        body = node.child_by_field_name("body")
        return None if body is None else ("container", body)
    if t in SOLIDITY_FUNCTIONS or (t in SOLIDITY_DECLARATIONS and _multi_line(node)):
        return "function", node
    return None


def solidity_name(node: Any) -> str | None:
    if node.type in SOLIDITY_KEYWORD_NAMES:
        return SOLIDITY_KEYWORD_NAMES[node.type]
    if node.type == "fallback_receive_definition":  # `receive() external payable`, `fallback(…)`
        first = node.child(0) if node.child_count else None
        keyword = None if first is None else name_text(first)
        return "fallback" if keyword == "function" else keyword  # before 0.6: `function() payable`
    found = node.child_by_field_name("name")
    return None if found is None else name_text(found)


def solidity_signature_end(node: Any, header: int) -> int:
    if node.type in SOLIDITY_CONTAINERS:
        body = node.child_by_field_name("body")
        return header + 1 if body is None else container_signature_end(body, header)
    return signature_end(node, header)


READERS = {
    "solidity": Reader(solidity_kind, unwrapped, solidity_name, solidity_signature_end),
}


# Grammars that misread much of their language and say so with few errors (Groovy's: a field
# without `;` swallows the method after it, `i<n` reads as a generic, a `trait` as a call): a parse
# of theirs is trusted only where its definitions head or hold most of the lines the heuristics
# read as headers (in much real Groovy it finds barely half the methods, with few error nodes).
PARTIAL_GRAMMARS = frozenset({"groovy"})
MIN_HEADER_COVERAGE = 0.8


def covers_headers(blocks: Sequence[Block], text: str) -> bool:
    """Whether the definitions `blocks` head or hold most of the lines of `text` that
    `code_blocks.is_header` reads as definition headers."""
    lines = text.split("\n")
    covered = [False] * len(lines)
    for b in blocks:
        if b.container:
            covered[b.header] = True
        else:
            covered[b.header : b.end] = [True] * (b.end - b.header)
    headers = [i for i, line in enumerate(lines) if is_header(line)]
    return sum(covered[i] for i in headers) >= MIN_HEADER_COVERAGE * len(headers)
