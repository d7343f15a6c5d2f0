"""Pruning quality on real questions (issue 33): the pruner next to bm25block at three ratios.

    python benchmarks/real_questions_bench.py /work/sets/real/dev/*.jsonl          # tables
    python benchmarks/real_questions_bench.py --json /work/sets/real/dev/*.jsonl   # one JSON object

Task files come from `benchmarks/sets/build_commit_sets.py` (a commit's message as the question,
the file before it as the text, the lines it changed as the gold); any file in the shared
harness's format will do. The engine runs in process and is told each task's `path` when it has
one, as `read` tells it (`--without-path`: the text alone, as `prune_text` sees it). At each
`max_prune_ratio` (0.5 / 0.8 / 0.9, `min_keep_lines=0`) a row gives the pruner's recall, whole
(every gold line kept), critical (the lines the commit rewrote) and kept fraction of non-blank
lines, next to the harness's `base_bm25block` keeping exactly as many lines on the same task; a
row per `question_kind` follows each set's.

Other benchmarks reuse the scoring: `score(tasks, ratio)` (or with `kept=` any function from a
task and a ratio to the kept 0-based line indexes) returns the same figures as a dict.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from lang_bench import _harness, _load

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

RATIOS = (0.5, 0.8, 0.9)
# Generous: quality runs compare outputs, never timeouts (the machine is shared).
TIMEOUT_MS = 600_000
BASELINE = "bm25block"
METRICS = ("recall", "whole", "critical", "kept")

Task = dict[str, Any]
KeptFn = Callable[[Task, float], set[int]]


def engine_kept(task: Task, ratio: float, *, with_path: bool = True) -> set[int]:
    """The 0-based line indexes the engine keeps of `task` at `max_prune_ratio=ratio`."""
    opts = PruneOptions(max_prune_ratio=ratio, min_keep_lines=0, timeout_ms=TIMEOUT_MS, include_markers=False)
    if with_path and task.get("path"):
        opts = replace(opts, path=task["path"])
    res = prune(task["text"], task["goal_hint"], task["source_type"], opts, "bench")
    n = len(task["text"].split("\n"))
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    return set(range(n)) - pruned


def score(tasks: Iterable[Task], ratio: float, kept: KeptFn = engine_kept) -> dict[str, Any]:
    """Mean recall / whole / critical / kept of the pruner (`kept`) and of bm25block at the same
    kept count per task, overall and per `question_kind`; with the pruner's per-task latency.

    Returns `{"tasks": n, "pruner": {...}, "bm25block": {...}, "ms_p50": ..., "by_kind": {kind:
    {"tasks": n, "pruner": {...}, "bm25block": {...}}}}`; `critical` is the mean over the tasks
    that have critical lines.
    """
    harness = _harness()
    rows: dict[str, dict[str, dict[str, list[float]]]] = {}
    times: list[float] = []
    for t in tasks:
        lines = t["text"].split("\n")
        nonblank = set(harness._nonblank(lines))
        gold = {g - 1 for g in t["gold"]}
        crit = {c - 1 for c in t["critical"]}
        t0 = time.perf_counter()
        kept_by = {"pruner": kept(t, ratio) & nonblank}
        times.append((time.perf_counter() - t0) * 1000)
        kept_by[BASELINE] = harness.BASELINES[BASELINE](t, lines, len(kept_by["pruner"]))
        groups = ["all", t["question_kind"]] if "question_kind" in t else ["all"]
        for group in groups:
            for method, keep in kept_by.items():
                r = rows.setdefault(group, {}).setdefault(method, {m: [] for m in METRICS})
                r["recall"].append(len(keep & gold) / len(gold))
                r["whole"].append(float(gold <= keep))
                if crit:
                    r["critical"].append(len(keep & crit) / len(crit))
                r["kept"].append(len(keep) / max(1, len(nonblank)))

    def means(group: str) -> dict[str, Any]:
        out: dict[str, Any] = {"tasks": len(rows[group]["pruner"]["recall"])}
        for method, r in rows[group].items():
            out[method] = {m: round(statistics.fmean(v), 4) for m, v in r.items() if v}
        return out

    if "all" not in rows:
        return {"tasks": 0}
    result = means("all")
    result["ms_p50"] = round(statistics.median(times), 1)
    result["by_kind"] = {g: means(g) for g in sorted(rows) if g != "all"}
    return result


def _cell(m: dict[str, float], with_kept: bool) -> str:
    crit = f" ({m['critical']:.3f})" if "critical" in m else ""
    kept = f" @ {m['kept']:.3f}" if with_kept else ""
    return f"{m['recall']:.3f} / {m['whole']:.3f}{crit}{kept}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+", help="task files (JSONL)")
    ap.add_argument("--ratios", type=float, nargs="+", default=list(RATIOS))
    ap.add_argument("--without-path", action="store_true", help="don't tell the engine the task's path")
    ap.add_argument("--limit", type=int, default=0, help="only the first N tasks of each file")
    ap.add_argument("--json", action="store_true", help="print one JSON object: {set: {ratio: score}}")
    args = ap.parse_args()

    def kept(task: Task, ratio: float) -> set[int]:
        return engine_kept(task, ratio, with_path=not args.without_path)

    results: dict[str, dict[str, Any]] = {}
    if not args.json:
        print("cell: recall / whole (critical) [@ kept fraction of non-blank lines]")
        print(f"| set | ratio | tasks | pruner | {BASELINE} at the same kept | pruner p50 ms |")
        print("|---|---|---|---|---|---|")
    for path in args.tasks:
        tasks = _load(path)[: args.limit or None]
        name = Path(path).stem
        for ratio in args.ratios:
            res = score(tasks, ratio, kept)
            results.setdefault(name, {})[str(ratio)] = res
            if args.json or not res["tasks"]:
                continue
            print(
                f"| {name} | {ratio} | {res['tasks']} | {_cell(res['pruner'], True)} | "
                f"{_cell(res[BASELINE], False)} | {res['ms_p50']} |"
            )
            for kind, part in res["by_kind"].items():
                print(
                    f"| {name}:{kind} | {ratio} | {part['tasks']} | {_cell(part['pruner'], True)} | "
                    f"{_cell(part[BASELINE], False)} | |"
                )
            sys.stdout.flush()
    if args.json:
        print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
