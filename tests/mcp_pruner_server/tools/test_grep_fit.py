"""Grep results fitted to a byte cap: long lines cut with a marker, never a match dropped."""

from __future__ import annotations

from mcp_pruner_server.tools.grep_fit import MIN_HEAD_BYTES, cut_line, fit_listing, fit_matches
from tools_exec.grep import GrepMatch
from tools_exec.limits import MATCH_OVERHEAD_BYTES


def _size(matches: list[GrepMatch]) -> int:
    return sum(len(m.path.encode()) + len(m.text.encode()) + MATCH_OVERHEAD_BYTES for m in matches)


def test_matches_that_fit_are_returned_as_they_are() -> None:
    matches = [GrepMatch("a.py", 1, 1, "def a():"), GrepMatch("a.py", 9, 1, "def b():")]
    assert fit_matches(matches, 1024) == matches


def test_a_long_match_is_cut_to_its_head_with_a_marker_and_the_others_stay_whole() -> None:
    long = "x = '" + "é" * 5000 + "'"
    matches = [
        GrepMatch("a.py", 1, 1, "def a():"),
        GrepMatch("a.py", 2, 1, long),
        GrepMatch("a.py", 3, 1, "def b():"),
    ]
    fitted = fit_matches(matches, 1024)
    assert fitted is not None
    assert [m.line for m in fitted] == [1, 2, 3]
    assert (fitted[0], fitted[2]) == (matches[0], matches[2])
    head, marker = fitted[1].text.split("⟦")
    assert long.startswith(head)
    assert marker == f"TRUNCATED: {len(long.encode()) - len(head.encode())} bytes not shown⟧"
    assert 900 < _size(fitted) <= 1024  # as much of the long line as the cap allows


def test_too_many_matches_for_the_cap_cannot_be_fitted() -> None:
    matches = [GrepMatch("a.py", k, 1, "y" * 200) for k in range(100)]
    assert fit_matches(matches, 100 * (MIN_HEAD_BYTES + 4 + MATCH_OVERHEAD_BYTES)) is None


def test_a_line_that_fits_with_its_marker_is_not_cut() -> None:
    assert cut_line("short", 0) == "short"
    assert cut_line("z" * 200, 10) == "z" * 10 + "⟦TRUNCATED: 190 bytes not shown⟧"


def test_a_pruned_listing_keeps_its_numbers_paths_and_markers_and_cuts_only_the_long_text() -> None:
    matches = [GrepMatch("a.py", 1, 1, "def a():"), GrepMatch("a.py", 2, 1, "q" * 10_000)]
    marker = "[lines 3-9 pruned]"
    listing = f"1 a.py:1:def a():\n2 a.py:2:{'q' * 10_000}\n{marker}\n"
    fitted = fit_listing(listing, matches, 512)
    assert fitted is not None
    lines = fitted.split("\n")
    assert lines[0] == "1 a.py:1:def a():"
    assert lines[1].startswith("2 a.py:2:qqqq")
    assert lines[1].endswith(" bytes not shown⟧")
    assert lines[2:] == [marker, ""]
    assert 400 < len(fitted.encode()) <= 512
