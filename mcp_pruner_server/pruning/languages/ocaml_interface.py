"""An OCaml interface (`.mli`): its `val`s, each with the doc below it (`syntax_mli.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_mli import mli_kind, mli_name

LANGUAGE = Language(
    name="ocaml_interface",
    extensions=(".mli",),
    grammar=Grammar("tree_sitter_ocaml", "language_ocaml_interface"),
    syntax=Syntax(kind=mli_kind, name=mli_name, doc_below=True),
)
