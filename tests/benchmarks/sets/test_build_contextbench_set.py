"""The ContextBench set builder's pure parts: the fix cut per file and read as `-U0` hunks, and an
annotated span found by its text in a file where it sits some lines off."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks" / "sets"))
from build_commit_sets import gold_from_diff
from build_contextbench_set import file_patches, span_lines, zero_context

BEFORE = [f"line {i}" for i in range(1, 41)]

PATCH = (
    "diff --git a/src/a.py b/src/a.py\n"
    "--- a/src/a.py\n"
    "+++ b/src/a.py\n"
    "@@ -9,7 +9,8 @@ def f():\n"
    " line 9\n"
    " line 10\n"
    "-line 11\n"
    "+line eleven\n"
    " line 12\n"
    " line 13\n"
    "+inserted after 13\n"
    " line 14\n"
    " line 15\n"
    "diff --git a/src/b.py b/src/b.py\n"
    "--- a/src/b.py\n"
    "+++ b/src/b.py\n"
    "@@ -1,2 +1,2 @@\n"
    "-x\n"
    "+y\n"
    " z\n"
)


def test_the_fix_is_cut_per_file() -> None:
    patches = file_patches(PATCH)
    assert set(patches) == {"src/a.py", "src/b.py"}
    assert "inserted after 13" in patches["src/a.py"]
    assert "+y" not in patches["src/a.py"]


def test_a_hunk_with_context_gives_its_rewritten_line_as_critical_and_insertion_neighbours_as_gold() -> None:
    fix = gold_from_diff(zero_context(file_patches(PATCH)["src/a.py"]), BEFORE)
    assert fix.critical == (11,)
    assert fix.gold == (11, 13, 14)


def test_a_span_some_lines_off_is_found_by_its_text() -> None:
    span = {"start_line": 3, "end_line": 5, "content": "line 20\nline 21\n\nline 22"}
    assert span_lines(BEFORE, span) == {20, 21, 22}


def test_a_span_whose_text_is_not_in_the_file_is_refused() -> None:
    span = {"start_line": 3, "end_line": 5, "content": "line 3\nsomething else entirely\nline 99"}
    assert span_lines(BEFORE, span) is None
