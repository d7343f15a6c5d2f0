"""The real-question bench's scoring: the pruner's figures and bm25block's at the same kept count."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
import lang_bench
from real_questions_bench import score

pytestmark = pytest.mark.skipif(
    not lang_bench.HARNESS.exists(), reason="the shared harness is not on this machine"
)

TEXT = "\n".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(5))  # 15 lines, 10 non-blank


def _task(kind: str, gold: list[int], critical: list[int]) -> dict[str, Any]:
    return {
        "text": TEXT,
        "goal_hint": "what does f3 return",
        "source_type": "code",
        "gold": gold,
        "critical": critical,
        "question_kind": kind,
    }


def test_scores_average_over_tasks_and_split_by_question_kind() -> None:
    tasks = [_task("names_symbol", [10, 11], [11]), _task("plain", [1, 2], [])]

    def keep_lines_10_and_11(task: dict[str, Any], ratio: float) -> set[int]:
        return {9, 10, 11}  # 0-based: lines 10 and 11, and a blank line that does not count as kept

    res = score(tasks, 0.8, keep_lines_10_and_11)
    assert res["tasks"] == 2
    assert res["pruner"]["recall"] == 0.5  # all of the first task's gold, none of the second's
    assert res["pruner"]["whole"] == 0.5
    assert res["pruner"]["critical"] == 1.0  # only the first task has critical lines
    assert res["pruner"]["kept"] == 0.2  # 2 of 10 non-blank lines
    assert res["bm25block"]["kept"] == 0.2  # the baseline keeps as many lines as the pruner
    assert res["by_kind"]["names_symbol"]["pruner"]["recall"] == 1.0
    assert res["by_kind"]["plain"]["pruner"]["recall"] == 0.0
