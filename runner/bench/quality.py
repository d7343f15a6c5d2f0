"""Pruning quality against four baselines: the built-in harness and tasks, or a shared harness.

By default the tasks are built at run time (`builtin_tasks.py`) and scored by the bench's own
harness (`builtin_harness.py`). With `--tasks-dir`, the team's `prune_eval.py` there is
imported from its path (never copied), and its pieces are used as they are:
`kept_from_result` turns our `prune_text` result into kept lines, its four `BASELINES` then
keep exactly as many non-blank lines as we did, and the metrics are its metrics (gold-line
recall, whole-target recall, critical-line recall, kept fractions). Our side calls the
heuristic engine in-process with the options the harness sends over `/rpc`, so the figures
are the engine's, not the network's (round trips are measured separately).
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import cast

from mcp_pruner_server.pipeline.prune_step import worth_sending
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.text import estimate_tokens
from mcp_pruner_server.pruning.types import PruneOptions, SourceType
from mcp_pruner_server.tools.model_text import model_text
from runner.bench.errors import HarnessNotFound, TaskFileInvalid
from runner.bench.tokens import count_tokens

HARNESS_FILE = "prune_eval.py"
TASK_FILES = ("dev_code.jsonl", "dev_logs.jsonl")
OURS = "pruner"
METRICS = ("recall", "whole", "critical", "kept_lines", "kept_chars")
# The harness's default `--ratio`: the headline comparison is made there.
HEADLINE_RATIO = 0.8
# The harness sends 10 s; the engine's cooperative clock must not cut a big file short here either.
ENGINE_TIMEOUT_MS = 10_000

# What every task line must hold for the harness's metrics and our call.
TASK_KEYS = ("id", "text", "goal_hint", "source_type", "gold", "critical")

Task = dict[str, object]
Baseline = Callable[[Task, list[str], int], set[int]]


@dataclass(frozen=True)
class Harness:
    """The typed pieces of the harness module we use."""

    path: Path
    baselines: dict[str, Baseline]
    nonblank: Callable[[list[str]], list[int]]
    kept_from_result: Callable[[dict[str, object], int], tuple[set[int], list[str]]]


@dataclass(frozen=True)
class QualityRun:
    """One pass over the tasks at one `max_prune_ratio`: mean metrics per method, engine timings."""

    ratio: float
    tasks: int
    methods: dict[str, dict[str, float]]
    engine_ms: tuple[float, ...]
    tokens_before: int
    tokens_after: int
    violations: tuple[str, ...]


def builtin_harness() -> Harness:
    """The bench's own harness (`builtin_harness.py`), for the built-in tasks."""
    from runner.bench import builtin_harness as own

    return Harness(Path(own.__file__), dict(own.BASELINES), own.nonblank, own.kept_from_result)


def load_harness(tasks_dir: Path | None) -> Harness:
    """Import `prune_eval.py` from `tasks_dir` as a module; None: the built-in harness.

    Raises:
        HarnessNotFound: the file is missing, fails to import, or does not define what we use.
    """
    if tasks_dir is None:
        return builtin_harness()
    path = tasks_dir / HARNESS_FILE
    spec = importlib.util.spec_from_file_location("prune_eval", path)
    if not path.is_file() or spec is None or spec.loader is None:
        raise HarnessNotFound(f"no harness at {path} (pass --tasks-dir, the directory of {HARNESS_FILE})")
    module: ModuleType = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # someone else's file: any error while importing it means "not usable"
        raise HarnessNotFound(f"{path} cannot be imported: {type(exc).__name__}: {exc}") from None
    try:
        return Harness(
            path=path,
            baselines=cast(dict[str, Baseline], module.BASELINES),
            nonblank=module._nonblank,
            kept_from_result=module.kept_from_result,
        )
    except AttributeError as exc:
        raise HarnessNotFound(f"{path} is not the expected harness: {exc}") from None


def load_tasks(tasks_dir: Path | None, name: str, every: int = 1) -> list[Task]:
    """Every `every`-th task of a JSONL task file (a deterministic subset for --quick); with no
    `tasks_dir`, of the built-in task set of that name (`builtin_tasks.py`).

    Raises:
        HarnessNotFound: the file is missing or unreadable.
        TaskFileInvalid: the file holds no task, or a line is not a JSON task object with the
            keys the harness scores.
    """
    if tasks_dir is None:
        from runner.bench.builtin_tasks import code_tasks, log_tasks

        return (code_tasks() if name == TASK_FILES[0] else log_tasks())[::every]
    path = tasks_dir / name
    if not path.is_file():
        raise HarnessNotFound(f"no task file {path}")
    tasks: list[Task] = []
    try:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    tasks.append(_task(path, number, line))
    except (OSError, UnicodeDecodeError) as exc:
        raise HarnessNotFound(f"cannot read {path}: {exc}") from None
    if not tasks:
        raise TaskFileInvalid(f"{path}: no task in the file")
    return tasks[::every]


