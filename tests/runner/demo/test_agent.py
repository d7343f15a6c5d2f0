"""`jeeves run --provider demo` for real: the runner, the real server and the scripted agent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from runner.demo.agent import EXIT_NO_PRUNER, show_error
from runner.demo.errors import DemoSetupError, NeededLinesMissing

JEEVES = (sys.executable, "-c", "from runner.cli import app; app()")
# Server start (~1 s) + seven tool calls, two of them a pytest run (~1 s each), on a busy 2-core box.
DEMO_BOUND_S = 50


def run_demo(cwd: Path, *flags: str, log_dir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    env["COLUMNS"] = "140"
    log_file = (log_dir or cwd) / "events.jsonl"
    return subprocess.run(
        [*JEEVES, "run", "--provider", "demo", "--log-file", str(log_file), *flags],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=DEMO_BOUND_S,
        check=False,
    )


# Issue 11's bar for the demo session, on what the model receives.
MIN_SAVED_PCT = 65.0


def test_the_demo_runs_through_the_real_sidecar_keeps_every_needed_line_and_cleans_up(tmp_path: Path) -> None:
    done = run_demo(tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "100% of the 20 lines the agent needed were sent" in done.stdout
    # Issue 11: counted on the text blocks a model receives, the session costs >= 65 % fewer tokens.
    saved = re.search(r"the model gets ([0-9.]+)% fewer tool-result tokens", done.stdout)
    assert saved is not None, done.stdout
    assert float(saved.group(1)) >= MIN_SAVED_PCT
    for tool in ("read", "grep", "bash", "recover_text"):
        assert f"│ {tool} " in done.stdout, tool
    assert "TOTAL" in done.stdout
    assert "provider=demo exit_code=0" in done.stderr
    assert "pruning.applied=3" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["events.jsonl"]  # workspace removed


def test_the_demo_without_a_pruner_says_so_and_fails(tmp_path: Path) -> None:
    done = run_demo(tmp_path, "--no-pruner")

    assert done.returncode == EXIT_NO_PRUNER
    assert "no pruner to talk to" in done.stdout


def test_a_failure_quoting_code_is_printed_verbatim_not_read_as_markup() -> None:
    console = Console(record=True, width=200)
    lost = "needed line(s) were pruned:\n  12:     self.items[key] = 1  # [/b]"

    show_error(console, NeededLinesMissing(lost))
    show_error(console, DemoSetupError("cannot create the demo workspace in /tmp/[x]"))

    printed = console.export_text()
    assert f"demo FAILED: {lost}" in printed
    assert "demo: cannot create the demo workspace in /tmp/[x]" in printed


def _totals(stdout: str) -> list[str]:
    """The rows of the demo's totals table, as printed."""
    return [line for line in stdout.split("Totals", 1)[1].splitlines() if line.startswith("│")]


def test_two_demo_runs_print_the_same_figures(tmp_path: Path) -> None:
    here, there = tmp_path / "a", tmp_path / "b"
    here.mkdir()
    there.mkdir()

    runs = [run_demo(here), run_demo(there)]

    for done in runs:
        assert done.returncode == 0, done.stdout + done.stderr
    first, second = (_totals(done.stdout) for done in runs)
    assert len(first) >= 5
    # The raw outputs' tokens (the third column) never depend on the machine; what the model gets
    # does too, unless a prune ran out of its deadline on a loaded machine and fell back.
    assert [row.split("│")[3] for row in first] == [row.split("│")[3] for row in second]
    if all(" yes " not in row for row in first + second):
        assert first == second


def test_the_demo_runs_from_a_working_directory_it_cannot_write_to(tmp_path: Path) -> None:
    # /proc refuses new entries even to root, who ignores a directory's mode bits.
    done = run_demo(Path("/proc"), log_dir=tmp_path)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "100% of the 20 lines the agent needed were sent" in done.stdout
