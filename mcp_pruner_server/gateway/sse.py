"""A minimal `text/event-stream` reader: the `data` of each event, as the stream's bytes.

MCP Streamable HTTP servers may answer a POST with an SSE stream whose events carry JSON-RPC
messages (progress notifications, then the response). Only the `data` field matters to the
gateway; `event`, `id`, `retry` and comments are skipped (WHATWG HTML §9.2.6 field rules: a
line ends with CRLF, LF or CR; the `data` lines of one event are joined with LF, a blank line
ends the event, one space after the colon is dropped).

Memory: one event may be the whole reply (a 64 MB tool result in one `data:` line). Its value
is appended, chunk by chunk, to one `bytearray` straight from the bytes read: no line is ever
held as a whole, nor decoded, nor split into field and value (that reader held the line's
parts, the joined line and its value at once: 3x the event). The caller decodes the event's
bytes once and frees them before parsing (`forward.py`), so the event costs 2x at its peak.
"""

from __future__ import annotations

import re
from enum import Enum, auto

# WHATWG §9.2.6: a line ends with CRLF, LF or CR.
_EOL = re.compile(rb"\r\n|\r|\n")
_DATA = b"data"


class _Line(Enum):
    FIELD = auto()  # reading the field name, up to the first colon
    DATA = auto()  # in a `data` line's value: appended to the event
    SKIPPED = auto()  # in any other field's value, or a comment: dropped


class SseEventReader:
    """Stream bytes in (`feed`), the data of each completed event out, as UTF-8 bytes."""

    def __init__(self) -> None:
        self._data = bytearray()  # the event's data lines so far, joined with LF
        self._has_data = False  # a `data` line was seen (its value may be empty)
        self._line = _Line.FIELD
        self._field = bytearray()  # the field name read so far (a few bytes: see `_name`)
        self._line_empty = True  # nothing of the current line seen yet: its end ends the event
        self._drop_space = False  # a `data:` line whose value has not started: one space to drop
        self._after_cr = False  # the last chunk ended with CR: a leading LF is its CRLF's half

    def feed(self, chunk: bytes) -> list[bytearray]:
        """The data of the events `chunk` completes, in order."""
        if not chunk:
            return []
        if self._after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        self._after_cr = chunk.endswith(b"\r")
        events: list[bytearray] = []
        start = 0
        for match in _EOL.finditer(chunk):
            self._take(chunk, start, match.start())
            event = self._end_line()
            if event is not None:
                events.append(event)
            start = match.end()
        self._take(chunk, start, len(chunk))
        return events

    def finish(self) -> bytearray | None:
        """The data of an event the end of the stream cut off (no blank line after it)."""
        if not self._line_empty:
            self._end_line()
        return self._end_line()

    def _take(self, chunk: bytes, start: int, end: int) -> None:
        """Bytes `start`..`end` of `chunk`: part of the current line, no line break in them."""
        if start == end:
            return
        self._line_empty = False
        if self._line is _Line.FIELD:
            colon = chunk.find(b":", start, end)
            self._field += chunk[start : end if colon < 0 else colon]
            if colon < 0:
                if not _DATA.startswith(self._field):
                    self._line = _Line.SKIPPED  # can no longer be `data`: the rest is dropped
                return
            self._line = self._start_value()
            start = colon + 1
        if self._line is _Line.DATA and start < end:
            if self._drop_space:
                self._drop_space = False
                if chunk[start] == ord(" "):
                    start += 1
            self._data += memoryview(chunk)[start:end]  # one copy: into the event

    def _start_value(self) -> _Line:
        """After the colon: a `data` line starts a data line of the event, any other is skipped."""
        if self._field != _DATA:
            return _Line.SKIPPED
        if self._has_data:
            self._data += b"\n"
        self._has_data = True
        self._drop_space = True
        return _Line.DATA

    def _end_line(self) -> bytearray | None:
        """End the current line; the event's data when it was the blank line ending an event."""
        blank = self._line_empty
        if self._line is _Line.FIELD and not blank:
            self._start_value()  # `data` alone on its line: a data line with an empty value
        self._line, self._line_empty, self._drop_space = _Line.FIELD, True, False
        self._field.clear()
        if not blank or not self._has_data:
            return None
        event, self._data, self._has_data = self._data, bytearray(), False
        return event
