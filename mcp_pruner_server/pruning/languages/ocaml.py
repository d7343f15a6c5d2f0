"""OCaml: its `let`, `module`, `class` and `method` (`syntax_grammars.ocaml_kind`); calls need no
parentheses."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.ml_code import ocaml_lines
from mcp_pruner_server.pruning.structure.syntax_grammars import ocaml_kind, ocaml_name

LANGUAGE = Language(
    name="ocaml",
    extensions=(".ml",),
    grammar=Grammar("tree_sitter_ocaml", "language_ocaml"),
    syntax=Syntax(kind=ocaml_kind, name=ocaml_name),
    calls=Calls(bare_words=re.compile(r"(?<![\w'~?])[a-z_][\w']*"), code_of=ocaml_lines),
)
