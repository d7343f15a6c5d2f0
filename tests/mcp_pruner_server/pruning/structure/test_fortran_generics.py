"""A Fortran generic interface's specific procedures (`module procedure :: a, b`), found by name in
any case and over `&` lines, are named by the generic's words too."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import query_weights
from mcp_pruner_server.pruning.structure.fortran_generics import generic_hits, generics_of

MODULE = """\
module values
  implicit none
  interface convert_units
    module procedure :: get_value_int, &
      GET_VALUE_REAL  ! any case
    procedure get_value_str
  end interface convert_units
  interface
    subroutine external_one(x)
      integer :: x
    end subroutine external_one
  end interface
contains
  subroutine get_value_int(x)
    integer :: x
  end subroutine get_value_int
  subroutine get_value_real(x)
    real :: x
  end subroutine get_value_real
  subroutine get_value_str(x)
    character(*) :: x
  end subroutine get_value_str
  subroutine other(x)
    integer :: x
  end subroutine other
end module values
"""


def test_a_generic_interface_lists_its_specifics_by_name_in_any_case_over_continued_lines() -> None:
    assert generics_of(MODULE.split("\n")) == {
        "get_value_int": ["convert_units"],
        "get_value_real": ["convert_units"],
        "get_value_str": ["convert_units"],
    }


def test_a_specific_is_named_by_the_question_words_of_its_generic() -> None:
    lines = MODULE.split("\n")
    query = query_weights("Convert a quantity's units")
    assert generic_hits("get_value_real", generics_of(lines), query).keys() >= {"convert", "unit"}
    assert (
        generic_hits("other", generics_of(lines), query)
        == generic_hits(None, generics_of(lines), query)
        == {}
    )
