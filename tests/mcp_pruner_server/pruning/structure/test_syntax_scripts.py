"""Units from the parser where Lua, Perl and Zig give definitions in shapes of their own:
functions as values and tables of them, subs in blocks, POD docs, functions returning types."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.syntax_scripts import pod_rows
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


PERL_BLOCKS = """\
package Widget;

BEGIN {
    sub early {
        return 1;
    }
}

{
    my $count = 0;
    sub counted {
        return ++$count;
    }
}

package Widget::Inner {
    sub inner {
        return 2;
    }
}

*grow = sub {
    my ($w, $step) = @_;
    return $w + $step;
};
"""


def test_perl_subs_in_begin_bare_blocks_package_blocks_and_globs_are_units() -> None:
    assert _spans(PERL_BLOCKS, "perl") == [
        (3, 3, 6, False, None, "early"),
        (10, 10, 13, False, None, "counted"),
        (15, 15, 20, True, None, "Widget::Inner"),
        (16, 16, 19, False, 2, "inner"),
        (21, 21, 25, False, None, "grow"),
    ]


PERL_POD = """\
package Widget;

=head1 NAME

Widget - a widget

=head2 grow

Grows the widget by a step.

=cut

sub grow {
    return $_[0] + $_[1];
}
"""


def test_a_perl_sub_starts_at_the_last_section_of_the_pod_above_it() -> None:
    assert _spans(PERL_POD, "perl") == [(6, 12, 15, False, None, "grow")]


# A sub's POD deleted down to its `=cut`: the `=cut` left closes no POD.
PERL_STRAY_CUT = """\
sub grow {
    return $_[0] + 1;
}

=cut

sub shrink {
    return $_[0] - 1;
}

=head2 wrap

=cut

sub wrap { [@_] }
"""


PERL_NAMED_SUBS = """\
around grow => sub {
    my ($orig, $self) = @_;
    return $self->$orig() * 2;
};

has size => (is => 'rw', default => sub { 1 });

get '/users/:id' => sub {
    return 1;
};

__PACKAGE__->meta->add_method('bump', sub {
    return 2;
});
"""


def test_a_perl_sub_given_to_a_call_after_its_name_is_a_unit_of_that_name() -> None:
    assert [(b.start, b.end, b.name) for b in blocks_of(PERL_NAMED_SUBS, "perl")] == [
        (0, 4, "grow"),
        (7, 10, None),  # a route: its path is no name
        (11, 14, "bump"),
    ]


def test_a_perl_cut_that_closes_no_pod_opens_none() -> None:
    assert [(b.start, b.end, b.name) for b in blocks_of(PERL_STRAY_CUT, "perl")] == [
        (0, 3, "grow"),
        (6, 9, "shrink"),
        (10, 15, "wrap"),
    ]


def test_perl_pod_runs_from_its_first_command_to_cut_or_the_end() -> None:
    lines = ["sub f { 1 }", "=head1 NAME", "", "f - one", "=cut", "", "f();", "__END__", "=head2 f", "One."]
    assert pod_rows(lines) == {1, 2, 3, 4, 8, 9}


ZIG_TYPE = """\
const std = @import("std");

pub fn Stack(comptime T: type) type {
    return struct {
        items: []T,

        /// Pushes an item.
        pub fn push(self: *@This(), item: T) void {
            _ = self;
            _ = item;
        }
    };
}
"""


def test_a_zig_function_returning_a_type_is_the_container_of_its_methods() -> None:
    assert _spans(ZIG_TYPE, "zig") == [
        (2, 2, 13, True, None, "Stack"),
        (6, 7, 11, False, 0, "push"),
    ]
