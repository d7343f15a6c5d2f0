"""What survives a SIGKILL of `jeeves run`: a small watchdog process that cleans up after it.

`PR_SET_PDEATHSIG` reaches only the runner's direct children (the agent, the server), and the
orphan sweep (`runner.orphans`) runs only if the runner lives to its end. Killed with SIGKILL,
the runner used to leave the agent's background and foreground children, a daemon started
through the `bash` tool, and the scratch directory behind.

The watchdog is started by `jeeves run` before anything else, in its own session (a terminal's
Ctrl-C or hang-up does not reach it), reading a pipe whose only write end the runner holds
(close-on-exec: no child inherits it). However the runner dies, the kernel closes that end:

- every `WATCH_INTERVAL_S` the watchdog records the runner's descendants (pid + start time);
- the runner writes `dir <path>` for each scratch directory and `done` when it finished its
  own cleanup;
- on EOF without `done`: SIGTERM to every recorded process still alive (same pid *and* start
  time: a reused pid is not ours), to their descendants, and to every process of this user
  whose environment carries this run's `JEEVES_RUN_ID` (set by the runner, inherited by the
  agent, the server and `bash` children: it catches what was born and orphaned since the last
  poll); SIGKILL to the survivors after `KILL_GRACE_S`; then the scratch directories go.

Guarantee, exactly: after a SIGKILL of `jeeves run`, within about `KILL_GRACE_S` + 1 s, every
process that was a descendant of the runner at a poll, their descendants, and every process
still carrying the run's `JEEVES_RUN_ID` in its initial environment are killed, and the
scratch directories removed. Not covered: a process that both left the tree within
`WATCH_INTERVAL_S` of its birth and replaced its environment (`env -i`, a setuid program), and
anything if the watchdog itself is SIGKILLed too (e.g. `kill -9` of the whole session
including it: it is in its own session to make that unlikely, not impossible). A cgroup would
close that gap where delegation is available; it is not assumed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

import psutil

from mcp_pruner_server.settings import RUN_ID_ENV

# How often the runner's tree is recorded: a process born and orphaned within one interval is
# only found by its environment marker. 4 Hz costs a /proc scan each time (~1 ms).
WATCH_INTERVAL_S = 0.25
# SIGTERM first, as the agent's parent-death signal does: this long to exit, then SIGKILL.
KILL_GRACE_S = 1.0
# The runner's cleanup message and the one per scratch directory.
DONE = b"done"
DIR_PREFIX = b"dir "
# The pipe carries a few short lines; one read takes them all.
READ_BYTES = 65536

_Key = tuple[int, float]  # pid, create_time


class Watchdog:
    """The runner's end: the pipe to the watchdog process."""

    def __init__(self, process: subprocess.Popen[bytes], write_fd: int, run_id: str) -> None:
        self.process = process
        self.run_id = run_id
        self._fd: int | None = write_fd

    def remove_on_death(self, path: Path) -> None:
        """Have the watchdog delete `path` if the runner dies before `disarm`."""
        self._send(DIR_PREFIX + os.fsencode(path) + b"\n")

    def disarm(self) -> None:
        """The runner cleaned up by itself: the watchdog exits without killing anything."""
        self._send(DONE + b"\n")
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=KILL_GRACE_S)

    def _send(self, data: bytes) -> None:
        if self._fd is None:
            return
        try:
            os.write(self._fd, data)
        except OSError:  # the watchdog is gone: nothing to tell it
            os.close(self._fd)
            self._fd = None


def start_watchdog() -> Watchdog:
    """Start the watchdog of this process and set `JEEVES_RUN_ID` in our environment (children
    inherit it).

    Raises:
        OSError: the watchdog process could not be started.
    """
    from mcp_pruner_server.ledger.sink import session_id

    # A new id (an inherited one is another run's marker), made as a server makes its own
    # (`ses_…`): the run's id is its server's ledger session, one form for `jeeves gain --session`.
    run_id = session_id({})
    os.environ[RUN_ID_ENV] = run_id
    read_fd, write_fd = os.pipe()  # both non-inheritable (PEP 446); only stdin is passed on
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "runner.watchdog", str(os.getpid()), run_id],
            stdin=read_fd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        os.close(write_fd)
        raise
    finally:
        os.close(read_fd)
    return Watchdog(process, write_fd, run_id)


# --- the watchdog process -------------------------------------------------------------------


def _key(process: psutil.Process) -> _Key | None:
    try:
        return process.pid, process.create_time()
    except psutil.Error:
        return None


def _still_ours(key: _Key) -> psutil.Process | None:
    try:
        process = psutil.Process(key[0])
        return process if process.create_time() == key[1] else None
    except psutil.Error:
        return None


def _marked(run_id: str, me: int) -> Iterable[psutil.Process]:
    """Processes of this user whose initial environment carries this run's marker."""
    needle = f"{RUN_ID_ENV}={run_id}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (entry / "environ").read_bytes()  # only readable for our own processes
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            with contextlib.suppress(psutil.Error):
                yield psutil.Process(int(entry.name))


def _victims(recorded: dict[_Key, None], run_id: str) -> list[psutil.Process]:
    me = os.getpid()
    found: dict[_Key, psutil.Process] = {}
    roots = [p for p in map(_still_ours, recorded) if p is not None] + list(_marked(run_id, me))
    for process in roots:
        with contextlib.suppress(psutil.Error):
            for member in [process, *process.children(recursive=True)]:
                key = _key(member)
                if key is not None and member.pid != me:
                    found[key] = member
    return list(found.values())


def _kill(victims: list[psutil.Process]) -> None:
    for process in victims:
        with contextlib.suppress(psutil.Error):
            process.send_signal(signal.SIGTERM)
    _, alive = psutil.wait_procs(victims, timeout=KILL_GRACE_S)
    for process in alive:
        with contextlib.suppress(psutil.Error):
            process.kill()


def _record(runner: int, recorded: dict[_Key, None], me: int) -> None:
    try:
        tree = psutil.Process(runner).children(recursive=True)
    except psutil.Error:
        return
    for process in tree:
        key = _key(process)
        if key is not None and process.pid != me:
            recorded[key] = None


def watch(runner: int, run_id: str, pipe: int) -> None:
    """Run the watchdog: record, read the pipe until EOF, then clean up unless told `done`."""
    me = os.getpid()
    recorded: dict[_Key, None] = {}  # insertion-ordered set
    received = bytearray()
    ended = threading.Event()

    def read() -> None:
        while chunk := os.read(pipe, READ_BYTES):
            received.extend(chunk)
        ended.set()

    threading.Thread(target=read, name="pipe", daemon=True).start()
    while not ended.wait(WATCH_INTERVAL_S):
        _record(runner, recorded, me)
    lines = bytes(received).splitlines()
    if DONE in lines:
        return
    directories = [
        Path(os.fsdecode(line[len(DIR_PREFIX) :])) for line in lines if line.startswith(DIR_PREFIX)
    ]
    _kill(_victims(recorded, run_id))
    for directory in directories:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2], sys.stdin.fileno())
