"""`jeeves run` with the real `jeeves-mcp-pruner` (the default server command).

The doubles prove the faults a real server cannot produce on demand; these prove the
runner and the real server agree: ready line, `/healthz`, token, `/stats`, exit with the
parent, and its `bash` tool children dying with it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

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

# The real server imports the MCP SDK and uvicorn: slower than the double, still seconds.
REAL_RUN_BOUND_S = 30
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
