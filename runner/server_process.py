"""The pruner server as a child process: spawn, drain its pipes, watch its exit, stop it.

The server runs in its own session (so one `killpg` reaches it and the children it forks),
with a per-run bearer token in its environment and a stdin pipe we never write to: when
the runner dies, however it dies, the pipe closes and `--exit-with-parent` makes the
server exit. Its stdout and stderr are drained for the whole run, because a full pipe
would block it; stdout is searched for the ready line (`runner.ready_line`), stderr's last
lines are kept for the events. Readiness probes live in `runner.readiness`.
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
import anyio.abc
import psutil

from mcp_pruner_server.ledger.channel import is_writer_command
from mcp_pruner_server.settings import TOKEN_ENV
from runner.config import RunnerConfig
from runner.errors import ServerSpawnError
from runner.ready_line import LineSplitter, ReadyLine, parse_ready_line
from tools_exec.supervise import group_has_live_members, signal_group

# Enough lines to show a traceback's tail in `start_failed` without flooding the log.
STDERR_TAIL_LINES = 20
# Pause while checking that the server's process group has emptied after SIGTERM.
GROUP_POLL_INTERVAL_S = 0.02
# After SIGKILL the kernel reaps in milliseconds; this only guards against a stuck wait.
KILL_REAP_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class StopResult:
    """How the server went away at shutdown."""

    graceful: bool
    duration_ms: int
    returncode: int | None
    was_running: bool
    killed_descendants: int


def is_ledger_writer(child: psutil.Process, server: psutil.Process) -> bool:
    """Whether `child` is `server`'s ledger writer: its direct child, running the server's own
    interpreter with the writer's command line (`channel.is_writer_command`). The command line
    alone can be rewritten by any program (Perl's `$0`): a `bash` command doing so must not be
    spared by the end-of-run sweep."""
    if child.ppid() != server.pid or not is_writer_command(child.cmdline()):
        return False
    return bool(child.exe() == server.exe())


def _still_alive(pid: int, created: float) -> bool:
    """Whether `pid` is still the process created at `created`, and not a zombie."""
    try:
        process = psutil.Process(pid)
        return bool(process.create_time() == created and process.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


class ServerProcess:
    """A spawned server: its pipes drained, its exit and ready line turned into events."""

    def __init__(self, process: anyio.abc.Process, host: str) -> None:
        self._process = process
        self._host = host  # the host it was told to bind: its ready line must name it
        self.pid = process.pid
        self.exited = anyio.Event()
        self.ready_seen = anyio.Event()
        self.stderr_closed = anyio.Event()
        self.ready_line: ReadyLine | None = None
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_TAIL_LINES)
        self._descendants: set[tuple[int, float]] = set()
        self._ledger_writers: set[tuple[int, float]] = set()

    @property
    def returncode(self) -> int | None:
        """The server's return code once it has exited (negative: killed by that signal)."""
        return self._process.returncode

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines the server wrote to stderr."""
        return tuple(self._stderr_tail)

    def start_io(self, tg: anyio.abc.TaskGroup) -> None:
        """Start draining stdout/stderr and watching for exit in `tg` (which outlives the server)."""
        tg.start_soon(self._wait_exit)
        tg.start_soon(self._drain_stdout)
        tg.start_soon(self._drain_stderr)

    async def _drain_stdout(self) -> None:
        assert self._process.stdout is not None
        splitter = LineSplitter()
        # Closed under us at stop when an unknown process still holds the pipe: nothing to read.
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            async for chunk in self._process.stdout:
                for line in splitter.feed(chunk):
                    if self.ready_line is None and (ready := parse_ready_line(line, self._host)) is not None:
                        self.ready_line = ready
                        self.ready_seen.set()

    async def _drain_stderr(self) -> None:
        assert self._process.stderr is not None
        splitter = LineSplitter()
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            async for chunk in self._process.stderr:
                self._stderr_tail.extend(splitter.feed(chunk))
        self._stderr_tail.extend(splitter.flush())
        self.stderr_closed.set()

    def remember_descendants(self) -> None:
        """Note the server's descendants, to kill any that outlive it at stop.

        A `bash` tool child runs in its own session, out of reach of `killpg`; once the server
        dies it is nobody's child of ours, so it must be known beforehand. The set is rebuilt
        each time: the current descendants plus those remembered earlier that still live
        (an orphan no longer shows under the server), so it never grows past what is alive.

        The server's ledger writer (`is_ledger_writer`) is remembered apart and never killed: it
        outlives its server by what it has left to write, then exits at its pipe's EOF
        (`mcp_pruner_server/ledger/channel.py`).
        """
        try:
            server = psutil.Process(self.pid)
            children = server.children(recursive=True)
        except psutil.Error:
            children = []
        current: set[tuple[int, float]] = set()
        writers: set[tuple[int, float]] = set()
        for child in children:
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    continue
                entry = (child.pid, child.create_time())
                if is_ledger_writer(child, server):
                    writers.add(entry)
                else:
                    current.add(entry)
            except psutil.Error:
                continue
        self._ledger_writers = writers | {entry for entry in self._ledger_writers if _still_alive(*entry)}
        alive = {entry for entry in self._descendants if _still_alive(*entry)}
        self._descendants = (current | alive) - self._ledger_writers

    @property
    def remembered_descendants(self) -> frozenset[int]:
        """The pids `stop` will kill if they outlive the server."""
        return frozenset(pid for pid, _ in self._descendants)

    @property
    def ledger_writers(self) -> frozenset[int]:
        """The pids of the server's ledger writers still running (spared at the end of the run)."""
        return frozenset(pid for pid, created in self._ledger_writers if _still_alive(pid, created))

    async def _wait_exit(self) -> None:
        # Run by `start_io` for the whole run, and awaited again at stop: not `self.exited`
        # there, since when the run is cancelled the task that sets it is cancelled too.
        await self._process.wait()
        self.exited.set()

    async def _wait_gone(self) -> None:
        await self._wait_exit()
        # No OS notification exists for "this process group is now empty": poll it.
        while True:
            if not group_has_live_members(self.pid):
                return
            await anyio.sleep(GROUP_POLL_INTERVAL_S)

    def _kill_remembered_descendants(self) -> int:
        killed = 0
        for pid, created in self._descendants:
            if not _still_alive(pid, created):
                continue  # gone, or the pid was reused by an unrelated process
            try:
                psutil.Process(pid).kill()
                killed += 1
            except psutil.Error:
                continue
        return killed

    async def stop(self, grace_s: float) -> StopResult:
        """SIGTERM the server's group, wait `grace_s`, SIGKILL what is left, reap.

        `graceful` is False when SIGKILL was needed (`kill_escalated`).
        """
        started = time.monotonic()
        was_running = not self.exited.is_set()
        self.remember_descendants()
        signal_group(self.pid, signal.SIGTERM)
        graceful = True
        with anyio.move_on_after(grace_s):
            await self._wait_gone()
        if not self.exited.is_set() or group_has_live_members(self.pid):
            graceful = not signal_group(self.pid, signal.SIGKILL) and self.exited.is_set()
            with anyio.move_on_after(KILL_REAP_TIMEOUT_S):
                await self._wait_exit()
        killed = self._kill_remembered_descendants()
        await self._process.aclose()
        return StopResult(
            graceful=graceful,
            duration_ms=round((time.monotonic() - started) * 1000),
            returncode=self.returncode,
            was_running=was_running,
            killed_descendants=killed,
        )


def server_argv(config: RunnerConfig, root: Path) -> list[str]:
    """The server command line: the configured command plus the runner's fixed flags."""
    return [
        *config.server_command,
        *("--host", config.host, "--port", str(config.port), "--root", str(root)),
        *("--log-format", "json", "--exit-with-parent"),
    ]


def server_env(token: str, base: Mapping[str, str]) -> dict[str, str]:
    """The server's environment: ours (pruning settings included) and the fresh token."""
    env = dict(base)
    env[TOKEN_ENV] = token
    env["PYTHONUNBUFFERED"] = "1"  # the ready line must not sit in a buffer
    return env


async def spawn_server(
    config: RunnerConfig, root: Path, token: str, tg: anyio.abc.TaskGroup
) -> ServerProcess:
    """Start the server in its own session; its I/O tasks run in `tg`.

    Raises:
        ServerSpawnError: the command could not be executed.
    """
    argv = server_argv(config, root)
    try:
        process = await anyio.open_process(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=root,
            env=server_env(token, os.environ),
            start_new_session=True,
        )
    except OSError as exc:
        raise ServerSpawnError(f"cannot execute {argv[0]!r}: {exc.strerror or exc}") from exc
    server = ServerProcess(process, config.host)
    server.start_io(tg)
    return server
