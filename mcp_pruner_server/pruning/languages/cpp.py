"""C++ (CUDA, Arduino sketches, template implementations included by a header)."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_recovery import blank_c_macros


def _says_cpp(lines: Sequence[str]) -> bool:
    """A C header's lines say C++ (`namespace`, `template<…>`, `class X {`, `std::`)."""
    from mcp_pruner_server.pruning.structure.languages import guess_language  # it reads every record

    return guess_language(lines) == "cpp"


LANGUAGE = Language(
    name="cpp",
    includes_signs_of="c",
    grep_shape="typed",
    extensions=(
        ".cc",
        ".cpp",
        ".cxx",
        ".c++",
        ".hh",
        ".hpp",
        ".hxx",
        ".h++",
        ".ipp",
        ".inl",
        ".tpp",
        ".cppm",
        ".ixx",
        ".cu",
        ".cuh",
        ".ino",
    ),
    grammar=Grammar("tree_sitter_cpp"),
    claims=(".h",),
    recognises=_says_cpp,
    syntax=Syntax(blanked=blank_c_macros, container_opener="struct _ {"),
    signs=(r"^\s*(?:namespace \w+|template\s*<|using namespace |class \w+\s*(?::|\{|$))", r"\bstd::"),
)
