"""OCaml: its `let` and `method` over several lines are units, its `module … = struct`, `include
struct` and `class … = object` hold them (its definitions query, `queries/ocaml.scm`); calls need
no parentheses."""

from __future__ import annotations

import re

from mcp_pruner_server.pruning.languages.record import Calls, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.ml_code import ocaml_lines

LANGUAGE = Language(
    name="ocaml",
    extensions=(".ml",),
    grammar=Grammar("tree_sitter_ocaml", "language_ocaml"),
    syntax=Syntax(definitions="ours"),
    calls=Calls(bare_words=re.compile(r"(?<![\w'~?])[a-z_][\w']*"), code_of=ocaml_lines),
    # (`let f x =` and `open M` are F#'s too: `SHARED`; F# comments with `//`, OCaml with `(*`.)
    signs=(
        # a comment: `(* … *)`, `(**`, `(*` ending its line (Lisp's `(* a b)` multiplies)
        r"^module [A-Z]\w* = struct\b|^\s*(?:end|done);;$|^\(\*|^\s*\(\*(?:\*|\s*$|\s.*\*\)$)",
        r"^\s*(?:module type|external) |^\s*let%\w|\[@@?(?:deriving|inline|warning|ocaml)\b",
    ),
)
