"""Capture all, return little: a stream's head and tail, and the marker for what lies between.

`HeadTailCapture` is the sink the pipe readers (and `read`) feed. It keeps the first
`head_bytes` (in memory, then in an unlinked temporary file past `spool_after`, so a 64 MiB
output costs 64 MiB of disk, not of memory; written by the spool I/O thread, never by the event
loop) and the last `tail_bytes` in memory, and counts the bytes and lines that fell between.
`text(budget)` then gives at most `budget` bytes of it: everything if it fits, else a head and a
tail cut on line boundaries with one marker line between them.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass

from tools_exec.bulk import close_in_background, spool_io
from tools_exec.limits import SPOOL_AFTER_BYTES
from tools_exec.text import decode_lossy, drop_split_tail

TRUNCATION_MARKER = "⟦TRUNCATED: lines {first}-{last} ({lines} lines, {bytes} bytes) not shown⟧"
"""The one line standing for what a head-and-tail cut left out (numbering of the whole output)."""
NEWLINE = ord("\n")
# Where an open file can be reopened by path by another process of the same user (Linux).
_PROC_FDS = "/proc/self/fd"
TRUNCATION_BYTES_MARKER = "⟦TRUNCATED: {bytes} bytes not shown⟧"


@dataclass(frozen=True)
class Omitted:
    """What a cut left out: whole lines `first_line`..`first_line + lines - 1`, and their bytes."""

    lines: int
    bytes: int
    first_line: int

    def marker(self) -> str:
        if not self.lines:  # a cut inside one long line (no line end in what was left out)
            return TRUNCATION_BYTES_MARKER.format(bytes=self.bytes)
        last = self.first_line + self.lines - 1
        return TRUNCATION_MARKER.format(first=self.first_line, last=last, lines=self.lines, bytes=self.bytes)

    def to_dict(self) -> dict[str, int]:
        return {"lines": self.lines, "bytes": self.bytes, "first_line": self.first_line}


@dataclass(frozen=True)
class Cut:
    """`text` as returned (the marker included when something was left out) and what was left out."""

    text: str
    omitted: Omitted | None


@dataclass(frozen=True)
class CapturedSource:
    """A capture's kept bytes, picklable: the head (or the path of its spool) and the tail."""

    head_path: str | None
    head: bytes
    tail: bytes
    total_bytes: int
    dropped_newlines: int  # line ends in what fell between head and tail; -1: not counted

    def read(self) -> Cut:
        """The whole kept text: head and tail, and the marker between when some fell out. Blocking."""
        head = self.head
        if self.head_path is not None:
            with open(self.head_path, "rb") as spool:
                head = spool.read()
        if len(head) + len(self.tail) >= self.total_bytes:
            return Cut(decode_lossy(head + self.tail), None)
        head_part, tail_part = _until_last_newline(head), _from_first_newline(self.tail)
        head_lines = head_part.count(b"\n")
        newlines = head.count(b"\n") + self.dropped_newlines + self.tail.count(b"\n")
        omitted = Omitted(
            lines=0 if self.dropped_newlines < 0 else newlines - head_lines - tail_part.count(b"\n"),
            bytes=self.total_bytes - len(head_part) - len(tail_part),
            first_line=head_lines + 1,
        )
        return Cut(_joined(head_part, omitted, tail_part), omitted)


