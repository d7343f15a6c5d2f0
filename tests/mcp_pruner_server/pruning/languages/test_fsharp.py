"""F# units from its grammar: its `let` functions and `member`s with the `///` docs and attributes
above them, inside the module, namespace or type that holds them (a `///` the grammar gives to the
body before stays out of it); a text too large for its slow grammar goes to the heuristics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.languages.registry import grammar_of as language
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, _kept, blocks_of

FSHARP = """\
namespace Acme.Widgets

open System

/// Helpers over widgets.
module Helpers =
    /// Adds two sizes.
    /// <param name="x">The first.</param>
    let add x y = x + y

    let private origin = 0

    [<CompiledName("Twice")>]
    let inline twice (f: int -> int) x =
        f (f x)

    let rec countDown n =
        if n = 0 then 0
        else countDown (n - 1)

/// A widget with a name.
type Widget(name: string) =
    let mutable spins = 0

    /// The widget's name.
    member this.Name = name

    abstract Weight : unit -> float

    /// Spins it, and says how often it was.
    member this.Spin(times: int) =
        spins <- spins + times
        spins

type Point = { X: int; Y: int }
"""


def test_each_of_fsharp_types_joined_by_and_holds_its_members() -> None:
    text = (
        "module Trees\n\ntype Tree =\n    | Leaf\n    member t.Size =\n        1\n\n"
        "and Forest =\n    | Trees of Tree list\n    member f.Count =\n        0\n"
    )
    members = [(b.name, b.parent) for b in blocks_of(text, "fsharp") if not b.container]
    assert members == [("Size", 2), ("Count", 4)]


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/Json.fs", "fsharp"),
        ("build.fsx", "fsharp"),
        ("src/Json.fsi", "fsharp_signature"),  # no grammar reads its members: the heuristics
    ],
)
def test_fsharp_files_are_read_with_its_grammar_and_signature_files_without(path: str, lang: str) -> None:
    assert language_of(path, ["let parse (s: string) ="]) == lang
    assert (language(lang) is not None) == (lang != "fsharp_signature")


def test_fsharp_units_are_functions_and_members_with_their_docs_inside_their_containers() -> None:
    assert _spans(FSHARP, "fsharp") == [
        (0, 0, 35, True, None, "Widgets"),
        (5, 5, 19, True, 0, "Helpers"),  # its doc above is a chunk of its own
        (6, 8, 9, False, 1, "add"),  # its `///` lines
        (12, 13, 15, False, 1, "twice"),  # its attribute; `let private origin = 0` is no unit
        (16, 16, 19, False, 1, "countDown"),  # not the type's `///` the grammar puts in its body
        (21, 21, 33, True, 0, "Widget"),  # its `///`, in the body above, is no context of members
        (24, 25, 26, False, 5, "Name"),  # `abstract Weight` declares only
        (29, 30, 33, False, 5, "Spin"),
    ]
    # the head of a type is its `type … =` line, of a function the line of its `=`
    assert [b.sig_end for b in blocks_of(FSHARP, "fsharp")][5:] == [22, 26, 31]


def test_an_fsharp_let_whose_head_the_parser_wraps_in_an_error_is_named_by_its_identifier() -> None:
    # A text cut mid-function (a read of part of a file) starts with a stray indented line.
    text = """        let pieces =
let mkConstraint (tc: SynTypeConstraint) : TypeConstraint =
    match tc with
    | SynTypeConstraint.WhereTyparIsValueType(tp, EndRange 6 (mKeyword, m)) ->
        TypeConstraintSingleNode(mkSynTypar tp, stn "struct" mKeyword, m)
        |> TypeConstraint.Single

// Arrow type is right-associative
let rec visitTFuns acc t =
    match t with
    | SynType.Fun(t1, t2, _, trivia) -> visitTFuns ((t1, trivia.ArrowRange) :: acc) t2
    | _ -> List.rev acc, t

[<return: Struct>]
let (|TFuns|_|) t =
    match t with
    | SynType.Fun _ -> ValueSome(visitTFuns [] t)
    | _ -> ValueNone
"""
    names = [b.name for b in blocks_of(text, "fsharp")]
    assert names[:2] == ["mkConstraint", "visitTFuns"]  # not the text of the whole head and body


def test_an_fsharp_text_too_large_for_its_slow_grammar_means_the_heuristics() -> None:
    filler = "".join(f"    let pad{k} (x: int) =\n        x + {k}\n\n" for k in range(7000))
    text = FSHARP.replace("    let private origin", filler + "    let private origin")
    assert len(text) < 2_000_000  # any other language's grammar would parse it
    assert syntax_blocks(text, text.count("\n") + 1, "fsharp") is None


def test_the_engine_keeps_the_whole_fsharp_member() -> None:
    filler = "".join(f"    member this.Pad{k}(x: int) =\n        x + {k}\n\n" for k in range(30))
    text = FSHARP.replace("    abstract Weight", filler + "    abstract Weight")
    kept = _kept(text, "spin the widget and count how often", "src/Widget.fs")
    assert all(line in kept for line in FSHARP.split("\n")[30:33])
    assert "    member this.Pad7(x: int) =" not in kept  # pruned, not a fail-open copy


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "fsharp") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_fsharp_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(FSHARP, "fsharp", keep)
