"""One `jeeves bench`: quality (headline + sweep), engine latency, the real server, report files."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import anyio

from runner.bench import plots, quality, report
from runner.bench.errors import OutputNotWritable
from runner.bench.server import GREP_QUESTION, ServerFigures, measure_server
from runner.bench.stats import summarize_ms
from runner.bench.tokens import tokenizer

# Ratios of the recall-vs-kept sweep; 0.8 is the harness's default and the headline.
FULL_SWEEP = (0.5, 0.65, 0.8, 0.9, 0.95)
QUICK_SWEEP = (0.5, 0.8, 0.95)
# The built-in code set is smaller (one task per module) than the shared one (150).
BUILTIN_QUICK_CODE_EVERY = 2
# Contract violations quoted in report.json: enough to see the pattern, the count says the rest.
VIOLATION_EXAMPLES = 5


@dataclass(frozen=True)
class BenchSettings:
    """How much to measure. `quick()` fits well under 3 minutes on a busy 2-core machine."""

    tasks_dir: Path | None  # None: the built-in tasks and harness
    out: Path
    quick: bool = False
    code_every: int = 1
    logs_every: int = 1
    sweep: tuple[float, ...] = FULL_SWEEP
    server_starts: int = 5
    calls: int = 100

    @classmethod
    def for_mode(cls, tasks_dir: Path | None, out: Path, quick: bool) -> BenchSettings:
        if not quick:
            return cls(tasks_dir, out)
        # Code: every 5th shared task (30 of 150), every 2nd built-in one (the set follows the source);
        # logs: every 2nd.
        code_every = BUILTIN_QUICK_CODE_EVERY if tasks_dir is None else 5
        return cls(
            tasks_dir,
            out,
            True,
            code_every=code_every,
            logs_every=2,
            sweep=QUICK_SWEEP,
            server_starts=3,
            calls=30,
        )


Progress = Callable[[str], None]
KINDS = {"code": "dev_code.jsonl", "logs": "dev_logs.jsonl"}


def run_bench(settings: BenchSettings, progress: Progress) -> dict[str, object]:
    """Every measurement; writes report.json, report.md and the PNGs to `settings.out`.

    Raises:
        BenchError: the harness or tasks are missing, or the server failed.
    """
    began = time.monotonic()
    harness = quality.load_harness(settings.tasks_dir)
    try:
        settings.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputNotWritable(f"cannot create the report directory {settings.out}: {exc}") from None
    every = {"code": settings.code_every, "logs": settings.logs_every}
    tasks = {kind: quality.load_tasks(settings.tasks_dir, name, every[kind]) for kind, name in KINDS.items()}
    headline: dict[str, object] = {}
    sweep: dict[str, list[dict[str, object]]] = {kind: [] for kind in KINDS}
    engine_ms: dict[str, tuple[float, ...]] = {}
    before = after = 0
    violations: list[str] = []
    ratios = sorted({*settings.sweep, quality.HEADLINE_RATIO})
    for kind, kind_tasks in tasks.items():
        for ratio in ratios:
            progress(f"quality: {len(kind_tasks)} {kind} tasks at max_prune_ratio={ratio}")
            is_headline = ratio == quality.HEADLINE_RATIO
            result = quality.evaluate(harness, kind_tasks, ratio, count_tokens_too=is_headline)
            violations += result.violations
            sweep[kind].append({"ratio": ratio, "methods": result.methods})
            if is_headline:
                headline[kind] = {
                    "tasks": result.tasks,
                    "methods": result.methods,
                    "violations": len(result.violations),
                }
                engine_ms[kind] = result.engine_ms
                before += result.tokens_before
                after += result.tokens_after
    progress(f"server: {settings.server_starts} starts, {settings.calls} calls per route")
    sample = _median_task(tasks["code"])
    figures = anyio.run(
        measure_server, str(sample["text"]), str(sample["goal_hint"]), settings.server_starts, settings.calls
    )
    data: dict[str, object] = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "quick": settings.quick,
        "harness": str(harness.path),
        "tokenizer": tokenizer().name,
        "headline_ratio": quality.HEADLINE_RATIO,
        "quality": headline,
        "sweep": sweep,
        "tokens": {"before": before, "after": after},
        "violations": len(violations),
        "violation_examples": violations[:VIOLATION_EXAMPLES],
        "engine_latency_ms": {kind: summarize_ms(v) for kind, v in engine_ms.items()},
        "server": _server_block(figures),
        "plots": [],
        "notes": list(figures.notes),
    }
    progress("plots and report")
    _draw(data, sweep, engine_ms, figures, settings.out)
    data["elapsed_s"] = round(time.monotonic() - began, 1)
    report.write(data, settings.out)
    return data


def _median_task(tasks: list[quality.Task]) -> quality.Task:
    by_size = sorted(tasks, key=lambda t: len(str(t["text"])))
    return by_size[len(by_size) // 2]


def _server_block(figures: ServerFigures) -> dict[str, object]:
    trips = {name: summarize_ms(values) for name, values in figures.round_trips_ms.items()}
    block: dict[str, object] = {
        "startup_ms": summarize_ms(figures.startup_ms),
        "round_trips_ms": trips,
        "grep_matches": figures.grep_matches,
        "grep_question": GREP_QUESTION,
    }
    tool, raw = trips.get("grep tool (/rpc)", {}), trips.get("raw rg (subprocess)", {})
    if "p50" in tool and "p50" in raw:
        block["grep_overhead_p50_ms"] = round(tool["p50"] - raw["p50"], 2)
    return block


def _draw(
    data: dict[str, object],
    sweep: plots.Sweep,
    engine_ms: dict[str, tuple[float, ...]],
    figures: ServerFigures,
    out: Path,
) -> None:
    notes = data["notes"]
    assert isinstance(notes, list)
    if not plots.matplotlib_available():
        notes.append("plots skipped: matplotlib is not installed (pip install 'jeeves-pruner[bench]')")
        return
    drawn = [plots.recall_plot(sweep, out), plots.latency_plot(engine_ms, figures.round_trips_ms, out)]
    data["plots"] = [p.name for p in drawn]