class HeadTailCapture:
    """Keeps a stream's first `head_bytes` and last `tail_bytes`; counts everything.

    Feeding never refuses (a 100 MB writer is never blocked). Call `close()` when done: it drops
    the temporary file (unlinked from the start, so nothing is left on disk even if the process
    dies), in a background thread when it went to disk (`bulk.py`).
    """

    def __init__(self, head_bytes: int, tail_bytes: int, *, spool_after: int = SPOOL_AFTER_BYTES) -> None:
        self._head_limit = head_bytes
        self._tail_limit = tail_bytes
        self._head = tempfile.SpooledTemporaryFile(max_size=spool_after, prefix="jeeves-output-")  # noqa: SIM115  (closed by close())
        self._head_size = 0
        self._tail = bytearray()
        self._dropped_newlines = 0  # newlines that left the tail window for good
        self._lines_unknown = False  # some bytes were skipped unread (`skip`)
        self._closing: Future[None] | None = None  # the spool's close, handed to the I/O thread
        self._writing: Future[None] | None = None  # the last write handed to the I/O thread
        self._write_error: OSError | None = None  # the first write that failed there
        self.total_bytes = 0

    def feed(self, chunk: bytes) -> bool:
        """Take `chunk`; always True (keep reading)."""
        self.total_bytes += len(chunk)
        room = self._head_limit - self._head_size
        if room > 0:
            if self.spooled_to_disk():  # the disk may make a write wait: not the caller's to wait
                self._writing = spool_io(self._write_behind, chunk[:room])
            else:
                self._head.write(chunk[:room])
            self._head_size += min(room, len(chunk))
            chunk = chunk[room:]
        if chunk:
            self._tail += chunk
            excess = len(self._tail) - self._tail_limit
            if excess > self._tail_limit:  # trim in batches: one copy per tail_limit bytes fed
                self._dropped_newlines += self._tail.count(b"\n", 0, excess)
                del self._tail[:excess]
        return True

    def _write_behind(self, data: bytes) -> None:
        """One spool write, in the I/O thread; the first failure is kept for the reader."""
        if self._write_error is None:
            try:
                self._head.write(data)
            except OSError as error:
                self._write_error = error

    def _written(self) -> None:
        """Wait for the spool writes handed off so far; raise the first that failed."""
        if self._writing is not None:
            self._writing.result()
            self._writing = None
        if self._write_error is not None:
            raise self._write_error

    @property
    def head_room(self) -> int:
        """Bytes the head still takes."""
        return max(0, self._head_limit - self._head_size)

    @property
    def tail_limit(self) -> int:
        """The most the tail keeps."""
        return self._tail_limit

    def skip(self, count: int) -> None:
        """Count `count` bytes that are known to fall between head and tail, without their line
        ends (a file's middle not worth reading): the marker then gives bytes only."""
        self.total_bytes += count
        self._lines_unknown = True

    @property
    def truncated(self) -> bool:
        """Whether bytes were dropped between the head and the tail."""
        return self.total_bytes > self._head_size + len(self._tail)

    def full(self) -> Cut:
        """Everything kept: the whole stream when it fit in head + tail. Reads the spool: blocking."""
        return self.source().read()

    def source(self) -> CapturedSource:
        """What was kept, as a value another process can read: the spool by its `/proc` path when
        it is on disk (Linux), else the head's bytes. Valid until `close()`."""
        self._written()
        on_disk = self.spooled_to_disk() and os.path.isdir(_PROC_FDS)
        if on_disk:
            self._head.flush()
            path, head = f"/proc/{os.getpid()}/fd/{self._head.fileno()}", b""
        else:
            self._head.seek(0)
            path, head = None, self._head.read()
        dropped = -1 if self._lines_unknown else self._dropped_newlines
        return CapturedSource(path, head, bytes(self._tail), self.total_bytes, dropped)

    def text(self, budget: int, *, head_share: float = 0.5) -> Cut:
        """At most `budget` bytes of the stream (plus the marker line): all of it if it fits, else
        `head_share` of the budget from its head and the rest from its tail, cut on line ends.
        Reads at most `budget` bytes of the spool back (and counts its line ends): blocking."""
        self._written()
        tail = bytes(self._tail)
        if not self.truncated:
            # head and tail are one contiguous stream here: cut it as one
            size = self._head_size + len(tail)
            if size <= budget:
                return Cut(decode_lossy(self._read_head(0, self._head_size) + tail), None)
            head_budget = int(budget * head_share)
            head_src = self._read_contiguous(0, head_budget, tail)
            tail_start = size - (budget - head_budget)
            before_tail = self._read_contiguous(tail_start - 1, tail_start, tail) if tail_start else b"\n"
            tail_src = self._read_contiguous(tail_start, size, tail)
        else:
            head_src = self._read_head(0, min(self._head_size, int(budget * head_share)))
            tail_budget = min(len(tail), budget - len(head_src))
            tail_src = tail[len(tail) - tail_budget :] if tail_budget > 0 else b""
            before_tail = (
                tail[len(tail) - tail_budget - 1 : len(tail) - tail_budget]
                if tail_budget < len(tail)
                else b""
            )
        newlines = self._count_head_newlines() + self._dropped_newlines + tail.count(b"\n")
        head_part = _until_last_newline(head_src)
        # a tail starting right after a line end keeps its first line; else from its first whole line
        tail_part = tail_src if before_tail == b"\n" else _from_first_newline(tail_src)
        head_lines = head_part.count(b"\n")
        omitted = Omitted(
            lines=0 if self._lines_unknown else newlines - head_lines - tail_part.count(b"\n"),
            bytes=self.total_bytes - len(head_part) - len(tail_part),
            first_line=head_lines + 1,
        )
        return Cut(_joined(head_part, omitted, tail_part), omitted)

    def _read_head(self, start: int, end: int) -> bytes:
        self._head.seek(start)
        return self._head.read(max(0, end - start))

    def _read_contiguous(self, start: int, end: int, tail: bytes) -> bytes:
        """Bytes `start`..`end` of head + tail, for a capture that dropped nothing."""
        from_head = self._read_head(start, min(end, self._head_size)) if start < self._head_size else b""
        return from_head + tail[max(0, start - self._head_size) : max(0, end - self._head_size)]

    def close(self) -> None:
        """Release the spool (idempotent). Closing a spool on disk frees its pages, milliseconds the
        caller (the event loop, when a tool call ends) does not wait for: a thread does it."""
        if self.closed:
            return
        if self.spooled_to_disk():
            self._closing = close_in_background(self._head)
        else:
            self._head.close()

    @property
    def closed(self) -> bool:
        """Whether `close()` was called: the capture must not be read any more."""
        return self._closing is not None or self._head.closed

    def wait_released(self, timeout: float) -> None:
        """Block until the spool's file is closed (after `close()`). Raises TimeoutError."""
        if self._closing is not None:
            self._closing.result(timeout)

    def spooled_to_disk(self) -> bool:
        """Whether the head went past `spool_after` into its temporary file."""
        rolled: bool = getattr(self._head, "_rolled", False)  # the stdlib's own flag, not public
        return rolled

    def _count_head_newlines(self) -> int:
        self._head.seek(0)
        count = 0
        while block := self._head.read(SPOOL_AFTER_BYTES):
            count += block.count(b"\n")
        return count


