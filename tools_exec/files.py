"""`read`: a confined regular text file, optionally a line range, cut to a byte cap.

The file is streamed in `READ_CHUNK_BYTES` chunks through a `HeadTailCapture` until the range is
complete: a range over the cap keeps its head and its tail, half of the cap each, with one marker
line between (`capture.py`), so a multi-gigabyte file costs no more memory than twice the cap.
With `capture_bytes` the range is also captured whole up to that size (spooled to a temporary
file past 1 MiB) for the caller to prune.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

import anyio.to_thread

from tools_exec.bulk import run_bulk
from tools_exec.capture import Cut, HeadTailCapture, Omitted
from tools_exec.errors import InvalidPathError, IoError, NotFoundError, PermissionDeniedError
from tools_exec.limits import (
    BINARY_SNIFF_BYTES,
    DEFAULT_MAX_OUTPUT_BYTES,
    MIN_MAX_OUTPUT_BYTES,
    RAW_TAIL_BYTES,
    READ_CHUNK_BYTES,
    READ_COUNT_LINES_MAX_BYTES,
    READ_HEAD_SHARE,
    READ_INLINE_MAX_BYTES,
    SPOOL_AFTER_BYTES,
)
from tools_exec.paths import relative_to_root, resolve_inside
from tools_exec.text import InvalidUtf8Count


@dataclass(frozen=True)
class ReadResult:
    """`path` is relative to the root (POSIX). `bytes` is the size of `content` as read (before
    decoding); `file_bytes` the whole file's; `start_line` the 1-based number of content's first line."""

    path: str
    content: str
    truncated: bool
    bytes: int
    duration_ms: float
    file_bytes: int = 0
    start_line: int = 1
    omitted: Omitted | None = None  # what the cut to `max_output_bytes` left out
    capture: HeadTailCapture | None = None  # with `capture_bytes`: the range whole; the caller closes it
    invalid_utf8_bytes: int = 0  # bytes of what was read that are not UTF-8 (each shown as U+FFFD)


@dataclass(frozen=True)
class _Slice:
    cut: Cut
    file_bytes: int
    invalid_utf8_bytes: int


async def read_text(
    root: Path,
    path: str,
    *,
    start_line: int | None = None,
    end_line: int | None = None,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
    capture_bytes: int | None = None,
) -> ReadResult:
    """Read lines `start_line`..`end_line` (1-based, inclusive, clamped to the file) of a text file.

    Undecodable bytes become U+FFFD. When the range exceeds `max_output_bytes` its head and tail
    are kept, cut on line ends, with a marker line between and `truncated=True`. With
    `capture_bytes`, `capture` holds the range up to that size (the caller must close it).

    Raises:
        ValueError: a line number below 1, `end_line < start_line`, or a cap below 1.
        InvalidPathError: the path escapes the root, or is not a regular file.
        NotFoundError: nothing exists at the path.
        PermissionDeniedError: the file cannot be opened for reading.
        IoError: the file is binary (NUL in its first 8 KiB) or reading it failed.
    """
    first = 1 if start_line is None else start_line
    if first < 1 or (end_line is not None and end_line < 1):
        raise ValueError("start_line and end_line are 1-based")
    if end_line is not None and end_line < first:
        raise ValueError(f"end_line ({end_line}) is before start_line ({first})")
    if max_output_bytes < MIN_MAX_OUTPUT_BYTES:
        raise ValueError(f"max_output_bytes must be >= {MIN_MAX_OUTPUT_BYTES}, got {max_output_bytes}")
    started = time.monotonic()
    resolved = resolve_inside(root, path)
    fd = _open_regular(resolved, path)
    # A small file is read right here: a worker-thread hop costs more than the read (measured on
    # `/rpc` read of a 10-line file: p50 1.08 ms with the hop, 0.93 ms without). A large one is
    # read in a thread so the event loop never waits on megabytes of disk; past a spool's size,
    # in the bulk thread, one read after another (`bulk.py`: parallel ones only fight for the GIL).
    if capture_bytes is None:
        capture = HeadTailCapture(max_output_bytes, max_output_bytes)
    else:
        capture = HeadTailCapture(max(capture_bytes - RAW_TAIL_BYTES, max_output_bytes), RAW_TAIL_BYTES)
    try:
        size = os.fstat(fd).st_size
        args = (fd, path, first, end_line, capture, max_output_bytes)
        if size <= READ_INLINE_MAX_BYTES:
            part = _read_slice(*args)
        elif size <= SPOOL_AFTER_BYTES:
            part = await anyio.to_thread.run_sync(_read_slice, *args)
        else:
            part = await run_bulk(_read_slice, *args)
    except BaseException:
        capture.close()
        raise
    if capture_bytes is None:
        capture.close()
    content = part.cut.text
    return ReadResult(
        path=relative_to_root(root, resolved),
        content=content,
        truncated=part.cut.omitted is not None,
        bytes=capture.total_bytes - (part.cut.omitted.bytes if part.cut.omitted else 0),
        duration_ms=(time.monotonic() - started) * 1000,
        file_bytes=part.file_bytes,
        start_line=first,
        omitted=part.cut.omitted,
        capture=capture if capture_bytes is not None else None,
        invalid_utf8_bytes=part.invalid_utf8_bytes,
    )


def _read_slice(
    fd: int, shown: str, first: int, last: int | None, capture: HeadTailCapture, cap: int
) -> _Slice:
    """Read the range from `fd`, which it takes over and closes, into `capture`; cut it to `cap`."""
    invalid = InvalidUtf8Count()
    with os.fdopen(fd, "rb", buffering=0) as handle:
        file_bytes = os.fstat(handle.fileno()).st_size
        try:
            middle = file_bytes - capture.head_room - capture.tail_limit
            if first == 1 and last is None and middle > READ_COUNT_LINES_MAX_BYTES:
                _head_skip_tail(handle, shown, file_bytes, capture, invalid)
            else:
                _scan(handle, shown, first, last, capture, invalid)
        except OSError as exc:
            raise IoError(f"reading {shown} failed: {exc.strerror or exc}") from exc
    invalid.finish()
    return _Slice(capture.text(cap, head_share=READ_HEAD_SHARE), file_bytes, invalid.invalid_bytes)


def _head_skip_tail(
    handle: BinaryIO, shown: str, file_bytes: int, capture: HeadTailCapture, invalid: InvalidUtf8Count
) -> None:
    """A whole file far larger than what the capture keeps: its head, then a seek to its tail.
    The middle is counted, not read (a 10 GB log costs two small reads, not a scan)."""
    _scan(_Limited(handle, capture.head_room), shown, 1, None, capture, invalid)
    tail_start = max(handle.tell(), file_bytes - capture.tail_limit)
    capture.skip(tail_start - handle.tell())
    handle.seek(tail_start)
    check = invalid.restart
    while chunk := handle.read(READ_CHUNK_BYTES):
        capture.feed(chunk)
        check(chunk)
        check = invalid.feed


class _Reader(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _Limited:
    """`handle`, ending after `limit` bytes (the head of a file read by `_scan`)."""

    def __init__(self, handle: BinaryIO, limit: int) -> None:
        self._handle, self._left = handle, limit

    def read(self, size: int, /) -> bytes:
        data = self._handle.read(min(size, self._left)) if self._left > 0 else b""
        self._left -= len(data)
        return data


def _open_regular(resolved: Path, shown: str) -> int:
    # O_NOFOLLOW: the path was resolved symlink-free; a symlink appearing now is a swap attempt.
    # O_NONBLOCK: opening a FIFO must not hang; it is refused below as not a regular file.
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(resolved, flags)
    except FileNotFoundError as exc:
        raise NotFoundError(f"no such file: {shown}") from exc
    except PermissionError as exc:
        raise PermissionDeniedError(f"permission denied: {shown}") from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InvalidPathError(f"path became a symlink while opening: {shown}") from exc
        raise IoError(f"cannot open {shown}: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InvalidPathError(f"not a regular file: {shown}")
    return fd


def _scan(
    handle: _Reader,
    shown: str,
    first: int,
    last: int | None,
    capture: HeadTailCapture,
    invalid: InvalidUtf8Count,
) -> None:
    """Stream the file, feeding lines first..last to `capture` and to `invalid`."""
    line_no = 1  # number of the line the next byte belongs to
    sniffed = False
    while True:
        chunk = handle.read(READ_CHUNK_BYTES)
        if not chunk:
            return
        if not sniffed:
            sniffed = True
            if b"\0" in chunk[:BINARY_SNIFF_BYTES]:
                raise IoError(f"binary file: {shown}")
        at = 0
        if line_no < first:  # skipping: count newlines, no per-line work
            newlines = chunk.count(b"\n")
            if line_no + newlines < first:
                line_no += newlines
                continue
            while line_no < first:
                at = chunk.index(b"\n", at) + 1
                line_no += 1
        if last is None:
            kept, done = (chunk[at:] if at else chunk), False
        else:
            stop, line_no, done = _range_end(chunk, at, line_no, last)
            kept = chunk[at:stop]
        capture.feed(kept)
        invalid.feed(kept)
        if done:
            return


def _range_end(chunk: bytes, at: int, line_no: int, last: int) -> tuple[int, int, bool]:
    """Where line `last` ends in `chunk` from `at`: (stop offset, next line number, range complete)."""
    position = at
    while line_no <= last:
        newline = chunk.find(b"\n", position)
        if newline < 0:
            return len(chunk), line_no, False
        position = newline + 1
        line_no += 1
    return position, line_no, True
