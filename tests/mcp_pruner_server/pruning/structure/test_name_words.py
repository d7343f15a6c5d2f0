"""Names and the question's words: twins told apart by a word, parts that are the question's acronyms."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.phrases import acronym_terms
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.name_words import (
    NAMED_TWIN_LEAD,
    named_twins_first,
)
from mcp_pruner_server.pruning.structure.syntax import syntax_blocks

NAMES = ["sample_from_pdf", "sample_from_pdf_masked", "sample_from_pdf_block"]
QUESTION = "For true elements of mask, extract the values of a PDF corresponding to the values cdf"


def test_the_twin_named_by_a_word_the_other_never_mentions_comes_first() -> None:
    query = query_weights(QUESTION)
    scores = named_twins_first(NAMES, [10.0, 7.0, 6.5], query, [{"pdf": 2}, {"pdf": 1}, {"pdf": 1}])
    assert scores == [10.0, 10.0 * NAMED_TWIN_LEAD, 6.5]  # the question says no "block"


def test_no_twin_comes_first_when_the_other_mentions_the_word_too_or_scores_far_below() -> None:
    query = query_weights(QUESTION)
    mentions_mask = [{"pdf": 2, "mask": 1}, {"pdf": 1}, {"pdf": 1}]
    assert named_twins_first(NAMES, [10.0, 7.0, 6.5], query, mentions_mask) == [10.0, 7.0, 6.5]
    hits = [{"pdf": 2}, {"pdf": 1}, {"pdf": 1}]
    assert named_twins_first(NAMES, [10.0, 3.0, 6.5], query, hits) == [10.0, 3.0, 6.5]


def test_a_synonym_of_the_questions_words_names_no_twin() -> None:
    # "execute" stands for `run` (a synonym's weight): the question does not say `run_query`
    query = query_weights("Then we execute queries in parallel")
    names = ["query", "run_query"]
    assert query.get("run", 0.0) < 1.0
    assert named_twins_first(names, [10.0, 8.0], query, [{}, {}]) == [10.0, 8.0]


PDF_SAMPLER = """\
module pdf_sampler
contains
  ! Extract the value from a PDF with fractional standard deviation "fsd" corresponding
  ! to the cumulative distribution function value "cdf", and return it in val.
  elemental subroutine sample_from_pdf(fsd, cdf, val)
    real, intent(in) :: fsd, cdf
    real, intent(out) :: val
    val = fsd * cdf
  end subroutine sample_from_pdf

  subroutine sample_from_pdf_masked(nsamp, fsd, cdf, val, mask)
    integer, intent(in) :: nsamp
    real, intent(in) :: fsd(nsamp), cdf(nsamp)
    real, intent(out) :: val(:)
    logical, intent(in) :: mask(nsamp)
    integer :: jsamp
    do jsamp = 1, nsamp
      if (mask(jsamp)) then
        val(jsamp) = fsd(jsamp) * cdf(jsamp)
      else
        val(jsamp) = 0.0
      end if
    end do
  end subroutine sample_from_pdf_masked
end module pdf_sampler
"""
SAMPLER_QUESTION = (
    'For true elements of mask, extract the values of a PDF with fractional standard deviation "fsd" '
    'corresponding to the cumulative distribution function values "cdf", and return in val.'
)


def test_code_units_rank_the_twin_the_question_names_first() -> None:
    lines = PDF_SAMPLER.split("\n")
    query = query_weights(SAMPLER_QUESTION)
    blocks = syntax_blocks(PDF_SAMPLER, len(lines), "fortran")
    units = code_units(lines, line_hits(line_terms(lines), query), query, blocks=blocks, lang="fortran")
    best = max(units, key=lambda u: u.score)
    assert lines[best.lines[0]].strip().startswith("subroutine sample_from_pdf_masked")


def test_acronyms_are_the_initials_of_three_or_four_words_without_stop_words() -> None:
    found = acronym_terms(
        "the inverse cumulative distribution function (quantile) of Adams-Bashforth-Moulton"
    )
    assert {"cdf", "icdf", "abm"} <= set(found)
    assert "tic" not in found  # "the" is a stop word
    assert "dfq" not in found  # a clause ends at the parenthesis
    assert acronym_terms("a mean squared error") == ["mse"]


def test_comparing_names_stops_at_a_deadline_passing_once_their_parts_are_known() -> None:
    reads = iter([0.0])  # in time while the names are cut into parts, then far later
    deadline = Deadline(at=1.0, timeout_ms=1000, clock=lambda: next(reads, 1e9))
    query = query_weights(QUESTION)
    with pytest.raises(EngineTimeout):
        named_twins_first(NAMES, [10.0, 7.0, 6.5], query, [{}, {}, {}], deadline=deadline)
