"""A Fortran generic interface's specific procedures (`module procedure :: a, b`), found by name in
any case and over `&` lines, score at least a share of the generic's block."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.fortran_generics import (
    GENERIC_SHARE,
    generic_specifics,
    specifics_with_generics,
)
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks

MODULE = """\
module values
  implicit none
  interface get_value
    module procedure :: get_value_int, &
      GET_VALUE_REAL  ! any case
    procedure get_value_str
  end interface get_value
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


def _blocks() -> list[Block]:
    blocks = syntax_blocks(MODULE, MODULE.count("\n") + 1, "fortran")
    assert blocks is not None
    return blocks


def test_a_generic_interface_lists_its_specifics_by_name() -> None:
    blocks = _blocks()
    names = [b.name for b in blocks]
    found = generic_specifics(MODULE.split("\n"), blocks)
    assert {names[k]: sorted(names[j] for j in js) for k, js in found.items()} == {
        "get_value": ["get_value_int", "get_value_real", "get_value_str"]
    }


def test_each_specific_scores_at_least_a_share_of_its_generic() -> None:
    blocks = _blocks()
    names = [b.name for b in blocks]
    scores = [10.0 if name == "get_value" else 1.0 for name in names]
    raised = dict(zip(names, specifics_with_generics(MODULE.split("\n"), blocks, scores), strict=True))
    assert raised["get_value_int"] == raised["get_value_str"] == GENERIC_SHARE * 10.0
    assert raised["other"] == raised["external_one"] == 1.0
