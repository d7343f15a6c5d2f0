"""F#: its `let`s and members (`syntax_fsharp_fortran.py`); its grammar parses ~2 MB/s, so its
bound is smaller for the same ~0.1 s."""

from __future__ import annotations

import re
from typing import Any

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.ml_code import fsharp_lines
from mcp_pruner_server.pruning.structure.syntax_fsharp_fortran import READERS

READER = READERS["fsharp"]


def _annotates(node: Any) -> bool:
    """Its `///` docs are `xml_doc` nodes, a line each; `[<Attributes>]` belong to what they precede."""
    return "comment" in node.type or node.type in ("xml_doc", "attributes")


LANGUAGE = Language(
    name="fsharp",
    extensions=(".fs", ".fsx"),
    grammar=Grammar("tree_sitter_fsharp"),
    max_parse_chars=250_000,
    syntax=Syntax(
        kind=READER.kind,
        unwrap=READER.unwrap,
        name=READER.name,
        head_end=READER.signature_end,
        head_end_of_containers=True,
        trailing_comments=True,
        annotates=_annotates,
    ),
    calls=Calls(bare_words=re.compile(r"(?<![\w'~?])[A-Za-z_][\w']*"), code_of=fsharp_lines),
)
