"""JSON work on big strings in bounded slices, so a worker thread never holds the GIL for long.

`json.loads` and `json.dumps` are single C calls: on a 14 MB body they hold the GIL for 100-150 ms
each, and moving them to a thread (`offload.py`) does not help the event loop, which waits for the
GIL all that time (`/healthz` stalled 0.5-1.2 s during a 14 MB `POST /prune`, issue 29). Big JSON
is nearly always a few long strings (a file, a log) in a small skeleton; here those strings are
parsed and written `SLICE_CHARS` at a time, and only the small skeleton goes through `json` whole.
Between two slices the thread gives the GIL back, so the loop runs every few milliseconds.

`loads_in_slices(body)` and `dumps_in_slices(value)` give what `json.loads` / `json.dumps(...,
ensure_ascii=False, allow_nan=False)` give. Many small values (a million-key object) are still one
`json` call: slicing helps where the bytes sit in long strings.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Callable, Iterator
from typing import Final

# One slice of a long string: ~2-3 ms of `json` work on a busy host, under the 5 ms switch interval.
SLICE_CHARS: Final = 256 * 1024
# One slice of a long list (the line numbers of a 14 MB file): ~1 ms of `json` work.
SLICE_ITEMS: Final = 10_000
# A JSON string literal's content, escapes included; possessive: scanned once (`gateway/forward.py`).
_STRING_CONTENT = re.compile(r'[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)
# A `\uD800`-`\uDBFF` escape: the first half of a pair, never cut from its second half.
_HIGH_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\Z")


def loads_in_slices(body: str, parse_constant: Callable[[str], object]) -> object:
    """`json.loads(body, parse_constant=...)`, its strings longer than `SLICE_CHARS` characters
    parsed a slice at a time (`decode_in_slices` makes a body's bytes text the same way).

    Raises:
        ValueError: the body is not JSON.
        RecursionError: it nests deeper than the parser's recursion limit.
    """
    nonce = os.urandom(8).hex()
    skeleton: list[str] = []
    long_strings: dict[str, str] = {}
    done = 0
    for start, end in _long_literals(body):
        placeholder = f"\0{nonce}:{len(long_strings)}"
        long_strings[placeholder] = _parse_string(body, start + 1, end - 1)
        skeleton += [body[done:start], json.dumps(placeholder)]
        done = end
    if not long_strings:
        return json.loads(body, parse_constant=parse_constant)
    skeleton.append(body[done:])
    value = json.loads("".join(skeleton), parse_constant=parse_constant)
    try:
        return _put_back(value, long_strings)
    except RecursionError:
        # deeper than this walk's Python frames reach (~500), where the C parser goes to ~1000:
        # the body parsed whole, as without a long string (the GIL held longer, once)
        return json.loads(body, parse_constant=parse_constant)


def decode_in_slices(body: bytes) -> str:
    """`body.decode("utf-8", "surrogatepass")` (what `json.loads` does with UTF-8 bytes), a slice
    at a time.

    Raises:
        UnicodeDecodeError: the body is not UTF-8.
    """
    decoder = codecs.getincrementaldecoder("utf-8")("surrogatepass")
    view = memoryview(body)
    pieces = [decoder.decode(view[at : at + SLICE_CHARS]) for at in range(0, len(body), SLICE_CHARS)]
    pieces.append(decoder.decode(b"", final=True))
    return "".join(pieces)


def _long_literals(body: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each string literal longer than `SLICE_CHARS`, found with no regex running
    over more than a slice (one over a 14 MB literal held the GIL ~140 ms). Stops at a literal
    never closed: `json.loads` then says what is wrong with the body."""
    at = 0
    while (opening := body.find('"', at)) >= 0:
        end = _literal_end(body, opening)
        if end is None:
            return
        if end - opening > SLICE_CHARS:
            yield opening, end
        at = end


def _literal_end(body: str, opening: int) -> int | None:
    """The end of the string literal opened at `opening`, found a slice at a time; None if the
    body ends first."""
    at, size = opening + 1, len(body)
    while True:
        match = _STRING_CONTENT.match(body, at, min(at + SLICE_CHARS, size))
        assert match is not None  # the pattern matches the empty string
        if match.end() < size and body[match.end()] == '"':
            return match.end() + 1
        if match.end() == at or match.end() >= size:
            return None  # a lone backslash at the end, or no closing quote
        at = match.end()


def _parse_string(body: str, start: int, end: int) -> str:
    """The string whose literal's content is `body[start:end]`, parsed slice by slice."""
    pieces: list[str] = []
    at = start
    while at < end:
        cut = _safe_cut(body, at, at + SLICE_CHARS, end) if end - at > SLICE_CHARS else end
        pieces.append(json.loads(f'"{body[at:cut]}"'))
        at = cut
    return "".join(pieces)


def _safe_cut(body: str, floor: int, cut: int, end: int) -> int:
    """A cut after `floor`, at or before `cut` when it can (else the first one after it, at most
    `end`), that splits no escape or surrogate pair: right before a backslash that starts an
    escape (one not preceded by a backslash, nor by the first half of a pair), or anywhere in a
    slice without any backslash."""
    backslash = body.rfind("\\", floor, cut)
    if backslash < 0:
        return cut
    while backslash > floor:
        while backslash > floor and body[backslash - 1] == "\\":
            backslash -= 1  # the start of the run: an escape starts there
        if backslash > floor and not _after_high_surrogate(body, floor, backslash):
            return backslash
        backslash = body.rfind("\\", floor, backslash)
    # a slice of nothing but escapes: the first cut after it
    after = body.find("\\", cut + 1, end)
    while after > 0 and (body[after - 1] == "\\" or _after_high_surrogate(body, floor, after)):
        after = body.find("\\", after + 1, end)
    return after if after > 0 else end


def _after_high_surrogate(body: str, floor: int, at: int) -> bool:
    return _HIGH_SURROGATE_ESCAPE.search(body, max(floor, at - 6), at) is not None


def _put_back(value: object, long_strings: dict[str, str]) -> object:
    """`value` with each placeholder string replaced by the long string it stands for."""
    if isinstance(value, str):
        return long_strings.get(value, value)
    if isinstance(value, dict):
        return {long_strings.get(k, k): _put_back(item, long_strings) for k, item in value.items()}
    if isinstance(value, list):
        return [_put_back(item, long_strings) for item in value]
    return value


def dumps_in_slices(value: object) -> str:
    """`json.dumps(value, ensure_ascii=False, allow_nan=False)`, its strings longer than
    `SLICE_CHARS` characters and its lists longer than `SLICE_ITEMS` written a slice at a time.

    Raises:
        ValueError: `value` holds NaN or an infinity.
        TypeError: it holds a value JSON cannot represent.
        RecursionError: it nests deeper than the interpreter's recursion limit.
    """
    return "".join(_written_parts(value))


def dumps_chunks(value: object) -> list[bytes]:
    """`dumps_in_slices(value)` as UTF-8, in chunks of about `SLICE_CHARS` bytes or more: the
    pieces of a response body, which no step joins (a 70 MB join held the GIL ~200 ms).

    Raises:
        ValueError, TypeError, RecursionError: as `dumps_in_slices`.
    """
    chunks: list[bytes] = []
    pending: list[str] = []
    pending_size = 0
    for part in _written_parts(value):
        pending.append(part)
        pending_size += len(part)
        if pending_size >= SLICE_CHARS:
            chunks.append("".join(pending).encode("utf-8"))
            pending, pending_size = [], 0
    if pending or not chunks:
        chunks.append("".join(pending).encode("utf-8"))
    return chunks


def _written_parts(value: object) -> list[str]:
    """The JSON text of `value` in parts, none of them longer than about a slice."""
    nonce = os.urandom(8).hex()
    taken: dict[str, str | list[object]] = {}
    skeleton = json.dumps(_take_out(value, taken, nonce), ensure_ascii=False, allow_nan=False)
    if not taken:
        return [skeleton]
    parts: list[str] = []
    done = 0
    for placeholder, long_value in taken.items():
        written = json.dumps(placeholder)
        at = skeleton.index(written, done)
        parts.append(skeleton[done:at])
        parts += _written_in_slices(long_value)
        done = at + len(written)
    parts.append(skeleton[done:])
    return parts


def _written_in_slices(value: str | list[object]) -> list[str]:
    if isinstance(value, str):
        slices = range(0, len(value), SLICE_CHARS)
        return ['"', *(json.dumps(value[i : i + SLICE_CHARS], ensure_ascii=False)[1:-1] for i in slices), '"']
    parts = ["["]
    for at in range(0, len(value), SLICE_ITEMS):
        inner = _written_parts(value[at : at + SLICE_ITEMS])
        inner[0] = inner[0][1:]  # the chunk's own brackets (one part may hold both)
        inner[-1] = inner[-1][:-1]
        parts += [", "] * bool(at) + inner
    return [*parts, "]"]


def _take_out(value: object, taken: dict[str, str | list[object]], nonce: str) -> object:
    """`value` with each string longer than a slice, and each list longer than `SLICE_ITEMS`,
    replaced by a placeholder (in walk order, which is the order `json.dumps` writes them)."""
    if isinstance(value, str):
        if len(value) <= SLICE_CHARS:
            return value
    elif isinstance(value, dict):
        return {key: _take_out(item, taken, nonce) for key, item in value.items()}
    elif isinstance(value, list | tuple):
        if len(value) <= SLICE_ITEMS:
            return [_take_out(item, taken, nonce) for item in value]
        value = list(value)
    else:
        return value
    placeholder = f"\0{nonce}:{len(taken)}"
    taken[placeholder] = value
    return placeholder
