"""Lua: a function is often a value: bound to a name (`M.f = function (…) … end`, `local f =
function …`), the module's result (`return function(opts) … end`) or a table's field (`local M =
{ f = function … }`, `return { … }`), the table then holding its functions as a class holds its
methods.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from mcp_pruner_server.pruning.languages.record import Found, Grammar, Language, Syntax
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

_LUA_PATH = re.compile(r"[.:]")


def _kind(node: Node) -> Found:
    t = node.type
    if t in ("assignment_statement", "return_statement"):
        values = next((c for c in node.named_children if c.type == "expression_list"), None)
        named = [] if values is None else [c for c in values.named_children if c.type != "comment"]
        if len(named) != 1:
            return None  # `a, b = f, g`: no one name for a unit
        value = named[0]
        if value.type == "function_definition":  # a module may be `return function(opts) … end`
            return "function", value
        return _lua_table(value)
    if t == "field":
        field_value = node.child_by_field_name("value")
        if field_value is None:
            return None
        return ("function", node) if field_value.type == "function_definition" else _lua_table(field_value)
    return None


def _lua_table(node: Node) -> tuple[str, Node] | None:
    """A table constructor with a function among its fields is their container (nested tables
    of functions are looked into when walked, not here: a data table is read once)."""
    if node.type != "table_constructor":
        return None
    for field in node.named_children:
        value = field.child_by_field_name("value") if field.type == "field" else None
        if value is not None and value.type == "function_definition":
            return "container", node
    return None


def _name(node: Node, found: str | None) -> str | None:
    """The name an assignment binds (`M.f = function`), else the `name` field's; the last part of
    its path (`f` of `M.f`, `M:f`): calls say `M.f(`, `self:f(` or `f(`, and a question names the
    function, not the table holding it."""
    bound = node.parent.parent if node.type == "function_definition" and node.parent else None
    if found is None and bound is not None and bound.type == "assignment_statement":
        variables = next((c for c in bound.named_children if c.type == "variable_list"), None)
        target = None if variables is None else variables.child_by_field_name("name")
        found = None if target is None else name_text(target)
    return None if found is None else _LUA_PATH.split(found)[-1]


LANGUAGE = Language(
    name="lua",
    extensions=(".lua",),
    interpreters=("lua",),
    grammar=Grammar("tree_sitter_lua"),
    syntax=Syntax(own_kind=_kind, rename=_name),
    signs=(
        r"^\s*local function \w",
        r"^\s*local \w+(?:\s*,\s*\w+)*\s+=\s",  # spaces around `=`: a shell's `local x=1` has none
        r"^\s*local \w+ = require[ (]",
        r"^\s*function \w+[.:]\w+\(",  # `function M.f(` / `function M:f(`: not JavaScript
        r"^\s*--\[=*\[|^\s*---? @\w",
        r"^\s*(?:else)?if [^;]+ then$|^\s*(?:for|while) [^;|]+ do$",  # a shell writes `; then`
    ),
    narrower_signs=frozenset({"julia"}),  # Julia's `function Base.show(io::IO, x)`
)
