"""The server's end of the ledger: a pipe to the writer process (`writer.py`).

What a tool call does for the ledger is `send(record)`: pickle the record (`wire.py`) and one
non-blocking `os.write` into the pipe, which is enlarged to `PIPE_BYTES`. No thread of this
process counts, renders or touches SQLite, and no thread of the ledger runs while the pipe has
room, so a call never waits for the GIL behind the ledger's work. The rest are edge cases:

- the writer process is not running yet: the first call starts a thread that spawns it (a
  spawn is milliseconds the call must not pay); frames wait in a backlog in memory meanwhile.
- the writer is behind (the pipe is full): frames wait in the backlog, and the event loop the
  call came from writes them when the pipe has room (`add_writer`: in the loop's own thread,
  between tasks, no GIL handed to anyone). A caller without a running asyncio loop gets a
  drain thread instead, which waits in `select` with the GIL released.
- the backlog is over `MAX_BACKLOG_BYTES` (the writer is stuck), the writer process exited
  or could not start: the record is dropped, with one `ledger.unavailable` warning per
  process. A call is never delayed or failed for the ledger.

`close()` (server shutdown; `atexit` as a backstop) does not wait for the writer to read: it
writes what the pipe takes, puts the rest of the backlog into the handover file (a file in
memory with no name, created with the writer and inherited by it; the writer reads it after the
pipe's EOF, as the rest of the same stream), closes the pipe and waits up to `CLOSE_TIMEOUT_S`
for the writer to write and exit. Past it the writer is left running, never killed: it runs at
the lowest priority (`writer._yield_to_others`), so on cores kept busy by other work it may
need longer, and what it was handed is written when it gets them. A server that dies closes
the pipe too: the writer writes what reached it and exits. The writer runs in its own session,
so what stops its server's process group does not reach it, and `jeeves run` spares it at the
end of the run (`runner/server_process.py`, `runner/orphans.py`): its work ends with its pipe.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import fcntl
import os
import select
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Sequence
from typing import Final

from mcp_pruner_server.ledger.record import CallRecord
from mcp_pruner_server.ledger.wire import FlushRequest, WriterSetup, encode
from mcp_pruner_server.logs import log_event
from mcp_pruner_server.settings import RUN_ID_ENV

# The pipe's size: a few hundred results fit before a writer that fell behind makes the calls
# use the backlog (Linux's default unprivileged maximum, /proc/sys/fs/pipe-max-size).
PIPE_BYTES: Final = 1 << 20
# Frames waiting in memory beyond this are dropped: a writer that cannot keep up must not grow
# the server's memory without bound. 64 MiB is thousands of results of the busiest agent.
MAX_BACKLOG_BYTES: Final = 64 << 20
# Shutdown waits this long for the writer to write its last batches and exit (0.3 s on an idle
# host); past it the writer is left to finish alone, in its own session. Well within `jeeves
# run`'s default stop grace (3 s, `runner/config.py`): at 10 s a starved writer held the server's
# exit past it, and the run logged `kill_escalated` for a stop that lost nothing.
CLOSE_TIMEOUT_S: Final = 2.0
# The share of that time for a writer still starting to run (its spawn); the rest, at least,
# is the writer's to write and exit, however long the spawn took.
CLOSE_SPAWN_SHARE: Final = 0.5
# How long `close()`, in another thread, waits for the event loop to stop watching the pipe
# before closing it (a loop that is busy or gone must not hold the shutdown).
LOOP_HANDOFF_TIMEOUT_S: Final = 1.0
# What the writer needs to find Python, our packages and a temporary directory, plus the run's
# marker (the watchdog of `jeeves run` finds the run's processes by it); no secret.
WRITER_ENV_KEYS: Final = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV", RUN_ID_ENV)
WRITER_MODULE: Final = "mcp_pruner_server.ledger.writer"


def is_writer_command(cmdline: Sequence[str]) -> bool:
    """Whether a process's command line is the one `WriterChannel` starts a writer with (how
    `jeeves run` tells its server's writer apart from the server's other children)."""
    return list(cmdline[-2:]) == ["-m", WRITER_MODULE]


def _handover_file() -> int | None:
    """A file only this process and the writer it starts can reach (no name on disk): in memory
    where the system has `memfd_create`, else an unlinked temporary file. None if neither can be
    made (the backlog left at shutdown is then dropped, with one warning)."""
    try:
        if hasattr(os, "memfd_create"):
            return os.memfd_create("jeeves-ledger-handover", os.MFD_CLOEXEC)
        with tempfile.TemporaryFile() as unnamed:
            return os.dup(unnamed.fileno())
    except OSError:
        return None


class WriterChannel:
    """One server's pipe to its writer process. `send` may be called from any thread."""

    def __init__(self, setup: WriterSetup) -> None:
        self.setup = setup
        self.dropped = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._fd: int | None = None  # the pipe's write end, non-blocking, once the writer runs
        self._handover: int | None = None  # the handover file (see the module's docstring)
        # Guards the backlog and every write into the pipe: a frame is never interleaved.
        self._lock = threading.Lock()
        self._backlog: deque[memoryview] = deque()
        self._backlog_bytes = 0
        self._spawner: threading.Thread | None = None
        self._spawned = threading.Event()  # set once the writer runs or could not start
        self._loop: asyncio.AbstractEventLoop | None = None  # watching the pipe for room
        self._loop_fd: int | None = None  # what it watches
        self._drainer: threading.Thread | None = None  # the same, for a caller without a loop
        self._closing = False
        self._abandoned = False  # close() gave up waiting for the spawn: a late writer is ended
        self._broken = False
        self._warned = False
        self._flushes = 0
        # One flush reads the writer's answers at a time; each answer is the number of a flush
        # request, and the writer answers them in order: the highest read so far says which
        # flushes are done, whichever caller read it.
        self._answers_lock = threading.Lock()
        self._answered = 0
        self._answers_buffer = b""

    # --- the request path -------------------------------------------------------------------

    def send(self, record: CallRecord) -> None:
        """Hand `record` to the writer without waiting; never raises."""
        if self._broken or self._closing:
            self.dropped += 1
            return
        try:
            frame = encode(record)
        except Exception as exc:  # an unpicklable field is a bug: drop this record, not the call
            with self._lock:
                self._drop_locked(f"{type(exc).__name__}: {exc}")
            return
        self._put(frame)

    def _put(self, frame: bytes) -> None:
        with self._lock:
            if self._closing and self._fd is None and (self._abandoned or self.process is not None):
                self.dropped += 1  # close() has written its last: nothing would write this
                return
            if self._spawner is None:
                self._start_locked()
            if self._backlog_bytes + len(frame) > MAX_BACKLOG_BYTES:
                self._drop_locked(f"the ledger writer is {self._backlog_bytes} bytes behind")
                return
            self._backlog.append(memoryview(frame))
            self._backlog_bytes += len(frame)
            self._write_backlog_locked()
            if self._backlog:
                self._drain_later_locked()

    def _write_backlog_locked(self) -> None:
        """Write waiting frames while the pipe takes them, without blocking."""
        while self._backlog and self._fd is not None:
            frame = self._backlog[0]
            try:
                written = os.write(self._fd, frame)
            except BlockingIOError:
                return
            except OSError as exc:  # EPIPE: the writer exited
                self._writer_gone_locked(exc)
                return
            self._backlog_bytes -= written
            if written < len(frame):  # the pipe is full: the rest of this frame goes first later
                self._backlog[0] = frame[written:]
                return
            self._backlog.popleft()

    def _drain_later_locked(self) -> None:
        """Have the backlog written when the pipe has room: by the caller's event loop, else a thread."""
        if self._fd is None or self._loop is not None or self._drainer is not None:
            return  # the spawner writes it once the writer runs, or a drain is under way
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is not None:
            loop.add_writer(self._fd, self._on_room, loop)
            self._loop, self._loop_fd = loop, self._fd
            return
        self._drainer = threading.Thread(target=self._drain, name="jeeves-ledger-drain", daemon=True)
        self._drainer.start()

    def _on_room(self, loop: asyncio.AbstractEventLoop) -> None:
        """In the event loop: the pipe has room."""
        with self._lock:
            self._write_backlog_locked()
            if (self._backlog and self._fd is not None) or self._loop is not loop:
                return  # more to write later; or `close()` took the pipe over
            fd, self._loop, self._loop_fd = self._loop_fd, None, None
        if fd is not None:
            loop.remove_writer(fd)

    def _drain(self) -> None:
        """A drain thread: write the backlog, waiting in `select` (the GIL released) for room."""
        self._wait_written(None, clear_drainer=True)

    def _wait_written(self, deadline: float | None, *, clear_drainer: bool = False) -> bool:
        """Write the backlog, waiting for room up to `deadline`; True once it is empty."""
        while True:
            with self._lock:
                self._write_backlog_locked()
                fd = self._fd
                if not self._backlog or fd is None:
                    if clear_drainer:
                        self._drainer = None
                    return not self._backlog
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            try:
                select.select([], [fd], [], left)
            except (OSError, ValueError):  # closed by `close()` after its timeout
                return False

    # --- the writer process -----------------------------------------------------------------

    def _start_locked(self) -> None:
        spawner = threading.Thread(target=self._spawn, name="jeeves-ledger-spawn", daemon=True)
        self._spawner = spawner
        spawner.start()
        atexit.register(self.close)

    def _spawn(self) -> None:
        env = {key: os.environ[key] for key in WRITER_ENV_KEYS if key in os.environ}
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)  # as this process imports
        handover = _handover_file()
        setup = dataclasses.replace(self.setup, handover_fd=handover)
        process: subprocess.Popen[bytes] | None = None
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", WRITER_MODULE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,  # the answers to `flush`
                stderr=None,  # its warnings go where the server's go
                env=env,
                pass_fds=() if handover is None else (handover,),  # the same number in the writer
                # Its own session: a signal to its server's process group (`jeeves run` stopping
                # the server: SIGTERM, then SIGKILL past the grace) must not end it with rows unwritten.
                start_new_session=True,
            )
            assert process.stdin is not None
            fd = process.stdin.fileno()
            with contextlib.suppress(OSError):  # a smaller pipe only fills sooner
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
            os.write(fd, encode(setup))  # a few hundred bytes: an empty pipe takes them
            os.set_blocking(fd, False)
        except OSError as exc:
            if handover is not None:
                os.close(handover)
            if process is not None:  # started, then its pipe broke (it died at once): of no use
                process.kill()
                process.wait()
            with self._lock:
                self.process = process  # its exit status goes in the warning; close() ends its pipes
                self._writer_gone_locked(exc)
            self._spawned.set()
            return
        with self._lock:
            abandoned = self._abandoned
            if not abandoned:
                self.process, self._fd, self._handover = process, fd, handover
        if abandoned:  # nobody would ever close its pipe: it would live as long as the server
            if handover is not None:
                os.close(handover)
            process.kill()
            process.wait()
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    pipe.close()
            self._spawned.set()
            return
        self._spawned.set()
        self._wait_written(None)  # what the calls sent while it started

    # --- failures -----------------------------------------------------------------------------

    def _writer_gone_locked(self, exc: BaseException) -> None:
        self._broken = True
        lost = len(self._backlog)
        self._backlog.clear()
        self._backlog_bytes = 0
        code = self.process.poll() if self.process is not None else None
        what = "could not start" if self.process is None else f"exited (status {code})"
        self._drop_locked(f"the ledger writer {what}: {type(exc).__name__}: {exc}", lost)

    def _hand_over_locked(self) -> None:
        """Put the backlog (the rest of a frame the pipe took part of first) into the handover
        file: the writer reads it after the pipe's EOF, as the rest of the same stream."""
        if not self._backlog:
            return
        try:
            if self._handover is None:
                raise OSError("no handover file")
            while self._backlog:
                frame = self._backlog[0]
                written = os.write(self._handover, frame)  # a file: blocks for nobody
                self._backlog_bytes -= written
                if written < len(frame):
                    self._backlog[0] = frame[written:]
                else:
                    self._backlog.popleft()
        except OSError as exc:  # out of memory: what follows a frame cut short cannot be read
            lost = len(self._backlog)
            self._backlog.clear()
            self._backlog_bytes = 0
            self._drop_locked(f"the ledger's handover at shutdown failed: {type(exc).__name__}: {exc}", lost)

    def _drop_locked(self, reason: str, count: int = 1) -> None:
        self.dropped += count
        if not self._warned:
            self._warned = True
            log_event("ledger.unavailable", level="warning", error=reason, dropped=self.dropped)

    # --- lifecycle ------------------------------------------------------------------------

    def flush(self, timeout: float) -> bool:
        """Wait until every record sent so far is written (or dropped) by the writer; False if
        `timeout` ran out or the writer is gone. For tests and benchmarks: the server never waits.
        Any thread may call it, several at once."""
        with self._lock:
            if self._spawner is None:
                return True
            self._flushes += 1
            number = self._flushes
        deadline = time.monotonic() + timeout
        self._put(encode(FlushRequest(number)))
        if not self._spawned.wait(timeout) or not self._wait_written(deadline):
            return False
        process = self.process
        if process is None or process.stdout is None:
            return False
        if not self._answers_lock.acquire(timeout=max(deadline - time.monotonic(), 0.0)):
            return False
        try:
            return self._read_answers_until(process.stdout.fileno(), number, deadline)
        finally:
            self._answers_lock.release()

    def _read_answers_until(self, answers: int, number: int, deadline: float) -> bool:
        """Read the writer's answers (one number a line) until `number` is answered."""
        while self._answered < number:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([answers], [], [], left)
            if not readable:
                return False
            chunk = os.read(answers, 4096)
            if not chunk:
                return False
            *lines, self._answers_buffer = (self._answers_buffer + chunk).split(b"\n")
            for line in lines:
                if line.strip().isdigit():
                    self._answered = max(self._answered, int(line))
        return True

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Write the backlog, end the pipe and wait for the writer to exit (killed past
        `timeout`). Idempotent."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            spawner = self._spawner
        if spawner is None:
            return
        started = time.monotonic()
        self._spawned.wait(timeout * CLOSE_SPAWN_SHARE)
        self._stop_watching()
        with self._lock:
            self._write_backlog_locked()
            self._hand_over_locked()
            self._fd = None
            process = self.process
            self._abandoned = process is None
            handover, self._handover = self._handover, None
        atexit.unregister(self.close)
        if handover is not None:
            os.close(handover)  # the writer has its own descriptor of it
        if process is None:
            return
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()  # EOF: the writer writes what it read, then exits
        # the writer's share: the rest of `timeout`, and never less than its share of it
        exit_share = timeout * (1 - CLOSE_SPAWN_SHARE)
        try:
            process.wait(max(started + timeout - time.monotonic(), exit_share))
        except subprocess.TimeoutExpired:
            # Busy cores (it has the lowest priority) or a slow disk: what it was handed is
            # written when it gets them; killing it would lose those rows.
            log_event("ledger.writer_left_running", pid=process.pid, timeout_s=timeout)
            threading.Thread(target=process.wait, name="jeeves-ledger-reap", daemon=True).start()
        if process.stdout is not None:
            process.stdout.close()

    def _stop_watching(self) -> None:
        """Have the event loop stop watching the pipe before it is closed (its number could be
        reused by the next file the loop watches)."""
        with self._lock:
            loop, fd = self._loop, self._loop_fd
            self._loop, self._loop_fd = None, None
        if loop is None or fd is None:
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.remove_writer(fd)
            return
        removed = threading.Event()

        def remove() -> None:
            loop.remove_writer(fd)
            removed.set()

        try:
            loop.call_soon_threadsafe(remove)
        except RuntimeError:  # the loop is closed: nothing watches the pipe any more
            return
        removed.wait(LOOP_HANDOFF_TIMEOUT_S)
