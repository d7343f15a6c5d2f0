"""Elixir defines everything with calls: `def f(x) do … end` is a call of `def` whose `do_block` is
the body, `defmodule X do … end` one of `defmodule` whose `do_block` holds the members, and `@doc`,
`@spec`, `@impl` above a function are attribute calls that belong to it; a `@doc` heredoc over
several lines is left to the chunks: joined to its function, a long one made the unit larger than a
read's budget whenever a neighbour's doc won. Which calls define what, and their names, is its
definitions query (`queries/elixir.scm`).
"""

from __future__ import annotations

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

# Module attributes that describe the module or declare types, not the function below them.
ELIXIR_MODULE_ATTRIBUTES = frozenset(
    {b"moduledoc", b"typedoc", b"type", b"typep", b"opaque", b"callback", b"macrocallback", b"behaviour"}
)


def elixir_signature_end(node: Node, header: int) -> int:
    """Exclusive end of a `def…`'s head: the line its `do` opens, or its first line (`, do: x`)."""
    body = next((c for c in node.named_children if c.type == "do_block"), None)
    return header + 1 if body is None else max(header + 1, int(body.start_point[0]) + 1)


def elixir_annotates(node: Node) -> bool:
    """Whether `node` (above a function) is its attribute: `@doc`, `@spec`, `@impl`, not `@type`."""
    if node.type != "unary_operator" or not (node.text or b"").startswith(b"@"):
        return False
    operand = node.child_by_field_name("operand")
    if operand is not None and operand.type == "call":
        operand = operand.child_by_field_name("target")
    if operand is not None and operand.text == b"doc" and node.end_point[0] > node.start_point[0]:
        return False  # a `@doc """…"""` heredoc is left to the chunks, as Julia's docstrings
    return operand is None or operand.text not in ELIXIR_MODULE_ATTRIBUTES


def _annotates(node: Node) -> bool:
    """Comments, and the `@doc`, `@spec`, `@impl` attributes above a `def`."""
    return "comment" in node.type or elixir_annotates(node)


LANGUAGE = Language(
    name="elixir",
    extensions=(".ex", ".exs"),
    interpreters=("elixir",),
    grammar=Grammar("tree_sitter_elixir"),
    syntax=Syntax(definitions="ours", head_end=elixir_signature_end, annotates=_annotates),
    # Not to be read as Ruby, whose `def … do` and `end` it shares.
    signs=(
        r"^\s*(?:defmodule [A-Z][\w.]*|defp? [\w?!]+.*|defmacro [\w?!]+.*) do$",
        r"^\s*@(?:moduledoc|doc|spec|impl|behaviour|typedoc)\b",
    ),
)
