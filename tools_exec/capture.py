"""Capture all, return little: a stream's head and tail, and the marker for what lies between.

`HeadTailCapture` is the sink the pipe readers (and `read`) feed. It keeps the first `head_bytes`
(in memory, then in an unlinked temporary file past `spool_after`, so a 64 MiB output costs
64 MiB of disk, not of memory) and the last `tail_bytes` in memory, and counts the bytes and
lines that fell between. `text(budget)` then gives at most `budget` bytes of it: everything if it
fits, else a head and a tail cut on line boundaries with one marker line between them.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass

from tools_exec.limits import SPOOL_AFTER_BYTES
from tools_exec.text import decode_lossy, drop_split_tail

TRUNCATION_MARKER = "⟦TRUNCATED: lines {first}-{last} ({lines} lines, {bytes} bytes) not shown⟧"
"""The one line standing for what a head-and-tail cut left out (numbering of the whole output)."""
NEWLINE = ord("\n")
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


class HeadTailCapture:
    """Keeps a stream's first `head_bytes` and last `tail_bytes`; counts everything.

    Feeding never refuses (a 100 MB writer is never blocked). Call `close()` when done: it drops
    the temporary file at once (the file is unlinked from the start, so nothing is left on disk
    even if the process dies).
    """

    def __init__(self, head_bytes: int, tail_bytes: int, *, spool_after: int = SPOOL_AFTER_BYTES) -> None:
        self._head_limit = head_bytes
        self._tail_limit = tail_bytes
        self._head = tempfile.SpooledTemporaryFile(max_size=spool_after, prefix="jeeves-output-")  # noqa: SIM115  (closed by close())
        self._head_size = 0
        self._tail = bytearray()
        self._dropped_newlines = 0  # newlines that left the tail window for good
        self.total_bytes = 0

    def feed(self, chunk: bytes) -> bool:
        """Take `chunk`; always True (keep reading)."""
        self.total_bytes += len(chunk)
        room = self._head_limit - self._head_size
        if room > 0:
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

    @property
    def truncated(self) -> bool:
        """Whether bytes were dropped between the head and the tail."""
        return self.total_bytes > self._head_size + len(self._tail)

    def full(self) -> Cut:
        """Everything kept: the whole stream when it fit in head + tail. Reads the spool: blocking."""
        return self.text(self.total_bytes)

    def text(self, budget: int, *, head_share: float = 0.5) -> Cut:
        """At most `budget` bytes of the stream (plus the marker line): all of it if it fits, else
        `head_share` of the budget from its head and the rest from its tail, cut on line ends.
        Reads the spool: blocking."""
        self._head.seek(0)
        tail = bytes(self._tail)
        if not self.truncated:
            whole = self._head.read() + tail
            if len(whole) <= budget:
                return Cut(decode_lossy(whole), None)
            head_src, tail_src, newlines = whole, whole, whole.count(b"\n")
        else:
            head_src, tail_src = self._head.read(max(0, budget)), tail
            newlines = self._count_head_newlines() + self._dropped_newlines + tail.count(b"\n")
        head_budget = min(len(head_src), int(budget * head_share))
        tail_budget = min(len(tail_src), budget - head_budget)
        head_part = _until_last_newline(head_src[:head_budget])
        tail_start = len(tail_src) - tail_budget
        tail_part = tail_src[tail_start:]
        if tail_budget <= 0:
            tail_part = b""
        elif tail_start == 0 or tail_src[tail_start - 1] != NEWLINE:  # not at a line start
            tail_part = _from_first_newline(tail_part)
        head_lines = head_part.count(b"\n")
        omitted = Omitted(
            lines=newlines - head_lines - tail_part.count(b"\n"),
            bytes=self.total_bytes - len(head_part) - len(tail_part),
            first_line=head_lines + 1,
        )
        head_text = decode_lossy(head_part)
        if head_text and not head_text.endswith("\n"):
            head_text += "\n"  # the marker stands on its own line
        return Cut(f"{head_text}{omitted.marker()}\n{decode_lossy(tail_part)}", omitted)

    def close(self) -> None:
        """Release the spool (idempotent)."""
        self._head.close()

    @property
    def closed(self) -> bool:
        return self._head.closed

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
