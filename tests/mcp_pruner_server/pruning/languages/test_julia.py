"""Julia units from its grammar: functions, macros and structs inside their module, a signature over
several lines and a macro around a function included, its docstring left to the chunks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, blocks_of

JULIA = """\
module Shapes

using LinearAlgebra

\"\"\"
    area(r)

The area of a disc.
\"\"\"
function area(r::Real)
    return pi * r^2
end

# Scales it.
@inline function scale(
    x::T,
    k::Real,
) where {T}
    y = k * x

    return y
end

Base.size(s::Shape) = s.n
perimeter(r) =
    2 * pi * r

struct Disc{T} <: Shape
    r::T
end

end
"""


def _spans(text: str, lang: str = "julia") -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


def test_julia_units_are_functions_macros_and_structs_inside_their_module() -> None:
    assert _spans(JULIA, "julia") == [
        (0, 0, 32, True, None, "Shapes"),
        (9, 9, 12, False, 0, "area"),  # its docstring above is a chunk of its own
        (13, 14, 22, False, 0, "scale"),  # its comment and `@inline`; `) where {T}` then the body
        (24, 24, 26, False, 0, "perimeter"),  # a short function over two lines; one line is a chunk
        (27, 27, 30, False, 0, "Disc"),
    ]
    assert blocks_of(JULIA, "julia")[2].sig_end == 18  # the signature runs to `) where {T}`


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "julia") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_julia_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(JULIA, "julia", keep)
