"""Units from the parser in the languages added after the first twelve: Kotlin, Scala, Lua, Zig,
Haskell, Dart, Swift, OCaml, Objective-C and Perl (members inside containers, doc comments and
attributes with their function)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.structure.languages import guess_language, language_of
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, _kept, blocks_of

KOTLIN = """\
package acme

/** A widget. */
class Widget(val size: Int) {
    /**
     * Grows the widget by [step].
     */
    @Throws(IOException::class)
    fun grow(step: Int): Widget {
        return Widget(size + step)
    }

    companion object {
        fun empty() = Widget(0)
    }
}

// Shrinks it.
suspend fun Widget.shrink(
    step: Int,
): Widget = Widget(size - step)
"""
SCALA = """\
package acme

/** A widget. */
final class Widget(size: Int) {

  /** Grows the widget by `step`. */
  def grow(step: Int): Widget =
    new Widget(size + step)

  /** Shrinks it. */
  def shrink(step: Int): Widget = {
    new Widget(size - step)
  }
}

object Widget {
  def empty: Widget = new Widget(0)
}
"""
LUA = """\
local M = {}

--- Grows the widget.
-- @param step how much
function M.grow(w, step)
  w.size = w.size + step
  return w
end

local function shrink(w)
  w.size = w.size - 1
end

return M
"""
ZIG = """\
const std = @import("std");

/// A widget.
pub const Widget = struct {
    size: u32,

    /// Grows the widget by `step`.
    pub fn grow(self: *Widget, step: u32) void {
        self.size += step;
    }
};

fn shrink(w: *Widget) void {
    w.size -= 1;
}
"""
HASKELL = """\
module Acme (grow) where

import Data.List (sort)

