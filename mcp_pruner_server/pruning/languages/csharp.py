"""C#: a property or indexer whose accessors span lines is a unit."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="csharp",
    grep_shape="typed",
    extensions=(".cs", ".csx"),
    grammar=Grammar("tree_sitter_c_sharp"),
    syntax=Syntax(
        functions=frozenset({"property_declaration", "indexer_declaration"}), container_opener="class _ {"
    ),
    signs=(
        r"^using (?:static )?System\b[\w.]*;$",
        r"^\s*(?:(?:public|internal|private|protected) )?(?:static |sealed |abstract )*partial class ",
        r"\{ get; (?:(?:private |init; )?set; )?\}",
        r"^namespace \w+(?:\.\w+)+;?$|^namespace \w+;$",  # dotted, or file-scoped (C++ has neither)
    ),
)
