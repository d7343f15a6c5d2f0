"""Julia's definition nodes have no `name` or `body` fields (`function_definition`,
`macro_definition`, `struct_definition`; a `module_definition`'s members are its children), a short
function is an assignment to a call (`area(r) =` and its lines), and a definition may be wrapped in
a macro call (`@inline function f …`). Its docstring, the string above it, is left to the chunks:
often a hundred lines of examples, joined to the function it made a unit larger than a read's
budget whenever a neighbour's doc won.
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

# How deep a Julia signature is followed to the name it defines (`Base.f(x)::T where T`).
MAX_NAME_DEPTH = 8


JULIA_FUNCTIONS = frozenset({"function_definition", "macro_definition", "struct_definition"})


JULIA_CONTAINERS = frozenset({"module_definition", "baremodule_definition"})


# The left side of an assignment that defines a short function: `f(x)`, `f(x) where T`, `f(x)::T`.
_JULIA_CALL_HEADS = frozenset({"call_expression", "where_expression", "typed_expression"})


def julia_kind(node: Node) -> tuple[str, Node] | None:
    """("function" | "container", the node holding its members) for a definition, else None.

    A one-line short function (`area(r) = pi * r^2`) is left to the chunks: as units of their own
    such lines, many alike, outranked the function asked about.
    """
    if node.type in JULIA_FUNCTIONS:
        return "function", node
    if node.type in JULIA_CONTAINERS:
        return "container", node  # `module X … end`: its members are its children
    if (
        node.type == "assignment"
        and node.end_point[0] > node.start_point[0]
        and _julia_call(node) is not None
    ):
        return "function", node
    return None


def julia_unwrap(node: Node) -> Node:
    """The definition a macro call wraps (`@inline function f …`), else `node`."""
    if node.type != "macrocall_expression":
        return node
    arguments = next((c for c in node.named_children if c.type == "macro_argument_list"), None)
    inner = arguments.named_children if arguments is not None else []
    return inner[0] if len(inner) == 1 and julia_kind(inner[0]) is not None else node


def julia_name(node: Node) -> str | None:
    """The name a definition defines (`getindex` of `function Base.getindex(…)`)."""
    if node.type == "assignment":
        head = _julia_call(node)
    elif node.type in JULIA_CONTAINERS:
        head = node.child_by_field_name("name")
    else:
        head = next((c for c in node.named_children if c.type in ("signature", "type_head")), None)
    for _ in range(MAX_NAME_DEPTH):  # down `f(x)::T where T` to the callee, and to its last part
        if head is None or head.type in ("identifier", "operator"):
            break
        if head.type == "field_expression":
            head = head.named_children[-1] if head.named_child_count else None
        else:
            head = head.named_children[0] if head.named_child_count else None
    return None if head is None or head.type not in ("identifier", "operator") else name_text(head)


def julia_signature_end(node: Node, header: int) -> int:
    """Exclusive end of a definition's head (a signature over several lines included)."""
    if node.type == "assignment":
        head = _julia_call(node)
    else:
        head = next((c for c in node.named_children if c.type in ("signature", "type_head")), None)
    return header + 1 if head is None else max(header + 1, int(head.end_point[0]) + 1)


def _julia_call(assignment: Node) -> Node | None:
    """The left side of `assignment` if it is a call (`f(x)`, `f(x)::T where T`), else None."""
    left = assignment.named_children[0] if assignment.named_child_count else None
    if left is None or left.type not in _JULIA_CALL_HEADS:
        return None
    inner: Node | None = left
    while inner is not None and inner.type in ("where_expression", "typed_expression"):
        inner = inner.named_children[0] if inner.named_child_count else None
    return left if inner is not None and inner.type == "call_expression" else None


LANGUAGE = Language(
    name="julia",
    extensions=(".jl",),
    interpreters=("julia",),
    grammar=Grammar("tree_sitter_julia"),
    syntax=Syntax(kind=julia_kind, unwrap=julia_unwrap, name=julia_name, head_end=julia_signature_end),
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
