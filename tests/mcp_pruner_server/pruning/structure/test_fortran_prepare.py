"""Fortran's name hits read the file's generic interfaces and the question's words once per prune
(`LanguageHooks.prepare`): what one prune read is never what another one sees, whichever runs
between its reading and its use."""

from __future__ import annotations

from mcp_pruner_server.pruning.languages.registry import hooks_of
from mcp_pruner_server.pruning.scoring import query_weights
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.language_hooks import NameHits

CONVERTER = [
    "module converter",
    "  interface convert_units",
    "    module procedure :: get_value_real",
    "  end interface convert_units",
    "contains",
    "  subroutine get_value_real(x)",
    "    real :: x",
    "  end subroutine get_value_real",
    "end module converter",
]
GRIDS = [
    "module grids",
    "  interface rotate_field",
    "    module procedure :: get_value_real",
    "  end interface rotate_field",
    "contains",
    "  subroutine get_value_real(x)",
    "    real :: x",
    "  end subroutine get_value_real",
    "end module grids",
]
PROCEDURE = Block(start=5, header=5, end=8, container=False, parent=None, name="get_value_real")
VECT = Block(start=5, header=5, end=8, container=False, parent=None, name="vect_rot")


def _hits(prepared: tuple[NameHits, ...], block: Block, lines: list[str], question: str) -> set[str]:
    query = query_weights(question)
    return {term for name_hits in prepared for term in name_hits(block, lines, query)}


def test_a_prunes_name_hits_see_its_own_file_and_question_after_another_prune_read_its_own() -> None:
    prepare = hooks_of("fortran").prepare
    assert prepare is not None
    converting = "convert units of the vector rotation in double precision"
    rotating = "rotate the field by a velocity in double precision"
    first = prepare(CONVERTER, query_weights(converting))
    second = prepare(GRIDS, query_weights(rotating))  # read between the first's reading and its use
    # the file's generics: `convert_units` lists the procedure in the first file, `rotate_field` in
    # the second
    assert {"convert", "unit"} <= _hits(first, PROCEDURE, CONVERTER, converting)
    assert not {"rotat", "field"} & _hits(first, PROCEDURE, CONVERTER, converting)
    assert {"rotat", "field"} <= _hits(second, PROCEDURE, GRIDS, rotating)
    assert not {"convert", "unit"} & _hits(second, PROCEDURE, GRIDS, rotating)
    # the question's words: `vect` abbreviates the first's "vector", no word of the second's
    assert "vector" in _hits(first, VECT, CONVERTER, converting)
    assert "vector" not in _hits(second, VECT, GRIDS, rotating)
    assert "veloc" not in _hits(first, VECT, CONVERTER, converting)
