"""C: a `.h` header is C++'s when its lines say so (`cpp.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_c_macros

LANGUAGE = Language(
    name="c",
    grep_shape="typed",
    extensions=(".c", ".h"),
    grammar=Grammar("tree_sitter_c"),
    syntax=Syntax(blanked=blank_c_macros, brace_only=True),
    signs=(
        r"^#include\s*[<\"]",
        r"^#define \w",
        r"^(?:static )?(?:inline )?(?:const )?(?:unsigned |struct )?\w+\s*\*?\s*\w+\([^;]*\)\s*$",
    ),
    # a call alone on a line (`library(x)`) reads as a declaration, and so does `function f(x::T)`
    narrower_signs=frozenset({"r", "matlab", "julia"}),
)
