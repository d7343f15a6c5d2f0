"""Bytes to text for tool output: cuts on UTF-8 boundaries, lossless where possible.

Pure functions plus `CappedBuffer`, the head-keeping accumulator the pipe readers feed.
"""

from __future__ import annotations

import codecs
import re

_CONTINUATION_MASK = 0xC0
_CONTINUATION_BITS = 0x80
_MAX_UTF8_CHAR_BYTES = 4


def cut_utf8(data: bytes, limit: int) -> bytes:
    """The longest prefix of `data` of at most `limit` bytes that does not split a UTF-8 sequence.

    Raises:
        ValueError: `limit` is negative.
    """
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    if len(data) <= limit:
        return data
    cut = limit
    # data[cut] is the first excluded byte; if it continues a sequence, that sequence started
    # before the cut and must go too. At most 3 continuation bytes follow a lead byte.
    while cut > 0 and limit - cut < _MAX_UTF8_CHAR_BYTES - 1 and _is_continuation(data[cut]):
        cut -= 1
    return data[:cut]


def decode_lossy(data: bytes) -> str:
    """UTF-8 decoding where undecodable bytes become U+FFFD instead of failing."""
    return data.decode("utf-8", errors="replace")


# `surrogateescape` turns each byte that is not UTF-8 into one of these (and nothing else does:
# the UTF-8 decoder refuses encoded surrogates), so counting them counts the bad bytes.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


class InvalidUtf8Count:
    """Counts the bytes of a stream that are not UTF-8 (each shown as U+FFFD by `decode_lossy`).

    Fed the stream's chunks in order; a character split between two chunks is not counted. An
    ASCII chunk after a complete character costs one `isascii` scan, nothing more.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self.invalid_bytes = 0

    def feed(self, chunk: bytes) -> None:
        """Count the bad bytes of the stream's next `chunk`."""
        if chunk.isascii() and not self._decoder.getstate()[0]:
            return
        self._count(self._decoder.decode(chunk))

    def restart(self, chunk: bytes) -> None:
        """Continue after a gap (a skipped middle) with `chunk`, which may start inside a character;
        a character the gap cut at its start is not counted either."""
        self._decoder.reset()
        skip = 0
        while skip < min(len(chunk), _MAX_UTF8_CHAR_BYTES - 1) and _is_continuation(chunk[skip]):
            skip += 1
        self.feed(chunk[skip:])

    def finish(self) -> None:
        """The stream ended: an incomplete character left at its end is bad bytes too."""
        self._count(self._decoder.decode(b"", final=True))

    def _count(self, text: str) -> None:
        if not text.isascii():
            self.invalid_bytes += sum(1 for _ in _ESCAPED_BYTE.finditer(text))


def strip_line_ending(text: str) -> str:
    """A line without its terminator (`\\n` or `\\r\\n`), as grep results show lines."""
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    return text


def _is_continuation(byte: int) -> bool:
    return byte & _CONTINUATION_MASK == _CONTINUATION_BITS


class OutputBudget:
    """Bytes still allowed across the streams sharing one `max_output_bytes` (stdout + stderr)."""

    def __init__(self, max_bytes: int) -> None:
        self.remaining = max_bytes
        self.exhausted = False

    def take(self, wanted: int) -> int:
        """Reserve up to `wanted` bytes; returns how many were granted."""
        granted = min(wanted, self.remaining)
        self.remaining -= granted
        if granted < wanted:
            self.exhausted = True
        return granted


class CappedBuffer:
    """Keeps the head of a stream within a shared budget and counts everything that went by.

    Feeding never refuses: past the cap the bytes are counted and dropped, so the producer keeps
    draining (a child writing 100 MB is never blocked) while memory stays at the cap.
    """

    def __init__(self, budget: OutputBudget) -> None:
        self._budget = budget
        self._head = bytearray()
        self.total_bytes = 0
        self.truncated = False

    def feed(self, chunk: bytes) -> bool:
        """Account for `chunk`; always True (keep reading)."""
        self.total_bytes += len(chunk)
        granted = self._budget.take(len(chunk)) if not self.truncated else 0
        if granted:
            self._head += chunk[:granted]
        if granted < len(chunk):
            self.truncated = True
        return True

    def raw(self) -> bytes:
        """The kept head as bytes, exactly as received."""
        return bytes(self._head)

    def text(self, limit: int | None = None) -> str:
        """The kept head (at most `limit` bytes of it), decoded; cut back to a character boundary
        when the cap or the limit split one."""
        head = bytes(self._head)
        if limit is not None and limit < len(head):
            return decode_lossy(cut_utf8(head, limit))
        if self.truncated:
            head = drop_split_tail(head)
        return decode_lossy(head)


def split_output(stdout_bytes: int, stderr_bytes: int, cap: int, stderr_reserve: int) -> tuple[int, int]:
    """How many bytes of each stream to keep when both share `cap`: (stdout, stderr).

    stdout comes first, but stderr keeps up to `stderr_reserve` bytes whatever stdout wrote, so a
    command that floods stdout still shows its error message; either stream takes what the other
    leaves. The split depends on the sizes only, never on which pipe was read first.
    """
    stderr_keep = min(stderr_bytes, max(cap - stdout_bytes, stderr_reserve))
    return min(stdout_bytes, cap - stderr_keep), stderr_keep


def drop_split_tail(head: bytes) -> bytes:
    """Remove a trailing UTF-8 sequence the cap cut short (its lead byte announced more bytes)."""
    for back in range(1, min(_MAX_UTF8_CHAR_BYTES, len(head)) + 1):
        byte = head[-back]
        if _is_continuation(byte):
            continue
        needed = _sequence_length(byte)
        return head[:-back] if needed > back else head
    return head


def _sequence_length(lead: int) -> int:
    if lead < 0x80:
        return 1
    if lead >> 5 == 0b110:
        return 2
    if lead >> 4 == 0b1110:
        return 3
    if lead >> 3 == 0b11110:
        return 4
    return 1  # an invalid lead byte: decode_lossy will replace it, nothing to wait for
