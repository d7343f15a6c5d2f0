"""Fortran's own hooks (`language_hooks.FORTRAN_HOOKS`) as `code.code_units` scores with them: a
procedure's name field holds the kind and rank its suffixes name (`_dp`, `_2d`) and the question
words its parts abbreviate (`vect`), so of specifics documented alike the one the question spells
out is kept (`fortran_names.py`); a generic interface's specifics are named by its words too
(`fortran_generics.py`)."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks
from tests.mcp_pruner_server.pruning.structure.test_syntax import _kept


def _procedure(name: str, doc: str, decl: str) -> str:
    body = "".join(f"    val = val + {k}\n" for k in range(6))
    lead = f"  !> {doc}\n" if doc else ""
    head = f"{lead}  subroutine {name}(self, val)\n    {decl}, intent(inout) :: val\n"
    return f"{head}{body}  end subroutine {name}\n\n"


def _module(procedures: str) -> str:
    filler = "".join(
        f"  subroutine pad{k}(x)\n    x = x + {k}\n  end subroutine pad{k}\n\n" for k in range(10)
    )
    return f"module values\n  implicit none\ncontains\n{filler}{procedures}end module values\n"


def test_the_specific_whose_kind_suffix_the_question_spells_out_is_kept() -> None:
    text = _module(
        _procedure("get_value_sp", "Retrieve the value as a single precision float", "real(sp)")
        + _procedure("get_value_dp", "", "real(dp)")  # undocumented: its name alone says it
        + _procedure("get_value_qp", "Retrieve the value as a quadruple precision float", "real(qp)")
        + _procedure("get_value_i1", "Retrieve the value as a one byte integer", "integer(i1)")
        + _procedure("get_value_i8", "Retrieve the value as an eight byte integer", "integer(i8)")
    )
    kept = _kept(text, "Retrieve the value as a double precision float", "src/values.f90")
    assert "  subroutine get_value_dp(self, val)" in kept
    assert "  subroutine get_value_i1(self, val)" not in kept


def test_the_procedure_whose_name_abbreviates_the_question_words_is_kept() -> None:
    text = _module(
        _procedure("rot_grid_area", "Grid box area for rotated grids", "real")
        + _procedure("rot_map_jacob", "Map jacobians for rotated grids", "real")
        + _procedure("rot_vect", "", "real")  # undocumented: its name alone says it
        + _procedure("rot_error", "Error handler for rotated grids", "real")
    )
    kept = _kept(text, "Vector rotation fields for rotated grids", "src/grid.f90")
    assert "  subroutine rot_vect(self, val)" in kept


def test_the_specific_of_a_generic_the_question_names_scores_near_the_generic() -> None:
    text = _module(
        _procedure("grow_widget", "Grow a gizmo_type object to the given size", "real")
        + _procedure("new_widget", "", "real")  # the constructor: undocumented, named by its generic
    ).replace(
        "  implicit none\n",
        "  implicit none\n  interface gizmo_type\n    module procedure :: new_widget\n  end interface\n",
    )
    lines = text.split("\n")
    question = "Return a gizmo_type object of the given size"
    query = query_weights(question)
    hits = line_hits(line_terms(lines), query)
    blocks = syntax_blocks(text, len(lines), "fortran")
    units = code_units(
        lines, hits, query, window_scores(query, hits), blocks=blocks, lang="fortran", question=question
    )
    score = {b.name: u.score for b, u in zip(blocks or [], units, strict=False)}
    # without the generic's words it had the call credit of the `module procedure` line alone
    assert score["new_widget"] > score["gizmo_type"] / 2 > score["grow_widget"]
