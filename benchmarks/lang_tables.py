"""The languages `lang_sets.py` builds task sets for: their files, grammars and node types.

The builder's own lists, independent of the engine's (`mcp_pruner_server/pruning/structure/
syntax_grammars.py`): a set must not be built by the rules it is meant to test. Each table is
keyed by the `--lang` name; a language added here needs a row in `EXTENSIONS` and `FUNCTIONS`
(and in `GRAMMAR` when its wheel's module is not `tree_sitter_<lang>`).
"""

from __future__ import annotations

EXTENSIONS = {
    "js": (".js", ".mjs", ".cjs"),
    "ts": (".ts",),
    "go": (".go",),
    "rust": (".rs",),
    "c": (".c",),
    "java": (".java",),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"),  # `.h` from C++ trees: the engine sniffs it
    "csharp": (".cs",),
    "ruby": (".rb",),
    "php": (".php",),
    "bash": (".sh", ".bash", ""),  # extensionless: a `sh`/`bash` shebang, or file(1) says shell
    "kotlin": (".kt",),
    "swift": (".swift",),
    "scala": (".scala",),
    "lua": (".lua",),
    "zig": (".zig",),
    "perl": (".pm", ".pl"),
    "julia": (".jl",),
    "elixir": (".ex",),
    "haskell": (".hs",),
    "dart": (".dart",),
    "ocaml": (".ml",),
    "objc": (".m",),
}
# The function-like nodes of each grammar (the builder's own list, independent of the engine's).
FUNCTIONS = {
    "js": {"function_declaration", "generator_function_declaration", "method_definition", "arrow_function"},
    "ts": {"function_declaration", "generator_function_declaration", "method_definition", "arrow_function"},
    "go": {"function_declaration", "method_declaration"},
    "rust": {"function_item"},
    "c": {"function_definition"},
    "java": {"method_declaration", "constructor_declaration"},
    "cpp": {"function_definition"},
    "csharp": {"method_declaration", "constructor_declaration"},
    "ruby": {"method", "singleton_method"},
    "php": {"function_definition", "method_declaration"},
    "bash": {"function_definition"},
    "kotlin": {"function_declaration", "secondary_constructor"},
    "swift": {"function_declaration", "init_declaration"},
    "scala": {"function_definition"},
    "lua": {"function_declaration"},
    "zig": {"function_declaration"},
    "perl": {"subroutine_declaration_statement"},
    "julia": {"function_definition", "macro_definition"},
    "elixir": {"call"},  # `def` / `defp` / `defmacro` … calls only (`ELIXIR_DEFS`)
    "haskell": {"signature"},  # with the equations after it (`lang_sets._definition`)
    "dart": {"function_signature", "method_signature"},  # the body is the next sibling
    "ocaml": {"value_definition"},  # `let f x = …`, one with parameters
    "objc": {"method_definition", "function_definition"},
}
# Languages added after the first twelve: their comment marks and doc shapes are read by
# `lang_docs.py`'s `_NEW_MARKS` and `_is_doc`, so the first twelve's sets stay byte-identical.
FIRST_LANGS = frozenset({"js", "ts", "go", "rust", "c", "java", "cpp", "csharp", "ruby", "php", "bash"})
NEW_LANGS = frozenset(EXTENSIONS) - FIRST_LANGS
# A body child, where the grammar has no `body` field (Kotlin, Julia, Elixir).
BODIES = {"function_body", "block", "do_block", "compound_statement"}
ELIXIR_DEFS = {b"def", b"defp", b"defmacro", b"defmacrop", b"defguard", b"defguardp"}
# Grammar module and its language function, where not `tree_sitter_<lang>.language`.
GRAMMAR = {
    "js": ("tree_sitter_javascript", "language"),
    "ts": ("tree_sitter_typescript", "language_typescript"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "ocaml": ("tree_sitter_ocaml", "language_ocaml"),
}
# Wrappers whose comment sits above them rather than above the function itself.
WRAPPERS = {
    "variable_declarator",
    "export_statement",
    "lexical_declaration",
    "variable_declaration",
    "decorated_definition",
    "template_declaration",  # C++ `template <…>` above a function
    "implementation_definition",  # Objective-C: a method's comment sits above this
}
# Wrappers whose comment sits above them but whose other statements are not the function's:
# Bash `_comp() {…} && complete -F _comp cmd`.
COMMENT_ONLY_WRAPPERS = {"list"}
ATTRIBUTES = {"attribute_item", "decorator", "annotation", "marker_annotation", "attribute_list"}