-- | Grows the widget
-- by a step.
grow :: Int -> Int -> Int
grow 0 s = s
grow n s =
  n + s
{-# INLINE grow #-}

shrink :: Int -> Int
shrink n = n - 1

instance Show Widget where
  show w = "widget"
"""

DART = """\
import 'dart:math';

/// A widget.
class Widget {
  int size = 0;

  /// Grows the widget by [step].
  @override
  Widget grow(int step) {
    return Widget()..size = size + step;
  }

  int get area =>
      size * size;
}

/// Shrinks it.
void shrink(Widget w) {
  w.size -= 1;
}
"""

SWIFT = """\
import Foundation

/// A widget.
public struct Widget {
  var size: Int

  /// Grows the widget by `step`.
  @inlinable
  public mutating func grow(
    by step: Int
  ) -> Int {
    size += step
    return size
  }

  init(size: Int) {
    self.size = size
  }
}

extension Widget {
  // Shrinks it.
  func shrunk() -> Widget { Widget(size: size - 1) }
}
"""

OCAML = """\
open Printf

(** A widget. *)
module Widget = struct
  type t = { size : int }

  (** Grows the widget by [step]. *)
  let grow w step =
    { size = w.size + step }

  let zero = { size = 0 }
end

(* Shrinks it. *)
let rec shrink w =
  if w.Widget.size > 0 then shrink { Widget.size = w.Widget.size - 1 }
  else w
"""

OBJC = """\
#import "Widget.h"

static int clamp(int x) {
    return x < 0 ? 0 : x;
}

@implementation Widget

// Grows the widget by step.
- (void)growBy:(NSInteger)step animated:(BOOL)animated {
    self.size += step;
}

+ (instancetype)widget {
    return [[self alloc] init];
}

@end
"""

PERL = """\
package Acme::Widget;
use strict;
use warnings;

# Grows the widget by a step.
sub grow {
    my ($self, $step) = @_;
    $self->{size} += $step;
    return $self;
}

sub shrink
{
    my $self = shift;
    $self->{size} -= 1;
}

1;
"""


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


def test_kotlin_units_are_functions_with_their_kdoc_and_annotations_inside_classes_and_objects() -> None:
    assert _spans(KOTLIN, "kotlin") == [
        (3, 3, 16, True, None, "Widget"),
        (4, 8, 11, False, 0, "grow"),  # KDoc and `@Throws` above `fun`
        (12, 12, 15, True, 0, None),  # `companion object`
        (13, 13, 14, False, 2, "empty"),
        (17, 18, 21, False, None, "shrink"),  # an extension function, its signature on 3 lines
    ]
    assert blocks_of(KOTLIN, "kotlin")[4].sig_end == 20


def test_a_scala_member_doc_held_in_the_indented_body_above_it_is_the_members() -> None:
    assert _spans(SCALA, "scala") == [
        (3, 3, 14, True, None, "Widget"),
        (5, 6, 8, False, 0, "grow"),  # ends at its last line of code, not at the next doc
        (9, 10, 13, False, 0, "shrink"),
        (15, 15, 18, True, None, "Widget"),
        (16, 16, 17, False, 3, "empty"),
    ]


def test_lua_functions_are_units_with_their_ldoc_comments() -> None:
    assert _spans(LUA, "lua") == [(2, 4, 8, False, None, "grow"), (9, 9, 12, False, None, "shrink")]


def test_a_zig_struct_bound_to_a_name_is_a_container_of_its_functions() -> None:
    assert _spans(ZIG, "zig") == [
        (3, 3, 11, True, None, "Widget"),
        (6, 7, 10, False, 0, "grow"),
        (12, 12, 15, False, None, "shrink"),
    ]


def test_a_haskell_function_is_its_signature_and_all_its_equations() -> None:
    assert _spans(HASKELL, "haskell") == [
        (6, 6, 10, False, None, "grow"),  # `grow ::`, `grow 0 s`, `grow n s =` and its line
        (12, 12, 14, False, None, "shrink"),
        (15, 15, 17, True, None, "Show"),  # an instance holds its methods
        (16, 16, 17, False, 2, "show"),
    ]
    # the head is the type signature with the first equation: `grow :: Int -> …` and `grow 0 s = s`
    assert [b.sig_end for b in blocks_of(HASKELL, "haskell")][:2] == [8, 14]


def test_a_dart_function_is_its_signature_and_the_body_after_it() -> None:
    assert _spans(DART, "dart") == [
        (3, 3, 15, True, None, "Widget"),
        (6, 8, 11, False, 0, "grow"),  # the doc and `@override` above the signature
        (12, 12, 14, False, 0, "area"),  # a getter whose `=>` body is on the next line
        (16, 17, 20, False, None, "shrink"),
    ]
    assert [b.sig_end for b in blocks_of(DART, "dart")] == [4, 9, 13, 18]


def test_swift_units_are_functions_and_initialisers_inside_types_and_extensions() -> None:
    assert _spans(SWIFT, "swift") == [
        (3, 3, 19, True, None, "Widget"),
        (6, 8, 14, False, 0, "grow"),  # doc and `@inlinable` above, parameters on their own lines
        (15, 15, 18, False, 0, "init"),
        (20, 20, 24, True, None, "Widget"),  # an extension holds its members too
        (21, 22, 23, False, 3, "shrunk"),
    ]
    assert blocks_of(SWIFT, "swift")[1].sig_end == 11


def test_an_ocaml_let_over_several_lines_is_a_unit_inside_its_module() -> None:
    assert _spans(OCAML, "ocaml") == [
        (3, 3, 12, True, None, "Widget"),  # `module Widget = struct … end`
        (6, 7, 9, False, 0, "grow"),  # its `(** … *)` doc above; `let zero = …` is one line
        (13, 14, 17, False, None, "shrink"),
    ]


def test_objective_c_methods_are_units_inside_their_implementation_named_by_selector() -> None:
    assert _spans(OBJC, "objc") == [
        (2, 2, 5, False, None, "clamp"),  # a C function
        (6, 6, 18, True, None, None),  # `@implementation Widget … @end`
        (8, 9, 12, False, 1, "growBy"),  # its comment sits outside the method's own node
        (13, 13, 16, False, 1, "widget"),
    ]


def test_perl_subs_are_units_with_their_comments_an_allman_brace_included() -> None:
    assert _spans(PERL, "perl") == [(4, 5, 10, False, None, "grow"), (11, 11, 16, False, None, "shrink")]
    assert [b.sig_end for b in blocks_of(PERL, "perl")] == [6, 13]


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("okio/Buffer.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("cats/Functor.scala", "scala"),
        ("lua/pl/path.lua", "lua"),
        ("src/main.zig", "zig"),
        ("Data/Map.hs", "haskell"),
        ("lib/src/wrappers.dart", "dart"),
        ("Sources/Deque.swift", "swift"),
        ("src/core/opamProcess.ml", "ocaml"),
        ("SDWebImage/Core/SDImageCache.m", "objc"),
        ("IO/Socket/IP.pm", "perl"),
    ],
)
def test_the_extension_names_the_added_languages(path: str, lang: str) -> None:
    assert language_of(path) == lang


@pytest.mark.parametrize(
    ("first_line", "lang"),
    [
        ("#!/usr/bin/env lua5.4", "lua"),
        ("#!/usr/bin/env runghc", "haskell"),
        ("#!/usr/bin/env kotlin", "kotlin"),
    ],
)
def test_a_shebang_names_the_added_languages(first_line: str, lang: str) -> None:
    assert language_of("bin/tool", [first_line]) == lang


@pytest.mark.parametrize(
    ("path", "source", "goal", "body"),
    [
        ("Widget.kt", KOTLIN, "grows the widget by step", (8, 11)),
        ("Widget.scala", SCALA, "shrinks it", (10, 13)),
        ("widget.lua", LUA, "grows the widget", (4, 8)),
        ("widget.zig", ZIG, "grows the widget by step", (7, 10)),
        ("Acme.hs", HASKELL, "grows the widget by a step", (6, 10)),
        ("widget.dart", DART, "grows the widget by step", (8, 11)),
        ("Widget.swift", SWIFT, "grows the widget by step", (8, 14)),
        ("widget.ml", OCAML, "grows the widget by step", (7, 9)),
        ("Widget.m", OBJC, "grows the widget by step", (9, 12)),
        ("Widget.pm", PERL, "grows the widget by a step", (5, 10)),
    ],
)
def test_the_engine_keeps_the_whole_unit_in_the_added_languages(
    path: str, source: str, goal: str, body: tuple[int, int]
) -> None:
    kept = _kept(source, goal, path)
    assert all(line in kept for line in source.split("\n")[body[0] : body[1]] if line.strip())


@pytest.mark.parametrize(
    ("lang", "source"),
    [
        ("kotlin", KOTLIN),
        ("swift", SWIFT),
        ("scala", SCALA),
        ("lua", LUA + "local n = 1\nif n > 0 then\n  n = 0\nend\n"),
        ("zig", ZIG),
        ("haskell", HASKELL),
        ("ocaml", OCAML + "let area w h =\n  w * h\n"),
        ("objc", OBJC),
        ("perl", PERL),
    ],
)
def test_an_added_language_is_recognised_by_its_lines_without_a_path(lang: str, source: str) -> None:
    assert guess_language(source.split("\n")) == lang


def test_a_shell_local_and_a_lua_local_are_told_apart() -> None:
    shell = ["f() {", "    local cur=1", "    local x y", "    if [[ $x ]]; then", "    fi", "}"]
    lua = ["local M = {}", "local x, y = 1, 2", "local function f(a)", "  return a", "end", "return M"]
    assert guess_language(shell) == "bash"
    assert guess_language(lua) == "lua"


def test_a_failed_parse_in_an_added_language_means_the_heuristics() -> None:
    from mcp_pruner_server.pruning.structure.syntax import syntax_blocks

    for lang in ("kotlin", "scala", "lua", "zig", "haskell", "dart", "swift", "ocaml", "objc", "perl"):
        assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, lang) is None


ADDED = {
    "kotlin": KOTLIN,
    "scala": SCALA,
    "lua": LUA,
    "zig": ZIG,
    "haskell": HASKELL,
    "dart": DART,
    "swift": SWIFT,
}


@settings(max_examples=80, deadline=None)
@given(lang=st.sampled_from(sorted(ADDED)), keep=st.lists(st.booleans(), min_size=40, max_size=40))
# Found by hypothesis: a recovered class whose `}` closed before its nested class ended.
@example(lang="scala", keep=[c == "1" for c in "0001110000100000000000000000111111000001"])
def test_blocks_of_damaged_code_nest_in_the_added_languages(lang: str, keep: list[bool]) -> None:
    _damaged_blocks_nest(ADDED[lang], lang, keep)


def test_a_minified_line_prunes_without_error_in_every_added_language() -> None:
    from mcp_pruner_server.pruning.engine import prune
    from mcp_pruner_server.pruning.types import PruneOptions

    text = "var a=" + "1+" * 50_000 + "1;\n" + "function f(x) {\n  return x;\n}\n"
    for ext in ("kt", "swift", "scala", "dart", "lua", "zig", "hs", "ml", "m", "pm", "ex", "jl"):
        result = prune(text, "f", "code", PruneOptions(path=f"m.{ext}"), "t")
        assert "internal_error" not in result.warnings, ext
