"""The pure helpers that decide whether the agent got the lines it needs."""

from __future__ import annotations

import pytest

from runner.demo import lines as ln

SOURCE = (
    "import os\n\n\ndef helper():\n    return 1\n\n\n@decorated\ndef target(x):\n\n    return x + helper()\n"
)
PRUNED = (
    "[lines 1-7 pruned]\n8 @decorated\n9 def target(x):\n\n11     return x + helper()\n\n"
    "[7 of 12 lines pruned · recover_text prune_id=prn_1]"
)
LOG = """\
tests/test_a.py::test_ok PASSED
tests/test_a.py::test_bad FAILED

=================================== FAILURES ===================================
___________________________________ test_bad ___________________________________

    def test_bad():
>       assert 1 == 2
E       assert 1 == 2

tests/test_a.py:5: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::test_bad - assert 1 == 2
"""


def test_shown_lines_of_a_pruned_output_keep_the_original_numbers_and_skip_markers() -> None:
    shown = ln.shown_lines(PRUNED, pruned=True)

    assert shown == {8: "@decorated", 9: "def target(x):", 11: "    return x + helper()"}


def test_shown_lines_of_recovered_lines_read_their_canonical_numbers() -> None:
    assert ln.shown_lines("4│ def helper():\n5│     return 1", pruned=True) == {
        4: "def helper():",
        5: "    return 1",
    }


def test_lines_served_without_numbers_are_numbered_by_the_ranges_asked() -> None:
    ranges = [{"start_line": 4, "end_line": 5}, {"start_line": 9, "end_line": 9}]

    assert ln.served_lines("def helper():\n    return 1\ndef target(x):", ranges) == {
        4: "def helper():",
        5: "    return 1",
        9: "def target(x):",
    }


def test_the_trailer_names_the_prune_id_the_markers_leave_out() -> None:
    assert ln.trailer_prune_ids(PRUNED) == ["prn_1"]
    assert ln.trailer_prune_ids("8 @decorated") == []


def test_shown_lines_of_a_raw_output_are_numbered_from_one() -> None:
    assert ln.shown_lines("a\nb", pruned=False) == {1: "a", 2: "b"}


def test_markers_give_the_hidden_ranges() -> None:
    assert ln.markers(PRUNED) == [ln.PrunedRange(1, 7)]


def test_function_lines_include_the_decorator_and_skip_blank_lines() -> None:
    assert ln.function_lines(SOURCE, "target") == {
        8: "@decorated",
        9: "def target(x):",
        11: "    return x + helper()",
    }


def test_function_lines_of_an_unknown_function_raise() -> None:
    with pytest.raises(LookupError):
        ln.function_lines(SOURCE, "nowhere")


def test_missing_reports_a_needed_line_hidden_by_a_marker() -> None:
    needed = ln.function_lines(SOURCE, "helper")
    shown = ln.shown_lines(PRUNED, pruned=True)

    lost = ln.missing(needed, shown)

    assert lost == {4: "def helper():", 5: "    return 1"}
    assert ln.ranges_covering(lost, ln.markers(PRUNED)) == [ln.PrunedRange(1, 7)]


def test_missing_is_empty_when_every_needed_line_is_shown() -> None:
    needed = ln.function_lines(SOURCE, "target")

    assert ln.missing(needed, ln.shown_lines(PRUNED, pruned=True)) == {}


def test_a_line_with_the_right_text_under_another_number_does_not_count() -> None:
    assert ln.missing({5: "    return 1"}, {6: "    return 1"}) == {5: "    return 1"}


def test_failure_lines_are_the_header_the_assertion_the_e_lines_and_the_failed_line() -> None:
    needed = ln.failure_lines(LOG, "test_bad")

    assert sorted(needed.values()) == sorted(
        [
            "___________________________________ test_bad ___________________________________",
            ">       assert 1 == 2",
            "E       assert 1 == 2",
            "FAILED tests/test_a.py::test_bad - assert 1 == 2",
        ]
    )


def test_failure_lines_of_a_test_that_did_not_fail_raise() -> None:
    with pytest.raises(LookupError):
        ln.failure_lines(LOG, "test_ok")
