"""Julia's definition nodes have no `name` or `body` fields (`function_definition`,
`macro_definition`, `struct_definition`; a `module_definition`'s members are its children), a short
function is an assignment to a call (`area(r) =` and its lines), and a definition may be wrapped in
a macro call (`@inline function f …`). Its docstring, the string above it, is left to the chunks:
often a hundred lines of examples, joined to the function it made a unit larger than a read's
budget whenever a neighbour's doc won. Which nodes define what is its definitions query
(`queries/julia.scm`); the names they define are read here (a head of any depth).
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text, unwrapped

# How deep a Julia signature is followed to the name it defines (`Base.f(x)::T where T`).
MAX_NAME_DEPTH = 8


def _head(node: Node) -> Node | None:
    """A definition's head: an assignment's left side (its query found it a call), a module's
    name, else its `signature` or `type_head`."""
    if node.type == "assignment":
        return node.named_children[0] if node.named_child_count else None
    if node.type == "module_definition":
        return node.child_by_field_name("name")
    return next((c for c in node.named_children if c.type in ("signature", "type_head")), None)


def julia_name(node: Node) -> str | None:
    """The name a definition defines (`getindex` of `function Base.getindex(…)`)."""
    head = _head(node)
    for _ in range(MAX_NAME_DEPTH):  # down `f(x)::T where T` to the callee, and to its last part
        if head is None or head.type in ("identifier", "operator"):
            break
        if head.type == "field_expression":
            head = head.named_children[-1] if head.named_child_count else None
        else:
            head = head.named_children[0] if head.named_child_count else None
    return None if head is None or head.type not in ("identifier", "operator") else name_text(head)


def julia_signature_end(node: Node, header: int) -> int:
    """Exclusive end of a function's head (a signature over several lines included)."""
    head = _head(node)
    return header + 1 if head is None else max(header + 1, int(head.end_point[0]) + 1)


LANGUAGE = Language(
    name="julia",
    extensions=(".jl",),
    interpreters=("julia",),
    grammar=Grammar("tree_sitter_julia"),
    syntax=Syntax(
        definitions="ours",
        unwrap=unwrapped,
        wrappers=(("macrocall_expression", "macro_argument_list"),),
        name=julia_name,
        head_end=julia_signature_end,
    ),
    # Julia: typed parameters and returns (`x::Int`, `)::T`; C++'s and Rust's `a::B` are paths to
    # their own names, not to Julia's types), `where {T<:Real}`, `using M: f`, `struct S{T} <: A`, its macros.
    signs=(
        r"^\s*(?:@\w+\s+)*(?:function|macro)\s+[\w.!]+(?:\{[^}]*\})?\(.*::",
        r"::(?<=[a-z\d_]::)(?:Abstract[A-Z]\w*|U?Int(?:8|16|32|64|128)?|Float(?:16|32|64)|Bool|String|Symbol|"
        r"Vector|Matrix|Array|Dict|Tuple|NamedTuple|Union|Nothing|Any|Function|Type|Real|Integer|Number|Char|IO|"
        r"Missing)\b(?!::)|\)::[A-Z]\w*(?:\{.*\})?\s*(?:where\b|=|$)|\) where (?:\{[^}]*\}|[A-Z]\w*)",
        r"^using \.{0,2}[A-Z][\w.]*(?:\s*[:,]\s*[\w.@!]+)*\s*$|^import \.{0,2}[A-Z][\w.]*:\s*\w",
        r"^\s*(?:mutable struct|abstract type|primitive type)\s+[A-Z]|^\s*struct [A-Z]\w*(?:\{[^}]*\})?\s*<:"
        r"|^end\s*#\s*module\b",
        r"^\s*@(?:inbounds|testset|test|test_throws|kwdef|generated|views|assert|eval|propagate_inbounds|nospecialize|"
        r"spawn|threads|boundscheck|simd|everywhere|ccall|assume_effects)(?=\s|\(|$)"
        r"|^\s*@(?:inline|noinline) |^\s*@(?:info|warn|debug|error)\s+\"",  # Swift writes `@inline(__always)`
    ),
)
