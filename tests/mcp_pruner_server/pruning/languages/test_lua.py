"""Units from the parser where Lua gives definitions as values: functions bound to names or a
table's fields, tables of functions as containers, a module returning a function."""

from __future__ import annotations

from tests.mcp_pruner_server.pruning.structure.test_syntax import blocks_of


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


LUA_VALUES = """\
local M = {}

-- Grows it.
M.grow = function(w, step)
  return w + step
end

local shrink = function(w)
  return w - 1
end

do
  local cache = {}
  function M.cached(k)
    return cache[k]
  end
end

local Widget = {
  -- Its area.
  area = function(w)
    return w * w
  end,
  size = 1,
}

return {
  run = function(w)
    return w
  end,
}
"""


def test_lua_functions_bound_to_names_in_do_blocks_and_in_tables_are_units() -> None:
    assert _spans(LUA_VALUES, "lua") == [
        (2, 3, 6, False, None, "grow"),  # its comment above the assignment
        (7, 7, 10, False, None, "shrink"),
        (13, 13, 16, False, None, "cached"),  # inside `do … end`
        (18, 18, 25, True, None, "Widget"),  # a table of functions holds them
        (19, 20, 23, False, 3, "area"),
        (26, 26, 31, True, None, None),  # the module's `return { … }`
        (27, 27, 30, False, 5, "run"),
    ]


def test_a_lua_function_is_named_without_its_table_as_its_calls_name_it() -> None:
    methods = "function Widget.new(n)\n  return n\nend\n\nfunction Widget:grow(n)\n  return n\nend\n"
    assert [b.name for b in blocks_of(methods, "lua")] == ["new", "grow"]  # `Widget.new(`, `self:grow(`


def test_a_lua_module_returning_a_long_function_holds_the_functions_it_defines() -> None:
    body = "    x = x + 1\n" * 40
    helpers = "".join(f"  local function helper{k}(x)\n{body}  end\n" for k in range(4))
    found = _spans(f"return function(opts)\n{helpers}  return helper0(opts)\nend\n", "lua")
    assert found[0][3] is True  # the module's function: a container, not one unit of 170 lines
    assert [(name, parent) for *_, parent, name in found[1:]] == [(f"helper{k}", 0) for k in range(4)]


def test_a_lua_table_of_data_alone_is_no_container() -> None:
    assert blocks_of("local t = {\n  a = 1,\n  b = { c = 2 },\n}\n", "lua") == []
