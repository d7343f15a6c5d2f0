"""Elixir's and Julia's definitions in their parse trees, which the shared tables cannot describe.

Elixir defines everything with calls: `def f(x) do … end` is a call of `def` whose `do_block`
is the body, `defmodule X do … end` one of `defmodule` whose `do_block` holds the members, and
`@doc`, `@spec`, `@impl` above a function are attribute calls that belong to it; a `@doc`
heredoc over several lines, like Julia's docstrings below, is left to the chunks: joined to its
function, a long one made the unit larger than a read's budget whenever a neighbour's doc won.

Julia's definition nodes have no `name` or `body` fields (`function_definition`,
`macro_definition`, `struct_definition`; a `module_definition`'s members are its children), a
short function is an assignment to a call (`area(r) =` and its lines), and a definition may be
wrapped in a macro call (`@inline function f …`). Its docstring, the string above it, is left
to the chunks: often a hundred lines of examples, joined to the function it made a unit larger
than a read's budget whenever a neighbour's doc won.
"""

from __future__ import annotations

from typing import Any

from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

# How deep a Julia signature is followed to the name it defines (`Base.f(x)::T where T`).
MAX_NAME_DEPTH = 8

# Elixir calls that define a function-like unit, and those whose `do` block holds members.
ELIXIR_FUNCTIONS = frozenset(
    {b"def", b"defp", b"defmacro", b"defmacrop", b"defguard", b"defguardp", b"defdelegate", b"defn", b"defnp"}
)
ELIXIR_CONTAINERS = frozenset({b"defmodule", b"defprotocol", b"defimpl"})
JULIA_FUNCTIONS = frozenset({"function_definition", "macro_definition", "struct_definition"})
JULIA_CONTAINERS = frozenset({"module_definition", "baremodule_definition"})
# The left side of an assignment that defines a short function: `f(x)`, `f(x) where T`, `f(x)::T`.
_JULIA_CALL_HEADS = frozenset({"call_expression", "where_expression", "typed_expression"})
# Module attributes that describe the module or declare types, not the function below them.
ELIXIR_MODULE_ATTRIBUTES = frozenset(
    {b"moduledoc", b"typedoc", b"type", b"typep", b"opaque", b"callback", b"macrocallback", b"behaviour"}
)


def elixir_kind(node: Any) -> tuple[str, Any] | None:
    """("function" | "container", the node holding its members) for a `def…` call, else None."""
    if node.type != "call":
        return None
    target = node.child_by_field_name("target")
    if target is None or target.type != "identifier":
        return None
    if target.text in ELIXIR_FUNCTIONS:
        return "function", node
    if target.text in ELIXIR_CONTAINERS:
        body = next((c for c in node.named_children if c.type == "do_block"), None)
        return None if body is None else ("container", body)
    return None


def elixir_name(node: Any) -> str | None:
    """The name a `def…` call defines: `f` of `def f(x) when …`, `Acme.Widget` of `defmodule`."""
    arguments = next((c for c in node.named_children if c.type == "arguments"), None)
    head = arguments.named_children[0] if arguments is not None and arguments.named_child_count else None
    if head is not None and head.type == "binary_operator":  # `f(x) when is_list(x)`
        head = head.child_by_field_name("left")
    if head is not None and head.type == "call":
        head = head.child_by_field_name("target")
    if head is None or head.type not in ("identifier", "alias"):
        return None
    return name_text(head)


def elixir_signature_end(node: Any, header: int) -> int:
    """Exclusive end of a `def…`'s head: the line its `do` opens, or its first line (`, do: x`)."""
    body = next((c for c in node.named_children if c.type == "do_block"), None)
    return header + 1 if body is None else max(header + 1, int(body.start_point[0]) + 1)


def elixir_annotates(node: Any) -> bool:
    """Whether `node` (above a function) is its attribute: `@doc`, `@spec`, `@impl`, not `@type`."""
    if node.type != "unary_operator" or not (node.text or b"").startswith(b"@"):
        return False
    operand = node.child_by_field_name("operand")
    if operand is not None and operand.type == "call":
        operand = operand.child_by_field_name("target")
    if operand is not None and operand.text == b"doc" and node.end_point[0] > node.start_point[0]:
        return False  # a `@doc """…"""` heredoc is left to the chunks, as Julia's docstrings
    return operand is None or operand.text not in ELIXIR_MODULE_ATTRIBUTES


def julia_kind(node: Any) -> tuple[str, Any] | None:
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


def julia_unwrap(node: Any) -> Any:
    """The definition a macro call wraps (`@inline function f …`), else `node`."""
    if node.type != "macrocall_expression":
        return node
    arguments = next((c for c in node.named_children if c.type == "macro_argument_list"), None)
    inner = arguments.named_children if arguments is not None else []
    return inner[0] if len(inner) == 1 and julia_kind(inner[0]) is not None else node


def julia_name(node: Any) -> str | None:
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


def julia_signature_end(node: Any, header: int) -> int:
    """Exclusive end of a definition's head (a signature over several lines included)."""
    if node.type == "assignment":
        head = _julia_call(node)
    else:
        head = next((c for c in node.named_children if c.type in ("signature", "type_head")), None)
    return header + 1 if head is None else max(header + 1, int(head.end_point[0]) + 1)


def _julia_call(assignment: Any) -> Any:
    """The left side of `assignment` if it is a call (`f(x)`, `f(x)::T where T`), else None."""
    left = assignment.named_children[0] if assignment.named_child_count else None
    if left is None or left.type not in _JULIA_CALL_HEADS:
        return None
    inner = left
    while inner is not None and inner.type in ("where_expression", "typed_expression"):
        inner = inner.named_children[0] if inner.named_child_count else None
    return left if inner is not None and inner.type == "call_expression" else None
