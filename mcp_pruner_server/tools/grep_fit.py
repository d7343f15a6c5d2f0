"""Grep results fitted to `max_output_bytes` by cutting their longest lines, never by dropping hits.

With a question, matches are collected up to the raw cap, so one of them may be a 10 MB line
(a minified bundle, a data blob). Cutting the result to its first bytes then lost that line's
head and every match after it, though the rest was a few bytes. Here each line longer than a
common length keeps its head and a marker saying how many bytes were left out
(`⟦TRUNCATED: <m> bytes not shown⟧`, as `read` and `bash` mark a cut inside a line), the length
chosen as large as the cap allows. Only when even heads of `MIN_HEAD_BYTES` do not fit (too
many lines, not too long ones) is there nothing to fit: the caller cuts as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.model_view import MODEL_NUMBERED
from mcp_pruner_server.pruning.text import utf8_size
from tools_exec.capture import TRUNCATION_BYTES_MARKER
from tools_exec.grep import GrepMatch
from tools_exec.limits import MATCH_OVERHEAD_BYTES
from tools_exec.text import cut_utf8, decode_lossy

# The least of a cut line a reader is shown: enough for the start of a statement or a key.
MIN_HEAD_BYTES = 64


def _marker_bytes(size: int) -> int:
    """The marker's size for a cut of `size` bytes: an upper bound of the one a cut line gets."""
    return utf8_size(TRUNCATION_BYTES_MARKER.format(bytes=size))


def _head_length(pieces: Sequence[tuple[int, str]], cap: int) -> int | None:
    """The most bytes each cuttable text may keep so that the pieces, (fixed bytes, cuttable
    text) each, add up to at most `cap`; a large number when nothing needs cutting, None when
    heads of `MIN_HEAD_BYTES` do not fit."""
    sizes = [(fixed, utf8_size(text)) for fixed, text in pieces]

    def cost(head: int) -> int:
        return sum(fixed + min(size, head + _marker_bytes(size)) for fixed, size in sizes)

    longest = max((size for _, size in sizes), default=0)
    if cost(longest) <= cap:
        return longest
    if cost(MIN_HEAD_BYTES) > cap:
        return None
    low, high = MIN_HEAD_BYTES, longest  # cost(low) fits, cost(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if cost(middle) <= cap else (low, middle)
    return low


def cut_line(text: str, head: int) -> str:
    """`text` whole if it fits `head` bytes and a marker, else its first `head` bytes and the marker."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= head + _marker_bytes(len(data)):
        return text
    kept = cut_utf8(data, head)
    return decode_lossy(kept) + TRUNCATION_BYTES_MARKER.format(bytes=len(data) - len(kept))


def fit_matches(matches: Sequence[GrepMatch], cap: int) -> list[GrepMatch] | None:
    """Every match, the longest texts cut so that they fit `cap` as the collector counts them;
    None when they cannot."""
    pieces = [(utf8_size(m.path) + MATCH_OVERHEAD_BYTES, m.text) for m in matches]
    head = _head_length(pieces, cap)
    if head is None:
        return None
    return [replace(m, text=cut_line(m.text, head)) for m in matches]


def fit_listing(listing: str, matches: Sequence[GrepMatch], cap: int) -> str | None:
    """The pruned `listing` (`N ` before the Nth of `matches`, markers between) with its longest
    match texts cut so that it fits `cap` bytes; None when it cannot. A line's number and path
    are never cut: only the match's text, at the line's end."""
    lines = listing.split("\n")
    pieces: list[tuple[int, str]] = []
    for line in lines:
        numbered = MODEL_NUMBERED.match(line)
        index = int(numbered.group(1)) - 1 if numbered else -1
        text = matches[index].text if 0 <= index < len(matches) else ""
        if not text or not line.endswith(text):
            text = ""
        pieces.append((utf8_size(line) - utf8_size(text) + 1, text))  # + 1: its newline
    head = _head_length(pieces, cap + 1)  # the last line has no newline
    if head is None:
        return None
    fitted = [
        line[: len(line) - len(text)] + cut_line(text, head)
        for line, (_, text) in zip(lines, pieces, strict=True)
    ]
    return "\n".join(fitted)
