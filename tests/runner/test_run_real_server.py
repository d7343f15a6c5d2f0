"""`jeeves run` with the real `jeeves-mcp-pruner` (the default server command).

The doubles prove the faults a real server cannot produce on demand; these prove the
runner and the real server agree: ready line, `/healthz`, token, `/stats`, exit with the
parent, and its `bash` tool children dying with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import psutil
import pytest

from runner.events import KILL_ESCALATED, STOPPED
from tests.json_paths import at
from tests.runner.runner_support import (
    JEEVES,
    Harness,
    data_of,
    event_data,
    events,
    provider_argv,
    server_pid,
    until,
    wait_gone,
)

pytestmark = pytest.mark.anyio

# The real server imports the MCP SDK and uvicorn: slower than the double, still seconds; a
# whole run (5 reads) took more than 30 s on a 2-core host kept busy by 20 CPU hogs.
REAL_RUN_BOUND_S = 45
SAMPLE = "def compute_answer():\n    return 42\n\n\ndef unrelated():\n    return 'noise'\n"


def real_server_env() -> dict[str, str]:
    return {"JEEVES_MCP_PRUNER_STARTUP_TIMEOUT_MS": "12000"}


async def test_a_healthy_run_with_the_real_server_reports_its_tool_calls(
    harness: Harness, tmp_path: Path
) -> None:
    (tmp_path / "sample.py").write_text(SAMPLE)
    with anyio.fail_after(REAL_RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--check-auth", "--call-read", "sample.py"), real_server_env()
        )
    assert outcome.exit_code == 0, log.names()
    assert outcome.summary.states == (
        "run:init",
        "run:mcp_pruner_starting",
        "run:mcp_pruner_running",
        "run:shutdown",
    )
    stats = outcome.summary.server_stats
    assert stats is not None
    assert stats["tool_calls_total"] == 1
    assert data_of(log, "mcp_pruner.stopped")["graceful"] is True
    assert await wait_gone(server_pid(log))


async def test_the_real_server_crashing_mid_run_degrades_and_keeps_the_exit_code(harness: Harness) -> None:
    with anyio.fail_after(REAL_RUN_BOUND_S):
        outcome, log = await harness.run(
            provider_argv("--kill-server", "--wait-log", "mcp_pruner.degraded", "--exit", "5"),
            real_server_env(),
        )
    assert outcome.exit_code == 5
    assert data_of(log, "mcp_pruner.exited")["signal"] == "SIGKILL"
    assert "mcp_pruner.shutdown_after_degraded" in log.names()
    assert outcome.summary.states[-2:] == ("run:mcp_pruner_degraded", "run:shutdown")


async def test_a_running_bash_tool_child_of_the_real_server_dies_with_it(
    harness: Harness, tmp_path: Path
) -> None:
    sleeper = tmp_path / "sleep.pid"
    with anyio.fail_after(REAL_RUN_BOUND_S):
        outcome, log = await harness.run(provider_argv("--start-bash-sleep", str(sleeper)), real_server_env())
    assert outcome.exit_code == 0, log.names()
    assert await wait_gone(int(sleeper.read_text()))
    assert await wait_gone(server_pid(log))


async def test_sigkilling_jeeves_run_takes_the_real_server_down_within_2_s(tmp_path: Path) -> None:
    log_path = tmp_path / "events.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    argv = [*JEEVES, "run", "-p", "command", "--cwd", str(tmp_path), "--log-file", str(log_path), "--"]
    argv += [sys.executable, "-c", "import time; time.sleep(600)"]
    process = await anyio.open_process(
        argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with anyio.fail_after(REAL_RUN_BOUND_S):
            await until(lambda: any(e["event"] == "provider.started" for e in events(log_path)))
        server = event_data(log_path, "mcp_pruner.ready")["pid"]
        assert isinstance(server, int)
        process.kill()
        assert await wait_gone(server, timeout_s=2.0)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.aclose()


async def test_a_bash_tool_child_orphaned_by_a_server_crash_is_killed_at_the_end_of_the_run(
    tmp_path: Path,
) -> None:
    sleeper = tmp_path / "sleep.pid"
    log_path = tmp_path / "events.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    # No probe during the run: the server's descendants are never looked at while it lives.
    env.update(JEEVES_MCP_PRUNER_PROBE_INTERVAL_MS="600000", RUN_LOG=str(log_path))
    argv = [*JEEVES, "run", "-p", "command", "--cwd", str(tmp_path), "--log-file", str(log_path), "--"]
    argv += provider_argv("--start-bash-sleep", str(sleeper), "--kill-server")
    process = await anyio.open_process(
        argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with anyio.fail_after(REAL_RUN_BOUND_S):
            assert await process.wait() == 0
        orphan = int(sleeper.read_text())
        assert await wait_gone(orphan)
        assert orphan in at(event_data(log_path, "run.orphans_killed"), "pids", kind=list)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.aclose()
        if sleeper.exists():  # never leave the sleeper behind, even when the test fails
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(sleeper.read_text()), signal.SIGKILL)


async def test_a_child_the_agent_left_exited_is_reported_reaped_not_killed(tmp_path: Path) -> None:
    # Codex leaves the `git` it ran unreaped: a zombie, not a process left running (no warning).
    exited = tmp_path / "exited.pid"
    log_path = tmp_path / "events.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    env.update(RUN_LOG=str(log_path))
    argv = [*JEEVES, "run", "-p", "command", "--cwd", str(tmp_path), "--log-file", str(log_path), "--"]
    argv += provider_argv("--leave-exited-child", str(exited))
    process = await anyio.open_process(
        argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with anyio.fail_after(REAL_RUN_BOUND_S):
            assert await process.wait() == 0
        child = int(exited.read_text())
        assert await wait_gone(child)
        assert child in at(event_data(log_path, "run.orphans_reaped"), "pids", kind=list)
        assert not any(e["event"] == "run.orphans_killed" for e in events(log_path))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.aclose()


# The run's calls, read while the ledger writer is stopped (SIGSTOP: starvation, for real).
READS_WITH_A_STOPPED_WRITER = 5


@contextlib.asynccontextmanager
async def run_with_a_stopped_writer(
    tmp_path: Path, shutdown_timeout_ms: int
) -> AsyncIterator[tuple[Path, Path, psutil.Process]]:
    """A real `jeeves run` (real server) whose agent reads `READS_WITH_A_STOPPED_WRITER` times and
    stops the server's ledger writer before the run's end; yields once the run exited: its event
    log, the ledger and the writer (still stopped). The writer is never left stopped behind."""
    (tmp_path / "sample.py").write_text(SAMPLE)
    writer_file, ledger = tmp_path / "writer.pid", tmp_path / "ledger.sqlite3"
    log_path = tmp_path / "events.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JEEVES_")}
    env.update(RUN_LOG=str(log_path), JEEVES_LEDGER_PATH=str(ledger))
    env.update(JEEVES_MCP_PRUNER_SHUTDOWN_TIMEOUT_MS=str(shutdown_timeout_ms))
    argv = [*JEEVES, "run", "-p", "command", "--cwd", str(tmp_path), "--log-file", str(log_path), "--"]
    argv += provider_argv("--call-read", "sample.py", "--read-times", str(READS_WITH_A_STOPPED_WRITER))
    argv += ["--stop-ledger-writer", str(writer_file)]
    process = await anyio.open_process(
        argv, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    writer: psutil.Process | None = None
    try:
        with anyio.fail_after(REAL_RUN_BOUND_S):
            assert await process.wait() == 0
        writer = psutil.Process(int(writer_file.read_text()))
        yield log_path, ledger, writer
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.aclose()
        if writer is not None:  # never leave it stopped behind, even when the test fails
            with contextlib.suppress(psutil.Error):
                writer.kill()


async def rows_once_the_writer_ends(writer: psutil.Process, ledger: Path) -> int:
    """Resume the writer (the cores are free again); the ledger's rows once it ended by itself."""
    writer.resume()
    assert await wait_gone(writer.pid, timeout_s=REAL_RUN_BOUND_S)
    with contextlib.closing(sqlite3.connect(ledger)) as db:
        count: int = db.execute("SELECT count(*) FROM calls").fetchone()[0]
    return count


