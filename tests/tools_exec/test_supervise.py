from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import anyio
import anyio.to_thread
import pytest

from tools_exec import supervise as supervise_module
from tools_exec.errors import SpawnError
from tools_exec.supervise import shell_exit_code, supervise
from tools_exec.text import CappedBuffer, OutputBudget

pytestmark = pytest.mark.anyio


class StopAfter:
    """A sink that has seen enough after `limit` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen = 0

    def feed(self, chunk: bytes) -> bool:
        self.seen += len(chunk)
        return self.seen < self.limit


async def test_a_sink_asking_to_stop_ends_the_child_early(tmp_path: Path) -> None:
    sink = StopAfter(100_000)
    with anyio.fail_after(5):  # a hang guard: the child's own timeout is 30 s
        outcome = await supervise(
            ["yes"],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin"},
            timeout_s=30,
            stdout_sink=sink,
            stderr_sink=CappedBuffer(OutputBudget(1024)),
        )
    assert outcome.stopped
    assert not outcome.timed_out
    assert outcome.returncode is None


async def test_a_clean_exit_reports_its_status_and_duration(tmp_path: Path) -> None:
    out = CappedBuffer(OutputBudget(1024))
    with anyio.fail_after(5):
        outcome = await supervise(
            [sys.executable, "-c", "print('hi'); raise SystemExit(4)"],
            cwd=tmp_path,
            env={},
            timeout_s=30,
            stdout_sink=out,
            stderr_sink=CappedBuffer(OutputBudget(1024)),
        )
    assert (outcome.returncode, outcome.timed_out, outcome.stopped) == (4, False, False)
    assert out.text() == "hi\n"
    assert outcome.duration_ms > 0


def test_return_codes_read_as_a_shell_exit_code() -> None:
    assert shell_exit_code(-signal.SIGTERM) == 128 + signal.SIGTERM
    assert shell_exit_code(3) == 3


async def test_an_unstartable_program_is_a_spawn_error(tmp_path: Path) -> None:
    with pytest.raises(SpawnError, match="cannot start"):
        await supervise(
            [str(tmp_path / "missing")],
            cwd=tmp_path,
            env={},
            timeout_s=1,
            stdout_sink=CappedBuffer(OutputBudget(1)),
            stderr_sink=CappedBuffer(OutputBudget(1)),
        )


async def test_cancelling_during_the_grace_period_kills_members_that_ignore_sigterm(
    tmp_path: Path,
    wait_gone: Callable[[int, float], bool],
    kill_if_alive: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A long grace period, so the cancellation surely lands inside it even on a loaded machine.
    monkeypatch.setattr(supervise_module, "KILL_GRACE_S", 10.0)
    fifo = tmp_path / "pids"
    os.mkfifo(fifo)
    # The shell exits at once; its background member ignores SIGTERM, so the group's grace period
    # runs its full length, and the caller is cancelled inside it.
    script = f"(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo $$ $! > {fifo}; exit 0"
    pids: list[int] = []
    async with anyio.create_task_group() as group:
        group.start_soon(
            lambda: supervise(
                ["bash", "-c", script],
                cwd=tmp_path,
                env={"PATH": "/usr/bin:/bin"},
                timeout_s=30,
                stdout_sink=CappedBuffer(OutputBudget(1024)),
                stderr_sink=CappedBuffer(OutputBudget(1024)),
            )
        )
        with anyio.fail_after(5):
            pids = [int(pid) for pid in (await anyio.to_thread.run_sync(fifo.read_text)).split()]
            leader, member = pids
            # The shell exited: supervise is in (or about to enter) the grace period.
            assert await anyio.to_thread.run_sync(wait_gone, leader, 4.0)
        group.cancel_scope.cancel()
    try:
        assert await anyio.to_thread.run_sync(wait_gone, member, 2.0)  # SIGKILLed on the way out
    finally:
        kill_if_alive(member)


async def test_the_grace_period_scans_the_process_table_rarely_and_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scans: list[bool] = []
    real_scan = supervise_module.group_has_live_members

    def counting_scan(pgid: int) -> bool:  # a spy: the real scan runs, we only count where and how often
        scans.append(threading.current_thread() is threading.main_thread())
        return real_scan(pgid)

    monkeypatch.setattr(supervise_module, "group_has_live_members", counting_scan)
    with anyio.fail_after(5):
        # The member ignores SIGTERM: the whole grace period is spent scanning, then SIGKILL.
        await supervise(
            ["bash", "-c", "(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & exit 0"],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin"},
            timeout_s=30,
            stdout_sink=CappedBuffer(OutputBudget(1024)),
            stderr_sink=CappedBuffer(OutputBudget(1024)),
        )
    assert scans, "the grace period never looked at the group"
    assert not any(scans), "a scan ran on the event loop thread"
    assert len(scans) <= 12, f"{len(scans)} scans of every pid in a 0.3 s grace period"