def _task(path: Path, number: int, line: str) -> Task:
    try:
        task = json.loads(line)
    except ValueError as exc:
        raise TaskFileInvalid(f"{path}:{number}: not JSON ({exc})") from None
    if not isinstance(task, dict):
        raise TaskFileInvalid(f"{path}:{number}: a task is a JSON object")
    missing = [key for key in TASK_KEYS if key not in task]
    if missing:
        raise TaskFileInvalid(f"{path}:{number}: the task has no {', '.join(missing)}")
    return cast(Task, task)


def _options(ratio: float) -> PruneOptions:
    # Exactly the options prune_eval.py sends with `prune_text`.
    return PruneOptions(
        max_prune_ratio=ratio,
        min_keep_lines=0,
        timeout_ms=ENGINE_TIMEOUT_MS,
        annotate_lines=False,
        include_markers=False,
    )


def model_view_tokens(text: str, goal: str, source_type: SourceType, ratio: float, prune_id: str) -> int:
    """Tokens of the `read` result a model receives for `text` at `ratio` (the /mcp text block).

    That is the kept lines numbered as in the file, one marker per removed block and the
    trailer line, in the model's form: the harness's options (no numbers, no markers) would
    undercount it. A pruned view not worth sending is the file itself, as the server sends it.
    """
    options = PruneOptions(
        max_prune_ratio=ratio,
        min_keep_lines=0,
        timeout_ms=ENGINE_TIMEOUT_MS,
        annotate_lines=True,
        include_markers=True,
        model_view=True,
    )
    result = prune(text, goal, source_type, options, prune_id)
    if not (result.stats.pruned_lines and worth_sending(result.pruned_text, estimate_tokens(text))):
        return count_tokens(model_text("read", {"tool": "read", "content": text, "pruning": {}}) or "")
    pruning = {"applied": True, "prune_id": prune_id}
    rendered = model_text("read", {"tool": "read", "content": result.pruned_text, "pruning": pruning})
    return count_tokens(rendered or "")


def evaluate(
    harness: Harness, tasks: Sequence[Task], ratio: float, *, count_tokens_too: bool = False
) -> QualityRun:
    """Our engine and the four baselines on `tasks` at `max_prune_ratio=ratio`, scored like the harness."""
    rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    timings: list[float] = []
    violations: list[str] = []
    before = after = 0
    for index, task in enumerate(tasks):
        text, goal = str(task["text"]), str(task["goal_hint"])
        source_type = cast(SourceType, task["source_type"])
        lines = text.split("\n")
        nonblank = set(harness.nonblank(lines))
        started = time.perf_counter()
        result = prune(text, goal, source_type, _options(ratio), f"bench_{index}")
        timings.append((time.perf_counter() - started) * 1000)
        kept, problems = harness.kept_from_result(result.to_dict(), len(lines))
        if result.pruned_text.rstrip("\n") != "\n".join(lines[i] for i in sorted(kept)).rstrip("\n"):
            problems.append("pruned_text is not the kept lines in order")
        if result.stats.pruned_ratio > ratio + 1e-9:
            problems.append(f"pruned_ratio {result.stats.pruned_ratio} > max {ratio}")
        violations += [f"{task['id']}: {p}" for p in problems]
        if count_tokens_too:  # what a model pays: the raw file vs the pruned read's text block
            before += count_tokens(text)
            after += model_view_tokens(text, goal, source_type, ratio, f"bench_view_{index}")
        kept_by = {OURS: kept & nonblank}
        k = len(kept_by[OURS])
        for name, baseline in harness.baselines.items():
            kept_by[name] = baseline(task, lines, k)
        _score(rows, kept_by, task, lines, nonblank)
    methods = {name: {m: statistics.fmean(v) for m, v in r.items() if v} for name, r in rows.items()}
    return QualityRun(ratio, len(tasks), methods, tuple(timings), before, after, tuple(violations))


def _score(
    rows: dict[str, dict[str, list[float]]],
    kept_by: dict[str, set[int]],
    task: Task,
    lines: list[str],
    nonblank: set[int],
) -> None:
    # The harness's own metric definitions (prune_eval.run), per method.
    gold = {int(g) - 1 for g in cast(list[int], task["gold"])}
    critical = {int(c) - 1 for c in cast(list[int], task["critical"])}
    total_chars = sum(len(lines[i]) + 1 for i in nonblank)
    for name, kept in kept_by.items():
        row = rows[name]
        row["recall"].append(len(kept & gold) / len(gold))
        row["whole"].append(float(gold <= kept))
        if critical:
            row["critical"].append(len(kept & critical) / len(critical))
        row["kept_lines"].append(len(kept) / max(1, len(nonblank)))
        row["kept_chars"].append(sum(len(lines[i]) + 1 for i in kept) / max(1, total_chars))
