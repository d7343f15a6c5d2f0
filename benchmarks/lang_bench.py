"""Per-language pruning quality (pruner vs the harness's baselines) and engine latency.

    python benchmarks/lang_bench.py /tmp/langsets/*_dev.jsonl          # quality table
    python benchmarks/lang_bench.py --latency /tmp/langsets/*_dev.jsonl  # p50/p95, ~900-line files, parsed
    python benchmarks/lang_bench.py --latency --prepared ...   # after the engine's preparations, as a worker

Task files come from `benchmarks/lang_sets.py` (or the shared harness). The engine runs in
process with the harness's options (ratio 0.8, `min_keep_lines=0`); with `--with-path` it is
told each task's path, as `read` tells it, else it sees the text alone (as `prune_text` does).
Every baseline keeps exactly as many lines as the pruner did (the harness's own functions).
A cell is `recall / whole-function`, and the pruner's cell adds `@ kept fraction of lines`.

`--latency` first prunes the server's own warm-up read (`PrunerService.warm`), then per set: the
first prune of the set's language in the process (`first ms`: its grammar loaded, its definitions
query compiled, unless `--prepared` ran the engine's preparations first, as an engine worker does
while idle; the option does nothing on an engine without them) and the same file's next prune
(`again ms`), then p50 / p95 over every prune (the first included) and p95 of the others. Files
of `--lines LO-HI` lines are timed (default 700-1100).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_pruner_server.pruning.engine as engine
from mcp_pruner_server.pruner_service import WARM_UP_PATH, WARM_UP_QUESTION, WARM_UP_TEXT
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache
from mcp_pruner_server.pruning.types import PruneOptions

HARNESS = Path("/work/shared/eval/prune_eval.py")
RATIO = 0.8
_ratio = RATIO  # `--ratio` sets it for the run
# Generous: quality runs compare outputs, never timeouts (the machine is shared).
TIMEOUT_MS = 600_000
BASELINES = ("bm25block", "keyword", "headtail", "uniform")
# Latency: files of about this many lines, each pruned this many times per question.
LATENCY_LINES = (700, 1100)
LATENCY_REPEATS = 5
LATENCY_FILES = 8


def _harness() -> ModuleType:
    spec = importlib.util.spec_from_file_location("prune_eval", HARNESS)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _load(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _options(task: dict[str, Any], with_path: bool) -> PruneOptions:
    opts = PruneOptions(
        max_prune_ratio=_ratio, min_keep_lines=0, timeout_ms=TIMEOUT_MS, include_markers=False
    )
    if with_path and "path" in task and hasattr(opts, "path"):
        from dataclasses import replace

        opts = replace(opts, path=task["path"])
    return opts


def _kept(task: dict[str, Any], with_path: bool) -> set[int]:
    res = prune(task["text"], task["goal_hint"], task["source_type"], _options(task, with_path), "bench")
    n = len(task["text"].split("\n"))
    pruned = {i for a in res.annotations for i in range(a.original_start_line - 1, a.original_end_line)}
    return set(range(n)) - pruned


def score(tasks: list[dict[str, Any]], with_path: bool, harness: ModuleType) -> dict[str, dict[str, float]]:
    rows: dict[str, dict[str, list[float]]] = {}
    for t in tasks:
        lines = t["text"].split("\n")
        nz = harness._nonblank(lines)
        gold = {g - 1 for g in t["gold"]}
        crit = {c - 1 for c in t["critical"]}
        kept_by = {"pruner": _kept(t, with_path) & set(nz)}
        k = len(kept_by["pruner"])
        for name in BASELINES:
            kept_by[name] = harness.BASELINES[name](t, lines, k)
        for name, kept in kept_by.items():
            r = rows.setdefault(name, {"recall": [], "whole": [], "critical": [], "kept": []})
            r["recall"].append(len(kept & gold) / len(gold))
            r["whole"].append(float(gold <= kept))
            if crit:
                r["critical"].append(len(kept & crit) / len(crit))
            r["kept"].append(len(kept) / max(1, len(nz)))
    return {m: {k: statistics.fmean(v) for k, v in r.items() if v} for m, r in rows.items()}


def _cell(m: dict[str, float], with_kept: bool) -> str:
    crit = f", crit {m['critical']:.2f}" if "critical" in m else ""
    kept = f" @ {m['kept']:.2f}" if with_kept else ""
    return f"{m['recall']:.2f} / {m['whole']:.2f}{crit}{kept}"


def quality(paths: list[str], with_path: bool, group: str | None) -> None:
    harness = _harness()
    print("| set | tasks | pruner | " + " | ".join(BASELINES) + " |")
    print("|---|---|---|" + "---|" * len(BASELINES))
    for path in paths:
        tasks = _load(path)
        groups: dict[str, list[dict[str, Any]]] = {Path(path).stem: tasks}
        if group:
            for t in tasks:
                groups.setdefault(f"{Path(path).stem}:{t[group]}", []).append(t)
        for name, part in groups.items():
            if not part:  # an empty file (a language with no held-out task): a row saying so
                print(f"| {name} | 0 | no tasks |" + " |" * len(BASELINES))
                continue
            res = score(part, with_path, harness)
            cells = [_cell(res["pruner"], True), *(_cell(res[b], False) for b in BASELINES)]
            print(f"| {name} | {len(part)} | " + " | ".join(cells) + " |")


def _prepare(prepared: bool) -> None:
    """The server's warm-up read, and with `prepared` the engine's preparations (when it has any)."""
    prune(WARM_UP_TEXT, WARM_UP_QUESTION, "code", PruneOptions(path=WARM_UP_PATH), "bench")
    steps = getattr(engine, "preparations", None)
    if prepared and steps is not None:
        for step in steps():
            step()


def latency(paths: list[str], with_path: bool, prepared: bool, lines: tuple[int, int]) -> None:
    _prepare(prepared)
    print("| set | files | lines (mean) | first ms | again ms | p50 ms | p95 ms | p95 ms, first excluded |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        tasks = _load(path)
        near = [t for t in tasks if lines[0] <= t["text"].count("\n") <= lines[1]]
        near = near[:LATENCY_FILES]
        if not near:
            continue
        times: list[float] = []
        for t in near:
            opts = _options(t, with_path)
            for _ in range(LATENCY_REPEATS):
                clear_parse_cache()  # every run parses: the target is "parser included"
                t0 = time.perf_counter()
                prune(t["text"], t["goal_hint"], "code", opts, "bench")
                times.append((time.perf_counter() - t0) * 1000)
        p95 = statistics.quantiles(times, n=20)[18]
        p95_warm = statistics.quantiles(times[1:], n=20)[18]
        mean_lines = statistics.fmean(t["text"].count("\n") + 1 for t in near)
        print(
            f"| {Path(path).stem} | {len(near)} | {mean_lines:.0f} | {times[0]:.1f} | {times[1]:.1f} | "
            f"{statistics.median(times):.1f} | {p95:.1f} | {p95_warm:.1f} |"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--with-path", action="store_true", help="tell the engine each task's path")
    ap.add_argument("--latency", action="store_true")
    ap.add_argument(
        "--prepared", action="store_true", help="--latency after the engine's preparations, as a worker"
    )
    default_lines = f"{LATENCY_LINES[0]}-{LATENCY_LINES[1]}"
    ap.add_argument("--lines", default=default_lines, help="--latency: files of LO-HI lines")
    ap.add_argument("--ratio", type=float, default=RATIO, help="max_prune_ratio (default: the harness's)")
    ap.add_argument("--group", help="also a row per value of this task field (e.g. tool)")
    args = ap.parse_args()
    global _ratio
    _ratio = args.ratio
    if args.latency:
        low, high = (int(n) for n in args.lines.split("-"))
        latency(args.tasks, args.with_path, args.prepared, (low, high))
    else:
        quality(args.tasks, args.with_path, args.group)
    return 0


if __name__ == "__main__":
    sys.exit(main())
