"""Run one child in its own process group with hard bounds: the engine under `bash` and `rg`.

Guarantees, whatever the child does:
- stdout and stderr are read concurrently into sinks that never push back, so a chatty child
  never blocks on a full pipe;
- on timeout (or when a sink asks to stop) the whole group gets SIGTERM, then SIGKILL after
  `KILL_GRACE_S`; at a timeout or cancellation, descendants that left the group (`setsid`) but are
  still in the leader's tree are SIGKILLed too (a daemon already reparented to init is out of reach);
- after the child exits, members left in its group (background jobs) are terminated the same way;
- pipes are drained for at most `DRAIN_AFTER_EXIT_S` after exit/kill: a grandchild that escaped
  the group and holds the pipe open cannot delay the return;
- if the caller is cancelled, the group is SIGKILLed before the cancellation propagates, even if
  the leader is already gone (a member ignoring SIGTERM during the grace period).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import anyio
import anyio.to_thread
import psutil

from tools_exec import group_watchdog
from tools_exec.child import Child, pump, spawn
from tools_exec.errors import SpawnError
from tools_exec.limits import (
    DRAIN_AFTER_EXIT_S,
    GROUP_POLL_MAX_S,
    GROUP_POLL_S,
    KILL_GRACE_S,
    REAP_TIMEOUT_S,
)

# A shell reports a child killed by signal N as exit status 128 + N.
SIGNAL_EXIT_BASE = 128


class Sink(Protocol):
    """Consumer of one output stream."""

    def feed(self, chunk: bytes) -> bool:
        """Take `chunk`; return False to ask for the child to be stopped (enough was seen)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How a supervised child ended. `returncode` follows the shell: 128+N when killed by signal N;
    None when we killed it (timeout or stop request)."""

    returncode: int | None
    timed_out: bool
    stopped: bool
    duration_ms: float


async def supervise(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    stdout_sink: Sink,
    stderr_sink: Sink,
) -> Outcome:
    """Run `argv` in a new session with stdin=/dev/null, feeding its output to the sinks.

    Raises:
        SpawnError: the executable is missing, not executable, or the fork failed.
    """
    started = time.monotonic()
    try:
        # Synchronous (as asyncio's own spawn is): no await, so no cancellation can land between
        # the fork and the try/finally that guarantees the kill.
        child = spawn(argv, cwd=cwd, env=env)
    except OSError as exc:
        raise SpawnError(f"cannot start {argv[0]}: {exc.strerror or exc}") from exc
    pgid = child.pid  # a new session: the child leads its own process group
    group_watchdog.group_started(pgid)  # killed by the watchdog if this server dies first
    stop_requested = anyio.Event()
    exited = timed_out = False
    escaped: list[psutil.Process] = []
    try:
        async with anyio.create_task_group() as readers:
            done = [anyio.Event(), anyio.Event()]
            readers.start_soon(_pump, child.stdout_fd, stdout_sink, stop_requested, done[0])
            readers.start_soon(_pump, child.stderr_fd, stderr_sink, stop_requested, done[1])
            exited = await _wait_exit_or_stop(child, stop_requested, timeout_s)
            timed_out = not exited and not stop_requested.is_set()
            if timed_out:  # captured while the leader still holds its tree together
                escaped = await anyio.to_thread.run_sync(_descendants_outside_group, child.pid, pgid)
            await terminate_group(child, pgid)
            _kill_all(escaped)
            with anyio.move_on_after(DRAIN_AFTER_EXIT_S):
                await done[0].wait()
                await done[1].wait()
            readers.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            # Cancelled from outside (possibly inside terminate_group's grace, the leader already
            # reaped and a member ignoring SIGTERM): no member of the group outlives us.
            # No await before the kills: a server shutting down may never resume us. The scan blocks
            # for about a millisecond, on this rare path only.
            if child.returncode is None:
                escaped += _descendants_outside_group(child.pid, pgid)
            if child.returncode is None or _group_exists(pgid):
                signal_group(pgid, signal.SIGKILL)
            _kill_all(escaped)
            if child.returncode is None:
                with anyio.move_on_after(REAP_TIMEOUT_S):
                    await child.wait()
            child.close()
            group_watchdog.group_ended(pgid)
    return Outcome(
        returncode=None if not exited or child.returncode is None else shell_exit_code(child.returncode),
        timed_out=timed_out,
        stopped=stop_requested.is_set() and not exited,
        duration_ms=(time.monotonic() - started) * 1000,
    )


async def terminate_group(process: Child, pgid: int) -> None:
    """SIGTERM the group, wait up to `KILL_GRACE_S` for its live members to go, then SIGKILL.

    Cheap when nothing is left: one `killpg(pgid, 0)` after the leader was reaped.
    """
    if process.returncode is not None and not _group_exists(pgid):
        return
    signal_group(pgid, signal.SIGTERM)
    poll_s = GROUP_POLL_S
    with anyio.move_on_after(KILL_GRACE_S):
        while process.returncode is None or await _group_has_live_members_in_thread(pgid):
            if process.returncode is None:
                with anyio.move_on_after(GROUP_POLL_S):
                    await process.wait()
            else:
                # Each scan walks every pid on the machine: off the event loop, less and less often.
                await anyio.sleep(poll_s)
                poll_s = min(poll_s * 2, GROUP_POLL_MAX_S)
    signal_group(pgid, signal.SIGKILL)
    with anyio.move_on_after(REAP_TIMEOUT_S):
        await process.wait()


async def _wait_exit_or_stop(process: Child, stop: anyio.Event, timeout_s: float) -> bool:
    """True when the child exited by itself before the deadline and before a stop request."""
    with anyio.move_on_after(timeout_s):
        async with anyio.create_task_group() as race:

            async def wait_exit() -> None:
                await process.wait()
                race.cancel_scope.cancel()

            async def wait_stop() -> None:
                await stop.wait()
                race.cancel_scope.cancel()

            race.start_soon(wait_exit)
            race.start_soon(wait_stop)
    return process.returncode is not None and not stop.is_set()


async def _pump(fd: int, sink: Sink, stop: anyio.Event, done: anyio.Event) -> None:
    try:
        if not await pump(fd, sink.feed):
            stop.set()
    finally:
        done.set()


def signal_group(pgid: int, signum: int) -> bool:
    """Send `signum` to process group `pgid`; False when there was nothing of ours to signal."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False  # the group is already gone
    except PermissionError:
        return False  # only zombies or a reused id remain; nothing of ours to signal
    return True


