"""Lua's, Perl's and Zig's definitions in shapes of their own, read for `syntax.py`'s walk.

A Lua function is often a value: bound to a name (`M.f = function (…) … end`, `local f =
function …`), the module's result (`return function(opts) … end`) or a table's field (`local
M = { f = function … }`, `return { … }`), the table then holding its functions as a class holds
its methods. A Perl sub may be a value too (`*name = sub {…}`, `my $f = sub {…}`, a call's last
argument after its name: a Moose `around grow => sub {…}`, a route's `get '/users' => sub {…}`),
and a package may be a block (`package Foo { … }`). A Zig type is a function's result (`fn
List(comptime T: type) type { return struct {…}; }`): its methods are what is asked, so such a
function always holds them as a container. And a Perl sub's POD (`=head2 name` … `=cut`) sits above it after a
blank line: its last section is the sub's doc as a comment would be; the rest of a file's POD
is documentation all the same, which `code.py` weighs as it weighs doc comments.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mcp_pruner_server.pruning.structure.syntax_grammars import name_text

# A POD paragraph naming what follows it (`=head2 grow`, `=item $w->grow($step)`).
_POD_SECTION = re.compile(rb"^=(?:head\d|item)\b", re.MULTILINE)
# A line opening POD (`=head1`, `=pod`, `=begin`): POD runs from it to `=cut`.
_POD_START = re.compile(r"=[A-Za-z]")
# A POD command line (`=head2 grow`, `=cut`), for `blank_stray_cuts`.
_POD_COMMAND = re.compile(r"^=([A-Za-z]\w*).*$", re.MULTILINE)
_PERL_NAME = re.compile(r"[A-Za-z_]\w*")
# A call that may bind a name to a sub (`around grow => sub {…}`) and what names it there.
_PERL_CALLS = frozenset(
    {"function_call_expression", "ambiguous_function_call_expression", "method_call_expression"}
)
_PERL_NAMES = frozenset({"autoquoted_bareword", "string_literal", "interpolated_string_literal"})
_LUA_PATH = re.compile(r"[.:]")


def script_kind(node: Any, lang: str) -> tuple[str, Any] | None:
    """("function" | "container", the node whose body holds members) for a Lua or Perl
    definition given as a value or a block, else None (also for any other language)."""
    if lang == "lua":
        return _lua_kind(node)
    if lang == "perl" and node.type == "package_statement":  # `package Foo { … }`
        body = next((c for c in node.named_children if c.type == "block"), None)
        return None if body is None else ("container", body)
    if lang == "perl" and node.type in _PERL_CALLS and _perl_sub_name(node) is not None:
        return "function", node  # `around grow => sub {…}`
    return None


def _perl_sub_name(call: Any) -> Any:
    """The name argument of a call given a name and a sub alone (`around grow => sub {…}`, `get
    '/users' => sub {…}`, `$app->helper(render => sub {…})`): a Moose method modifier, a route's
    handler, a helper. More arguments than these two are data (`has x => (default => sub {…})`)."""
    args = call.child_by_field_name("arguments")
    if args is None or args.type != "list_expression":
        return None
    named = [c for c in args.named_children if c.type != "comment"]
    if len(named) != 2 or named[1].type != "anonymous_subroutine_expression":
        return None
    return named[0] if named[0].type in _PERL_NAMES else None


def _lua_kind(node: Any) -> tuple[str, Any] | None:
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
        value = node.child_by_field_name("value")
        if value is None:
            return None
        return ("function", node) if value.type == "function_definition" else _lua_table(value)
    return None


def _lua_table(node: Any) -> tuple[str, Any] | None:
    """A table constructor with a function among its fields is their container (nested tables
    of functions are looked into when walked, not here: a data table is read once)."""
    if node.type != "table_constructor":
        return None
    for field in node.named_children:
        value = field.child_by_field_name("value") if field.type == "field" else None
        if value is not None and value.type == "function_definition":
            return "container", node
    return None


def script_name(node: Any, lang: str, found: str | None) -> str | None:
    """The name a definition binds, `found` in its `name` field or None: also the name a Lua
    assignment (`M.f = function`), a Perl one (`*name = sub`) or a Zig `const Name = struct {…}`
    binds. A Lua name is the last part of its path (`f` of `M.f`, `M:f`): calls say `M.f(`,
    `self:f(` or `f(`, and a question names the function, not the table holding it."""
    if lang == "lua":
        bound = node.parent.parent if node.type == "function_definition" and node.parent else None
        if found is None and bound is not None and bound.type == "assignment_statement":
            variables = next((c for c in bound.named_children if c.type == "variable_list"), None)
            target = None if variables is None else variables.child_by_field_name("name")
            found = None if target is None else name_text(target)
        return None if found is None else _LUA_PATH.split(found)[-1]
    if found is not None:
        return found
    t = node.type
    if lang == "perl" and t in _PERL_CALLS:
        arg = _perl_sub_name(node)
        text = "" if arg is None else (name_text(arg) or "").strip("'\"+")
        return text if _PERL_NAME.fullmatch(text) else None  # a route (`'/users/:id'`) has none
    if lang == "perl" and t == "assignment_expression":
        left = node.child_by_field_name("left")
        text = "" if left is None else (name_text(left) or "")
        words = _PERL_NAME.findall(text)
        return words[-1] if words else None  # `*glob_sub`, `my $handler`: the name without its sigil
    if lang == "zig" and t == "variable_declaration":
        found = next((c for c in node.named_children if c.type == "identifier"), None)
        return None if found is None else name_text(found)
    return None


def returns_type(function: Any, lang: str) -> bool:
    """Whether a Zig function's result is a type (`fn List(comptime T: type) type`): it builds
    one, whose methods its body defines."""
    if lang != "zig" or function.type != "function_declaration":
        return False
    result = function.child_by_field_name("type")
    return result is not None and result.text == b"type"


def pod_rows(lines: Sequence[str]) -> set[int]:
    """The rows of Perl's POD: from a line opening with `=word` to `=cut` (or the end)."""
    rows: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        if not inside and _POD_START.match(line):
            inside = True
        if inside:
            rows.add(i)
            if line.startswith("=cut"):
                inside = False
    return rows


def pod_doc_row(pod: Any) -> int:
    """The first row of a Perl POD block's last section (`=head2 grow` … `=cut`): the doc of
    the sub below it; the sections above document the module or other subs."""
    text = pod.text or b""
    starts = [m.start() for m in _POD_SECTION.finditer(text)]
    return int(pod.start_point[0]) + (text.count(b"\n", 0, starts[-1]) if starts else 0)


def blank_stray_cuts(text: str) -> str:
    """`text` with every `=cut` that closes no POD blanked (same length: rows stay). A POD block
    cannot start with `=cut` (perlpodspec: an error, a POD processor stops there), yet perl and
    the grammar read one as POD up to the next `=cut`: a doc deleted down to its `=cut` made the
    subs below it one POD block, no unit at all, where a reader sees code."""
    stray: list[tuple[int, int]] = []
    inside = False
    for m in _POD_COMMAND.finditer(text):
        if m.group(1) != "cut":
            inside = True
        elif inside:
            inside = False
        else:
            stray.append(m.span())
    if not stray:
        return text
    parts, last = [], 0
    for start, end in stray:
        parts += [text[last:start], " " * (end - start)]
        last = end
    return "".join(parts) + text[last:]
