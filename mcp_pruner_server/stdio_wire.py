"""The stdio server's wire: newline-delimited messages on the process's stdin/stdout, bounded.

- The wire is served from private duplicates of fds 0 and 1 (close-on-exec); fd 0 then reads
  /dev/null and fd 1 writes to stderr, so a stray print or a child cannot corrupt the frames
  (as the official SDK's `stdio_server` does).
- Pipes and sockets are read and written without blocking (`anyio.wait_readable`): a stop signal
  cancels a read that waits for a client that neither writes nor closes (the SDK's reader, a
  thread blocked in `read`, kept the process alive after SIGTERM). A regular file is read as is.
- A line longer than `MAX_LINE_BYTES` is never held: the reader reports it once (`Oversized`)
  and drops its bytes up to the next newline, so memory stays bounded whatever a client sends.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Final

import anyio

from mcp_pruner_server.logs import log_event
from mcp_pruner_server.settings import MAX_REQUEST_BODY_BYTES

# One message: the same bound as an HTTP body (a `prune_text` of a 4 MiB text still fits
# after JSON escaping); past it the line is refused and skipped.
MAX_LINE_BYTES: Final = MAX_REQUEST_BODY_BYTES
# One read: a few messages at once, and a 16 MiB line in 256 steps.
READ_BYTES: Final = 64 * 1024
# The lowest fd a private duplicate may take: never one of the standard three.
FIRST_PRIVATE_FD: Final = 3


@dataclass(frozen=True)
class Oversized:
    """A line that passed `MAX_LINE_BYTES`: reported once, its bytes dropped to its newline."""

    limit: int


def _pollable(fd: int) -> bool:
    """A pipe, a socket or a terminal: epoll can wait on it (a regular file never blocks)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)


class StdioWire:
    """Messages in from stdin, out to stdout; `open_wire()` makes one."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._read_polls = _pollable(read_fd)
        self._write_polls = _pollable(write_fd)
        for fd, polls in ((read_fd, self._read_polls), (write_fd, self._write_polls)):
            if polls:
                os.set_blocking(fd, False)
        self._write_lock = anyio.Lock()
        self.stdout_closed = False  # answers are then dropped

    async def lines(self) -> AsyncIterator[bytes | Oversized]:
        """Each complete line (its newline removed, blank lines skipped), or `Oversized`, to EOF."""
        pending = bytearray()
        skipping = False  # inside an oversized line: drop bytes up to its newline
        while chunk := await self._read():
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                if skipping:
                    skipping = False
                else:
                    pending += chunk[start:end]
                    line = bytes(pending).strip()
                    pending.clear()
                    if len(line) > MAX_LINE_BYTES:
                        yield Oversized(MAX_LINE_BYTES)
                    elif line:
                        yield line
                start = end + 1
            if not skipping:
                pending += chunk[start:]
                if len(pending) > MAX_LINE_BYTES:
                    pending.clear()
                    skipping = True
                    yield Oversized(MAX_LINE_BYTES)
        if pending.strip() and not skipping:  # a last message without its newline
            yield bytes(pending).strip()

    async def send(self, message: bytes) -> None:
        """Write one message and its newline, whole (messages never interleave)."""
        data = memoryview(message + b"\n")
        async with self._write_lock:
            while data and not self.stdout_closed:
                try:
                    written = os.write(self._write_fd, data)
                except BlockingIOError:
                    await anyio.wait_writable(self._write_fd)
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    # The client stopped reading; it still ends us by closing stdin or a signal.
                    self.stdout_closed = True
                    log_event("mcp_pruner.stdio_stdout_closed", level="warning")
                    return
                data = data[written:]

    async def _read(self) -> bytes:
        while True:
            try:
                return os.read(self._read_fd, READ_BYTES)
            except BlockingIOError:
                await anyio.wait_readable(self._read_fd)

    def close(self) -> None:
        """Release the private fds (the process's fd 0 and 1 stay diverted)."""
        for fd, polls in ((self._read_fd, self._read_polls), (self._write_fd, self._write_polls)):
            anyio.notify_closing(fd)
            with contextlib.suppress(OSError):
                if polls:  # the description may be a terminal the shell shares: as it was
                    os.set_blocking(fd, True)
                os.close(fd)


def open_wire() -> StdioWire:
    """Take fds 0 and 1 for the wire and divert them (module doc).

    Raises:
        OSError: a standard fd is closed or cannot be duplicated.
    """
    read_fd = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, FIRST_PRIVATE_FD)
    write_fd = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, FIRST_PRIVATE_FD)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    return StdioWire(read_fd, write_fd)