async def test_a_ledger_writer_still_writing_at_the_end_of_the_run_is_spared_and_every_row_lands(
    tmp_path: Path,
) -> None:
    # The writer runs at the lowest priority: on busy cores it may still hold the run's calls when
    # the run ends. Stopped here for real (SIGSTOP) until after the run; before, the server's stop
    # (SIGKILL to its group past the grace: 1 s here, the server waiting for its writer) or the
    # orphan sweep killed it: rows lost.
    async with run_with_a_stopped_writer(tmp_path, shutdown_timeout_ms=1000) as (log_path, ledger, writer):
        assert writer.status() == psutil.STATUS_STOPPED  # alive: neither the group kill nor the sweep
        assert writer.pid in at(event_data(log_path, "run.ledger_writer_spared"), "pids", kind=list)
        assert await rows_once_the_writer_ends(writer, ledger) == READS_WITH_A_STOPPED_WRITER


async def test_a_starved_ledger_writer_does_not_hold_the_servers_stop_past_the_runs_grace(
    tmp_path: Path,
) -> None:
    # A grace of 8 s: longer than the server now waits for its writer (CLOSE_TIMEOUT_S, 2 s) with
    # room for a loaded host, shorter than the 10 s it waited before (then: `kill_escalated`).
    async with run_with_a_stopped_writer(tmp_path, shutdown_timeout_ms=8000) as (log_path, ledger, writer):
        names = [e["event"] for e in events(log_path)]
        assert KILL_ESCALATED not in names
        assert event_data(log_path, STOPPED)["graceful"] is True
        assert writer.status() == psutil.STATUS_STOPPED  # left to finish alone, not killed
        assert await rows_once_the_writer_ends(writer, ledger) == READS_WITH_A_STOPPED_WRITER
