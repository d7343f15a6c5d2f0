"""Solidity: contracts and their functions (`syntax_solidity_groovy.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_solidity_groovy import READERS

READER = READERS["solidity"]


LANGUAGE = Language(
    name="solidity",
    extensions=(".sol",),
    grammar=Grammar("tree_sitter_solidity"),
    syntax=Syntax(
        kind=READER.kind,
        unwrap=READER.unwrap,
        name=READER.name,
        head_end=READER.signature_end,
        head_end_of_containers=True,
        container_opener="contract _ {",
    ),
)
