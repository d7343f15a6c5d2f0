"""`LineIndex`: whole-text finds answer with exactly the lines a per-line search would."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_pruner_server.pruning import lineindex
from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.text import split_lines

_LINES = st.lists(st.text(alphabet="abEeRrOo é>-=\t", max_size=12), min_size=1, max_size=30)


def _index(lines: list[str]) -> LineIndex:
    return LineIndex("\n".join(lines), lines)


@given(_LINES, st.sampled_from(["err", "o", "ré", "e e"]))
def test_lines_containing_is_the_per_line_search(lines: list[str], needle: str) -> None:
    index = _index(lines)
    assert index.lines_containing([needle], ignore_case=False) == [
        i for i, x in enumerate(lines) if needle in x
    ]
    expected = [i for i, x in enumerate(lines) if needle in x.lower()]
    assert index.lines_containing([needle], ignore_case=True) == expected


@given(_LINES)
def test_lines_starting_with_is_the_per_line_test(lines: list[str]) -> None:
    index = _index(lines)
    expected = [i for i, x in enumerate(lines) if x[:1] in ("E", ">") and x]
    assert index.lines_starting_with("E>") == expected
    assert index.lines_starting_with(lineindex.EMPTY_LINE_MARK) == [i for i, x in enumerate(lines) if not x]


def test_a_needle_across_a_chunk_boundary_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lineindex, "LOWER_CHUNK_CHARS", 8)
    text = "abcdef\nxxxxxERROR here\nnothing\nerr"
    index = LineIndex(text, split_lines(text))
    assert index.lines_containing(["error", "err"], ignore_case=True) == [1, 3]


def test_line_of_maps_offsets_to_lines() -> None:
    text = "ab\n\ncd"
    index = LineIndex(text, split_lines(text))
    assert [index.line_of(o) for o in range(len(text))] == [0, 0, 0, 1, 2, 2]


@given(_LINES, st.lists(st.sampled_from(["err", "error", "rr", "o", "ré", "bo"]), min_size=1, max_size=4))
def test_needles_holding_other_needles_change_nothing(lines: list[str], needles: list[str]) -> None:
    expected = [i for i, x in enumerate(lines) if any(n in x.lower() for n in needles)]
    assert _index(lines).lines_containing(needles, ignore_case=True) == expected


def test_a_deadline_passing_while_a_needle_is_found_in_every_line_stops_the_search() -> None:
    from mcp_pruner_server.pruning.deadline import CHECK_EVERY, Deadline
    from mcp_pruner_server.pruning.errors import EngineTimeout

    lines = [f"INFO request {k} ok" for k in range(3 * CHECK_EVERY)]
    reads = iter([0.0])  # the clock reads 0 once (the needle's search starts in time), then far later
    deadline = Deadline(at=1.0, timeout_ms=1000, clock=lambda: next(reads, 1e9))
    with pytest.raises(EngineTimeout):
        _index(lines).lines_containing(["request"], ignore_case=False, deadline=deadline)
