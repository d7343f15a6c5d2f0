"""`jeeves bench`: the typer shell around `runner.bench.run`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

EXIT_FAILED = 1


def bench_command(
    quick: Annotated[
        bool, typer.Option("--quick", help="Task subsets, 3 ratios, fewer calls (under a minute).")
    ] = False,
    out: Annotated[Path, typer.Option("--out", help="Directory for report.md, report.json, PNGs.")] = Path(
        "bench-out"
    ),
    tasks_dir: Annotated[
        Path | None,
        typer.Option(
            help="A harness directory: prune_eval.py and its dev_code.jsonl / dev_logs.jsonl "
            "(default: the built-in tasks and harness)."
        ),
    ] = None,
) -> None:
    """Measure pruning quality against four baselines, latencies and overheads."""
    # Imported here: the bench pulls in the whole MCP stack, and every other `jeeves`
    # command (`jeeves prune` runs once per harness task) would pay for it at start.
    from rich.console import Console

    from runner.bench.errors import BenchError
    from runner.bench.report import summary_text
    from runner.bench.run import BenchSettings, run_bench

    console = Console(stderr=True)
    settings = BenchSettings.for_mode(tasks_dir.resolve() if tasks_dir else None, out.resolve(), quick)
    try:
        with console.status("starting…") as status:
            data = run_bench(settings, lambda message: status.update(f"{message}…"))
    except BenchError as exc:
        typer.echo(f"jeeves bench: {exc}", err=True)
        raise typer.Exit(EXIT_FAILED) from None
    sys.stdout.write(summary_text(data))
    plot_names = data.get("plots")
    drawn = ", ".join(str(p) for p in plot_names) if isinstance(plot_names, list) else ""
    typer.echo(f"\nreport: {settings.out / 'report.md'} (+ report.json, {drawn or 'no plots'})", err=True)
