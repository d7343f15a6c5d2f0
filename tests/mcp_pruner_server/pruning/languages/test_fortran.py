"""Fortran units from its grammar: functions and subroutines with their `!>` docs inside their
module (a fypp line hides nothing), derived types (a long one a container), a module as their
container; a fixed-form file the free-form grammar cannot read goes to the heuristics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.languages.registry import grammar_of as language
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure.code import CHUNK_LINES, code_units
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from mcp_pruner_server.pruning.structure.syntax_grammars import unwrapped
from tests.mcp_pruner_server.pruning.structure.test_syntax import _damaged_blocks_nest, _kept, blocks_of

FORTRAN = """\
#:include 'common.fypp'
!> Shapes and their areas.
module shapes
  use iso_fortran_env, only: dp => real64
  implicit none

  !> A point in the plane.
  type :: point_t
    real(dp) :: x, y
  end type point_t

contains

  !> The area of a disc.
  !! Its radius is positive.
  pure function disc_area(r) result(a)
    real(dp), intent(in) :: r
    real(dp) :: a
    a = 3.14159_dp * r**2
  end function disc_area

#:if WITH_MPI
  SUBROUTINE Scale_All(xs, &
      & k)
    real(dp), intent(inout) :: xs(:)
    real(dp), intent(in) :: k
    xs = k * xs
  END SUBROUTINE Scale_All
#:endif

end module shapes
"""


def _spans(text: str, lang: str) -> list[tuple[int, int, int, bool, int | None, str | None]]:
    return [(b.start, b.header, b.end, b.container, b.parent, b.name) for b in blocks_of(text, lang)]


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("src/io.f90", "fortran"),
        ("src/dftb/scc.F90", "fortran"),
        ("blas/daxpy.f", "fortran"),
        ("lib/solve.FOR", "fortran"),
    ],
)
def test_fortran_files_are_read_with_its_grammar(path: str, lang: str) -> None:
    assert language_of(path, ["let parse (s: string) ="]) == lang
    assert (language(lang) is not None) == (lang != "fsharp_signature")


def test_fortran_units_are_procedures_and_types_inside_their_module_past_fypp_lines() -> None:
    assert _spans(FORTRAN, "fortran") == [
        (2, 2, 31, True, None, "shapes"),
        (6, 7, 10, False, 0, "point_t"),
        (13, 15, 20, False, 0, "disc_area"),  # its `!>` and `!!` lines
        (22, 22, 28, False, 0, "Scale_All"),  # inside `#:if`, in upper case
    ]
    assert blocks_of(FORTRAN, "fortran")[3].sig_end == 24  # the header's `&` line is in it


def _long_type(components: int) -> str:
    fields = "".join(
        f"    ! The radius of ring {k}.\n    real :: ring_radius_{k} = {k}.0\n" for k in range(components)
    )
    return (
        "module rings\n  implicit none\n\n  !> Every ring of the model.\n  type :: rings_t\n"
        + fields
        + "  end type rings_t\n\ncontains\n\n  !> The area of a ring.\n"
        + "  pure function ring_area(r) result(a)\n    real, intent(in) :: r\n    real :: a\n"
        + "    a = 3.14159 * r**2\n  end function ring_area\n\nend module rings\n"
    )


def test_a_long_fortran_derived_type_is_a_container_its_components_chunks() -> None:
    assert [(b.name, b.container) for b in blocks_of(_long_type(20), "fortran")] == [
        ("rings", True),
        ("rings_t", True),  # its 40 lines of components: not one unit (nor its doc its context)
        ("ring_area", False),
    ]
    assert [(b.name, b.container) for b in blocks_of(_long_type(3), "fortran")][1] == ("rings_t", False)
    lines = _long_type(20).split("\n")
    query = query_weights("the area of a ring of the given radius")
    blocks = blocks_of(_long_type(20), "fortran")
    units = code_units(lines, line_hits(line_terms(lines), query), query, blocks=blocks, lang="fortran")
    assert units[1].lines == (4,)  # the type's header; its components are chunks of their own
    assert max(len(u.lines) for u in units) <= CHUNK_LINES


FYPP = """\
#:set KINDS = [('real', 'r'), ('complex', 'c')]
module sparse
  implicit none
#:if WITH_MPI
  public :: redist
#:endif
contains

#:for NAME, TYPE in KINDS
  !> Sums the ${NAME}$ entries.
  subroutine sum_${TYPE}$(xs, total)
    ${NAME}$(dp), intent(in) :: xs(:)
    ${NAME}$(dp), intent(out) :: total
    @:ASSERT(size(xs) > 0)
    total = sum(xs)
  end subroutine sum_${TYPE}$
#:endfor

  subroutine scale(xs, k)
    real(dp), intent(inout) :: xs(:)
    xs = k * xs
  end subroutine scale

end module sparse
"""


def test_fypp_lines_hide_no_fortran_procedure() -> None:
    spans = [(b.start, b.end, b.container) for b in blocks_of(FYPP, "fortran")]
    assert spans == [(1, 24, True), (9, 16, False), (18, 22, False)]


def test_a_fixed_form_fortran_file_means_the_heuristics() -> None:
    fixed = (
        "*> \\brief Adds a multiple of one vector to another.\n"
        "*\n"
        "      SUBROUTINE DAXPY(N,DA,DX,DY)\n"
        "*     .. Scalar Arguments ..\n"
        "      DOUBLE PRECISION DA\n"
        "      INTEGER N\n"
        "*     ..\n"
        "      DOUBLE PRECISION DX(*),DY(*)\n"
        "      IF (N.LE.0) RETURN\n"
        "      DO 10 I = 1,N\n"
        "         DY(I) = DY(I) + DA*DX(I)\n"
        "     $           + 0.0D0\n"
        "   10 CONTINUE\n"
        "      RETURN\n"
        "      END\n"
    )
    assert syntax_blocks(fixed, fixed.count("\n") + 1, language_of("daxpy.f")) is None


def test_the_engine_keeps_the_whole_fortran_procedure() -> None:
    filler = "".join(
        f"  subroutine pad{k}(x)\n    x = x + {k}\n  end subroutine pad{k}\n\n" for k in range(30)
    )
    text = FORTRAN.replace("#:if WITH_MPI", filler + "#:if WITH_MPI")
    kept = _kept(text, "scale all the values by a factor", "src/shapes.F90")
    assert all(line in kept for line in FORTRAN.split("\n")[22:28])
    assert "  subroutine pad7(x)" not in kept


def test_readers_without_wrappers_share_one_unwrap() -> None:
    # One identity helper for every language whose definitions have no wrapper, not a copy each.
    assert by_name("fortran").syntax.unwrap is unwrapped
    assert by_name("solidity").syntax.unwrap is unwrapped


def test_a_failed_parse_means_the_heuristics() -> None:
    assert syntax_blocks("{{{{ ]] (( end end fi } def\n" * 20, 21, "fortran") is None


@settings(max_examples=40, deadline=None)
@given(keep=st.lists(st.booleans(), min_size=40, max_size=40))
def test_blocks_of_damaged_fortran_code_nest(keep: list[bool]) -> None:
    _damaged_blocks_nest(FORTRAN, "fortran", keep)
