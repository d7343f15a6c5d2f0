"""Objective-C: an `@implementation` holds its methods, named by their selectors (its definitions
query, `queries/objc.scm`). A `.m` file is MATLAB's when its lines say so (`matlab.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_macro_lines

LANGUAGE = Language(
    name="objc",
    includes_signs_of="c",
    grep_shape="typed",
    extensions=(".m",),
    grammar=Grammar("tree_sitter_objc"),
    syntax=Syntax(
        definitions="ours",
        adds_to_shared=True,
        blanked=blank_macro_lines,
        container_opener="@implementation _",
        methods_inside=True,
    ),
    signs=(
        r"^#import [<\"]",
        r"^@(?:interface|implementation|end|property|protocol|synthesize)\b",
        r"^[-+] \(\w",
    ),
)
