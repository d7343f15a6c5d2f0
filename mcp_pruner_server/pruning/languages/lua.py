"""Lua: a function is often a value: bound to a name (`M.f = function (…) … end`, `local f =
function …`), the module's result (`return function(opts) … end`) or a table's field (`local M =
{ f = function … }`, `return { … }`), the table then holding its functions as a class holds its
methods. Its functions are named without their table (`f` of `M.f`, `M:f`), as calls write them.
These shapes, added to the shared tables, are its definitions query (`queries/lua.scm`).
"""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.record import Grammar, Language, Syntax

LANGUAGE = Language(
    name="lua",
    extensions=(".lua",),
    interpreters=("lua",),
    grammar=Grammar("tree_sitter_lua"),
    syntax=Syntax(definitions="ours", adds_to_shared=True),
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
