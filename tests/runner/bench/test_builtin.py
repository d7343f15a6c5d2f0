"""The bench's own tasks and harness: sound gold lines, baselines that keep exactly k lines."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions
from runner.bench.builtin_harness import BASELINES, kept_from_result, nonblank
from runner.bench.builtin_tasks import code_tasks, log_tasks
from tests.json_paths import at


def test_tasks_are_the_same_on_every_build() -> None:
    assert code_tasks() == code_tasks()
    assert log_tasks() == log_tasks()


@pytest.mark.parametrize("tasks", [code_tasks(), log_tasks()], ids=["code", "logs"])
def test_gold_lines_are_non_blank_lines_of_the_text(tasks: list[dict[str, object]]) -> None:
    assert len(tasks) >= 16
    for task in tasks:
        lines = str(task["text"]).split("\n")
        gold = task["gold"]
        assert isinstance(gold, list)
        assert gold, task["id"]
        assert all(lines[n - 1].strip() for n in gold), task["id"]


def test_a_logs_task_asks_about_one_failure_and_its_gold_is_that_failure() -> None:
    task = log_tasks()[0]
    lines = str(task["text"]).split("\n")
    name = str(task["goal_hint"]).removeprefix("Why does ").removesuffix(" fail?")

    gold = [lines[n - 1] for n in at(task, "gold", kind=list)]

    assert [line[:2] for line in gold[:3]] == ["> ", "E ", "E "]
    assert gold[-1].startswith("FAILED ")
    assert f"::{name} - " in gold[-1]


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_every_baseline_keeps_exactly_k_non_blank_lines(name: str) -> None:
    task = log_tasks()[1]
    lines = str(task["text"]).split("\n")

    kept = BASELINES[name](task, lines, 25)

    assert len(kept) == 25
    assert kept <= set(nonblank(lines))


def test_kept_lines_are_read_back_from_the_engine_annotations() -> None:
    task = code_tasks()[0]
    text = str(task["text"])
    options = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, annotate_lines=False, include_markers=False)
    result = prune(text, str(task["goal_hint"]), "code", options, "prn_test")
    lines = text.split("\n")

    kept, problems = kept_from_result(result.to_dict(), len(lines))

    assert problems == []
    assert "\n".join(lines[i] for i in sorted(kept)).rstrip("\n") == result.pruned_text.rstrip("\n")