def _joined(head: bytes, omitted: Omitted, tail: bytes) -> str:
    head_text = decode_lossy(head)
    if head_text and not head_text.endswith("\n"):
        head_text += "\n"  # the marker stands on its own line
    return f"{head_text}{omitted.marker()}\n{decode_lossy(tail)}"


def _until_last_newline(data: bytes) -> bytes:
    """`data` up to its last line end; cut on a character boundary when it holds no line end."""
    end = data.rfind(b"\n")
    return data[: end + 1] if end >= 0 else drop_split_tail(data)


def _from_first_newline(data: bytes) -> bytes:
    """`data` from its first whole line; from its first whole character when it holds no line end."""
    start = data.find(b"\n")
    if start >= 0:
        return data[start + 1 :]
    skip = 0
    while skip < len(data) and data[skip] & 0xC0 == 0x80:  # UTF-8 continuation bytes
        skip += 1
    return data[skip:]


def cut_text(text: str, budget: int, *, head_share: float = 0.5) -> str:
    """`text` cut to `budget` UTF-8 bytes as a capture cuts a stream (head, marker line, tail)."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= budget:
        return text
    capture = HeadTailCapture(len(data), 0)
    try:
        capture.feed(data)
        return capture.text(budget, head_share=head_share).text
    finally:
        capture.close()
