"""Lexical relevance of lines to a question."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.scoring import (
    LEAD_WEIGHT,
    UNSAID_NAME_FLOOR,
    Doc,
    LineHits,
    bm25,
    line_hits,
    line_terms,
    names_said,
    query_weights,
    score_lines,
    window_scores,
)
from mcp_pruner_server.pruning.sparse import sparse_line_hits


def test_the_best_line_scores_one_and_unrelated_or_blank_lines_zero() -> None:
    lines = ["def parse_record(raw):", "", "x = 1", "y = 2", "z = 3", "w = 4", "def unrelated():"]
    scores = score_lines(lines, "parse the record", "code")
    assert scores[0] == 1.0
    assert scores[1] == 0.0
    assert scores[6] == 0.0


def test_a_question_term_matches_inside_a_run_together_identifier() -> None:
    lines = ["a = 1", "b = 2", "return self._fp.fileno()", "c = 3", "d = 4", "e = 5"]
    scores = score_lines(lines, "the file descriptor", "code")
    assert max(range(len(lines)), key=scores.__getitem__) == 2


_WORDS = st.sampled_from(
    [
        "retry",
        "retries",
        "retried",
        "fileno",
        "readlines",
        "parseRecord",
        "parse_record",
        "HTTPError",
        "webhooks",
        "payment",
        "failed",
        "saved",
        "cfg",
        "configuration",
        "CPUs",
        "x",
        "é",
        "storeFileBreaks",
    ]
)


@given(
    st.lists(st.lists(_WORDS, max_size=6).map(" ".join), min_size=1, max_size=25),
    st.lists(_WORDS, min_size=1, max_size=3).map(" ".join),
)
def test_sparse_line_hits_finds_every_line_the_full_tokeniser_does(lines: list[str], question: str) -> None:
    query = query_weights(question)
    full = line_hits(line_terms(lines), query)
    sparse = sparse_line_hits(lines, LineIndex("\n".join(lines), lines), query)
    assert sparse.hits == full.hits
    assert sparse.lengths == [len(line) for line in lines]  # characters stand for terms


def test_a_definitions_lead_lines_count_less_than_its_code_but_their_length_in_full() -> None:
    lines = ["/// Returns the maximum value.", "fn max_value() {", "    maximum()", "}"]
    query = query_weights("the maximum value")
    lh = line_hits(line_terms(lines), query)
    whole, led = lh.span(0, 4), lh.led(0, 1, 4)
    assert led.length == whole.length
    assert led.hits["maximum"] == 1 + LEAD_WEIGHT  # the call in the body counts in full
    assert led.hits["max"] == whole.hits["max"] == 1  # the header's name in full
    assert lh.led(1, 1, 4) == lh.span(1, 4)  # nothing before the header: the plain bag


def test_a_name_the_question_says_in_part_counts_less_than_one_it_says_wholly_or_not_at_all() -> None:
    query = query_weights("Creates a fork-join scope for the tasks")
    whole, created, in_part, same_parts, unsaid, dunder, chunk = names_said(
        ["scope", "create_scope", "in_place_scope", "placeScope", "spawn_broadcast", "__init__", None], query
    )
    assert whole == created == 1.0
    assert UNSAID_NAME_FLOOR < in_part < 1.0  # `place` unsaid
    assert in_part == same_parts
    assert unsaid == 1.0  # not said at all: a paraphrase, nothing to tell
    assert dunder == chunk == 1.0
    assert names_said(["scopeRuntime"], query_weights("the scope to run in")) == [
        1.0
    ]  # `runtime` holds "run"


def test_a_question_word_written_run_together_matches_an_identifier_s_consecutive_parts() -> None:
    lines = ["func (opt Options) WithInMemory(b bool) Options {", "x = read_only", "isReadOnly()", "is_set"]
    hits = line_hits(line_terms(lines), query_weights("the inmemory mode, readonly or isset")).hits
    assert hits[0]["inmemori"] == 1
    assert hits[1]["readonli"] == hits[2]["readonli"] == 1
    assert not hits[3]  # a join shorter than MIN_JOINED letters is chance


def test_a_synonym_never_outweighs_the_question_word_it_stands_for_when_the_text_uses_that_word() -> None:
    query = query_weights("the query")
    assert query["fetch"] < 1.0  # a synonym of "query"
    docs = [*[Doc({"queri": 1}, 5)] * 3, Doc({"fetch": 1}, 5), Doc({}, 5)]
    uses_query = bm25(query, docs)
    assert uses_query[3] <= uses_query[0]  # `fetch`, rarer here, still counts less than "query"
    never_says_query = bm25(query, [Doc({"fetch": 1}, 5), Doc({}, 5), Doc({}, 5)])
    assert never_says_query[0] > 0.0  # there the synonym is the text's word for it


class _CountedLines(list[int]):
    """Hit lines that count how many a loop has taken."""

    taken = 0

    def __iter__(self) -> Iterator[int]:
        for i in super().__iter__():
            self.taken += 1
            yield i


def test_window_scores_gathers_no_more_windows_once_its_deadline_has_passed() -> None:
    from mcp_pruner_server.pruning.deadline import CHECK_EVERY, Deadline
    from mcp_pruner_server.pruning.errors import EngineTimeout

    lines = [f"request {k} failed" for k in range(3 * CHECK_EVERY)]
    query = query_weights("why did the request fail")
    found = line_hits(line_terms(lines), query)
    counted = _CountedLines()
    lh = LineHits(found.hits, found.lengths, counted)  # fills `counted` with the hit lines
    with pytest.raises(EngineTimeout):
        window_scores(query, lh, deadline=Deadline(at=0.0, timeout_ms=1, clock=lambda: 1.0))
    assert counted.taken <= CHECK_EVERY < len(counted)  # a batch at most, not every hit line
