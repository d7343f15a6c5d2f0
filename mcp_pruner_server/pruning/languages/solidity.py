"""Solidity: a `contract`, `library` or `interface` holds its members in a `contract_body`; a
function, constructor, modifier, `receive` / `fallback` is a unit with the NatSpec (`///`, `/** …
*/`) above it, and an event, struct, enum or error over several lines is one too (its fields are
what a question about it asks). A constructor and `receive` / `fallback` are named by their
keyword, as the language calls them (so is the unnamed `function()` of Solidity before 0.6, its
fallback). Which nodes define what, and their names, is its definitions query (`queries/solidity.scm`).
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import unwrapped
from mcp_pruner_server.pruning.structure.syntax_spans import (
    container_signature_end,
    signature_end,
)

SOLIDITY_CONTAINERS = frozenset({"contract_declaration", "library_declaration", "interface_declaration"})


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
        definitions="ours",
        unwrap=unwrapped,
        head_end=solidity_signature_end,
        head_end_of_containers=True,
        container_opener="contract _ {",
    ),
    # Solidity: `pragma solidity`, `contract` / `library`, a function's visibility and mutability
    # (`external view returns (`), events, errors, modifiers, `mapping(`, data locations, NatSpec.
    signs=(
        r"^\s*pragma solidity\b|^\s*(?:abstract\s+)?(?:contract|library)\s+\w+\s*(?:is\b|\{)"
        r"|^\s*interface\s+\w+\s+is\b",
        r"^\s*(?:function\s+\w*\s*\([^)]*\)|\))\s*(?:external|public|internal|private|pure|view|payable|virtual|"
        r"override|returns)\b",
        r"^\s*(?:event|error|modifier)\s+\w+\s*[({]|^\s*(?:emit|revert)\s+[A-Z]\w*\(|^\s*using\s+[A-Z]\w*\s+for\s",
        r"^\s*(?:mapping\s*\(|assembly\s*(?:\(\"[^\"]*\"\)\s*)?\{)|^import\s.*\.sol[\"'];$",
        r"^\s*(?:(?:///|\*)\s*@(?:notice|dev|inheritdoc|custom:\w)"
        r"|(?:u?int(?:8|16|32|64|128|256)|bytes(?:[1-9]\d?)?|address|string|bool)(?:\[\d*\])*\s+"
        r"(?:(?:public|private|internal|constant|immutable|memory|calldata|storage|payable)\b\s*)+)",
    ),
)
