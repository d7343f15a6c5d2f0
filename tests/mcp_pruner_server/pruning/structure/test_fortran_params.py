"""A question listing Doxygen parameters (`\\param rho ... \\param npoints ...`) documents the
procedure whose dummy arguments are exactly those names: it ranks above its siblings."""

from __future__ import annotations

from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.fortran_params import (
    arguments_of,
    params_named_first,
    question_params,
)
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks


def test_a_question_lists_its_params_in_any_doxygen_spelling() -> None:
    question = r"Compute it \param rho ... \param[in] x ... @param[in,out] E_0 the energy @param n"
    assert question_params(question) == {"rho", "x", "e_0", "n"}
    assert question_params("Compute the density with parameters rho and x") == set()


def test_a_procedures_arguments_are_the_list_after_its_name_over_continued_lines() -> None:
    signature = "  SUBROUTINE vwn_lda_1(rho, x, &                    e_0, NPOINTS) ! the first"
    assert arguments_of("vwn_lda_1", signature) == frozenset({"rho", "x", "e_0", "npoints"})
    assert arguments_of("f", "real(dp) function f(x) result(y)") == frozenset({"x"})
    assert arguments_of("end_run", "subroutine end_run") is None


def test_the_procedure_whose_arguments_are_the_params_listed_ranks_first() -> None:
    question = r"... \param rho ... \param x ... \param npoints ..."
    names = ["vwn_lda_1", "vwn_lda_0", None, "other"]
    signatures = [
        "SUBROUTINE vwn_lda_1(rho, x, e_rho, npoints)",
        "SUBROUTINE vwn_lda_0(rho, x, npoints)",
        "",
        "SUBROUTINE other(rho)",
    ]
    scores = params_named_first(question, names, signatures, [5.0, 3.0, 1.0, 2.0])
    assert scores == [5.0, 8.0, 1.0, 2.0]
    one = r"... \param rho ..."  # the procedures taking `rho` alone
    assert params_named_first(one, names, signatures, [5.0, 3.0, 1.0, 2.0]) == [5.0, 3.0, 1.0, 7.0]
    assert params_named_first("no list", names, signatures, [5.0, 3.0, 1.0, 2.0]) == [5.0, 3.0, 1.0, 2.0]


def test_fortrans_units_rank_the_procedure_the_param_list_documents_first() -> None:
    text = """\
module vwn
contains
  !> \\brief evaluates the vwn functional and its first derivatives for the density rho
  !> \\param rho the density \\param x its root \\param e_0 the energy \\param e_rho its derivative
  subroutine vwn_lda_1(rho, x, e_0, e_rho, npoints)
    real :: rho(:), x(:), e_0(:), e_rho(:)
    integer :: npoints
    e_rho = rho + x + e_0
  end subroutine vwn_lda_1
  subroutine vwn_lda_0(rho, x, e_0, npoints)
    real :: rho(:), x(:), e_0(:)
    integer :: npoints
    e_0 = rho + x
  end subroutine vwn_lda_0
end module vwn
"""
    lines = text.split("\n")
    question = r"... \param rho ... \param x ... \param e_0 ... \param npoints ..."
    query = query_weights(question)
    hits = line_hits(line_terms(lines), query)
    blocks = syntax_blocks(text, len(lines), "fortran")
    units = code_units(
        lines, hits, query, window_scores(query, hits), blocks=blocks, lang="fortran", question=question
    )
    score = {b.name: u.score for b, u in zip(blocks or [], units, strict=False)}
    assert score["vwn_lda_0"] > score["vwn_lda_1"]
