"""What the server sends its ledger writer process over the pipe, and how it is framed.

A frame is a 4-byte big-endian length and a pickle. The first frame is the `WriterSetup`; then
each tool call is one `CallRecord`, and a `FlushRequest` asks the writer to answer its number
on stdout once every frame before it is written. The stream is the pipe's bytes, then those of
the handover file (the backlog its server could not write into the pipe before shutdown:
`FrameReader.follow`). Pickle because the two ends are one program and its own child on a
private pipe and an unnamed file (no other process can reach them), and because it copies
strings at memcpy speed where JSON would escape every character of an output on the call's
path. A record and its removed ranges cross as their fields' tuple (`_REDUCERS`): a
dataclass's default pickling (its `__dict__` as state) costs twice as much on the call's path.
"""

from __future__ import annotations

import io
import os
import pickle
import select
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Final

from mcp_pruner_server.ledger.config import LedgerConfig
from mcp_pruner_server.ledger.record import CallRecord, RemovedRanges
from mcp_pruner_server.logs import LogFormat

_LENGTH: Final = struct.Struct(">I")
# A frame larger than this is refused by the sender (dropped) and would be by the reader: the
# tools cap their output far below (16 MiB request bodies, max_output_bytes).
MAX_FRAME_BYTES: Final = 256 * 1024 * 1024
# One read takes what the pipe holds (1 MiB when the sender could enlarge it).
READ_CHUNK_BYTES: Final = 1 << 20


@dataclass(frozen=True)
class WriterSetup:
    """The first frame: where to write, and the server's identity for every row."""

    config: LedgerConfig
    session: str
    project: str
    log_format: LogFormat = "json"
    # The writer's descriptor of the handover file (`channel.py`): the frames its server could
    # not get into the pipe before shutdown, read after the pipe's EOF. None: no such file.
    handover_fd: int | None = None


@dataclass(frozen=True)
class FlushRequest:
    """Answer `number` on stdout once every frame sent before this one is written (or dropped)."""

    number: int


_CALL_FIELDS: Final = tuple(f.name for f in fields(CallRecord))
_RANGES_FIELDS: Final = tuple(f.name for f in fields(RemovedRanges))


def _call_as_tuple(record: CallRecord) -> tuple[type[CallRecord], tuple[object, ...]]:
    return CallRecord, tuple([getattr(record, name) for name in _CALL_FIELDS])


def _ranges_as_tuple(ranges: RemovedRanges) -> tuple[type[RemovedRanges], tuple[object, ...]]:
    return RemovedRanges, tuple([getattr(ranges, name) for name in _RANGES_FIELDS])


_REDUCERS: Final[dict[type, Callable[[Any], tuple[type, tuple[object, ...]]]]] = {
    CallRecord: _call_as_tuple,
    RemovedRanges: _ranges_as_tuple,
}


class FrameTooLargeError(ValueError):
    """Raised when a frame is over `MAX_FRAME_BYTES`."""


def encode(item: object) -> bytes:
    """One frame holding `item`.

    Raises:
        FrameTooLargeError: the pickle is over `MAX_FRAME_BYTES`.
        pickle.PicklingError: `item` holds something that cannot be pickled (a bug).
    """
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _REDUCERS
    pickler.dump(item)
    body = buffer.getvalue()
    if len(body) > MAX_FRAME_BYTES:
        raise FrameTooLargeError(f"a ledger frame of {len(body)} bytes")
    return _LENGTH.pack(len(body)) + body


class EndOfStream(Exception):
    """Raised by `FrameReader.next` when the sender closed the pipe (the server exited)."""


class FrameReader:
    """Reads frames from a file descriptor, optionally waiting no longer than a timeout."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()

    def next(self, timeout: float | None) -> object | None:
        """The next frame's object; None when none is complete within `timeout` (None: wait).

        Raises:
            EndOfStream: the pipe is closed and every complete frame was read.
            FrameTooLargeError: a corrupt length.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            item = self._take()
            if item is not None:
                return item
            if deadline is not None:
                readable, _, _ = select.select([self._fd], [], [], max(deadline - time.monotonic(), 0.0))
                if not readable:
                    return None
            chunk = os.read(self._fd, READ_CHUNK_BYTES)
            if not chunk:
                raise EndOfStream
            self._buffer += chunk

    def follow(self, fd: int) -> None:
        """Read on from `fd`, the rest of the same stream: a frame cut at the end of the first
        file continues at the start of this one."""
        self._fd = fd

    def _take(self) -> object | None:
        if len(self._buffer) < _LENGTH.size:
            return None
        (length,) = _LENGTH.unpack_from(self._buffer)
        if length > MAX_FRAME_BYTES:
            raise FrameTooLargeError(f"a ledger frame of {length} bytes")
        end = _LENGTH.size + length
        if len(self._buffer) < end:
            return None
        body = bytes(self._buffer[_LENGTH.size : end])
        del self._buffer[:end]
        item: object = pickle.loads(body)  # our own server's frames, on a private pipe
        return item