def _group_exists(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def _group_has_live_members_in_thread(pgid: int) -> bool:
    if not _group_exists(pgid):
        return False  # the common case, one syscall: no thread hop
    return await anyio.to_thread.run_sync(group_has_live_members, pgid)


def _descendants_outside_group(pid: int, pgid: int) -> list[psutil.Process]:
    """The leader's descendants that left its process group (`setsid`, `set -m` jobs): killpg cannot
    reach them, so they are killed one by one. Walks the process table: blocking."""
    try:
        descendants = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    escaped = []
    for process in descendants:
        try:
            if os.getpgid(process.pid) != pgid:
                escaped.append(process)
        except ProcessLookupError:
            continue
    return escaped


def _kill_all(processes: list[psutil.Process]) -> None:
    for process in processes:
        try:
            process.kill()  # psutil refuses if the pid now names another process
        except psutil.Error:
            continue


def group_has_live_members(pgid: int) -> bool:
    """Whether a live member of process group `pgid` remains. Walks the process table: blocking.

    Zombies count as gone: an init that never reaps (containers) would otherwise keep the
    group "alive" forever and every call would pay the full grace period; a zombie holds
    nothing (no port, no pipe, no memory).
    """
    if not _group_exists(pgid):
        return False
    for pid in psutil.pids():
        try:
            if os.getpgid(pid) == pgid and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return True
        except (ProcessLookupError, psutil.Error):
            continue
    return False


def shell_exit_code(returncode: int) -> int:
    """The exit code a shell would give for a Popen-style return code: 128 + N when killed by
    signal N (`-N`), else the code itself."""
    return SIGNAL_EXIT_BASE - returncode if returncode < 0 else returncode
