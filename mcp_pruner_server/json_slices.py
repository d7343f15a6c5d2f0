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

Even a slice-by-slice parse ends in one `"".join` when the answer is a `str`: 60 MB joined held the
GIL 140-220 ms on the loaded 2-core host. So `loads_utf8_in_slices(buffer)` (the gateway's big
replies, as bytes) never builds its long strings: each is a `LongText`, its slices as parsed, which
`len`, slicing, `isascii` and equality read slice by slice, and which `dumps_chunks` writes slice by
slice. A long text is joined only where a whole `str` is needed (`str(long_text)`).
"""

from __future__ import annotations

import codecs
import itertools
import json
import mmap
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import AnyStr, Final, Generic

from mcp_pruner_server.deep_json import rewritten

# One slice of a long string: ~2-3 ms of `json` work on a busy host, under the 5 ms switch interval.
SLICE_CHARS: Final = 256 * 1024
# One slice of a long list (the line numbers of a 14 MB file): ~1 ms of `json` work.
SLICE_ITEMS: Final = 10_000
# A JSON string literal's content, escapes included; possessive: scanned once (`gateway/forward.py`).
_STRING_CONTENT = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
# A `\uD800`-`\uDBFF` escape: the first half of a pair, never cut from its second half.
_HIGH_SURROGATE_ESCAPE = r"\\u[dD][89abAB][0-9a-fA-F]{2}\Z"
# How many characters of each end `LongText.__hash__` reads: equal texts hash alike however sliced.
_HASHED_END_CHARS: Final = 64


class LongText:
    """A string longer than a slice, held as its slices and never joined by this module: what
    `loads_utf8_in_slices` gives for a long string literal. `len`, slicing (`text[a:b]`, a `str`),
    `isascii` and equality (with a `str` or another `LongText`, by content) read it slice by slice;
    `str(text)` joins it (one operation on all of it: only where a whole string is needed)."""

    __slots__ = ("_length", "slices")

    def __init__(self, slices: Iterable[str]) -> None:
        self.slices: tuple[str, ...] = tuple(piece for piece in slices if piece)
        self._length = sum(map(len, self.slices))

    def __len__(self) -> int:
        return self._length

    def __str__(self) -> str:
        return "".join(self.slices)

    def __repr__(self) -> str:
        return f"LongText(<{self._length} chars in {len(self.slices)} slices>)"

    def __getitem__(self, key: slice) -> str:
        start, stop, step = key.indices(self._length)
        if step != 1:
            raise ValueError("a LongText is sliced with step 1 only")
        parts: list[str] = []
        offset = 0
        for piece in self.slices:
            if offset >= stop:
                break
            if offset + len(piece) > start:
                parts.append(piece[max(0, start - offset) : stop - offset])
            offset += len(piece)
        return "".join(parts)

    def isascii(self) -> bool:
        return all(piece.isascii() for piece in self.slices)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str | LongText):
            return NotImplemented
        if len(other) != self._length:
            return False
        offset = 0
        for piece in self.slices:
            if other[offset : offset + len(piece)] != piece:
                return False
            offset += len(piece)
        return True

    def __hash__(self) -> int:
        return hash((self._length, self[:_HASHED_END_CHARS], self[-_HASHED_END_CHARS:]))


@dataclass(frozen=True)
class _Syntax(Generic[AnyStr]):
    """What the literal scan needs to know of a body of text or of UTF-8 bytes."""

    quote: AnyStr
    backslash: AnyStr
    content: re.Pattern[AnyStr]
    high_surrogate_escape: re.Pattern[AnyStr]
    utf8: bool  # a cut must then fall on a character's first byte


_TEXT = _Syntax('"', "\\", re.compile(_STRING_CONTENT, re.DOTALL), re.compile(_HIGH_SURROGATE_ESCAPE), False)
_UTF8 = _Syntax(
    b'"',
    b"\\",
    re.compile(_STRING_CONTENT.encode(), re.DOTALL),
    re.compile(_HIGH_SURROGATE_ESCAPE.encode()),
    True,
)


def loads_in_slices(body: str, parse_constant: Callable[[str], object]) -> object:
    """`json.loads(body, parse_constant=...)`, its strings longer than `SLICE_CHARS` characters
    parsed a slice at a time (`decode_in_slices` makes a body's bytes text the same way).

    Raises:
        ValueError: the body is not JSON.
        RecursionError: it nests deeper than the parser's recursion limit.
    """
    nonce = os.urandom(8).hex()
    skeleton: list[str] = []
    long_strings: dict[str, str | LongText] = {}
    done = 0
    for start, end in _long_literals(_TEXT, body, len(body)):
        placeholder = f"\0{nonce}:{len(long_strings)}"
        long_strings[placeholder] = "".join(_parse_string(_TEXT, body, start + 1, end - 1))
        skeleton += [body[done:start], json.dumps(placeholder)]
        done = end
    if not long_strings:
        return json.loads(body, parse_constant=parse_constant)
    skeleton.append(body[done:])
    value = json.loads("".join(skeleton), parse_constant=parse_constant)
    return _put_back(value, long_strings)


def loads_utf8_in_slices(
    buffer: bytes | mmap.mmap, size: int, parse_constant: Callable[[str], object]
) -> object:
    """`json.loads(buffer[:size].decode("utf-8"), parse_constant=...)`, with every string longer
    than `SLICE_CHARS` bytes of UTF-8 a `LongText` (parsed a slice at a time, never joined) and
    no step over the whole buffer at once. Strict UTF-8: the caller decides what a body that is
    not means (the gateway reads it as `json.loads` reads bytes).

    Raises:
        ValueError: the body is not JSON; UnicodeDecodeError (a ValueError): not UTF-8.
        RecursionError: it nests deeper than the parser's recursion limit.
    """
    nonce = os.urandom(8).hex()
    skeleton: list[bytes] = []
    long_strings: dict[str, str | LongText] = {}
    done = 0
    for start, end in _long_literals(_UTF8, buffer, size):
        placeholder = f"\0{nonce}:{len(long_strings)}"
        long_strings[placeholder] = LongText(_parse_string(_UTF8, buffer, start + 1, end - 1))
        skeleton += [buffer[done:start], json.dumps(placeholder).encode()]
        done = end
    skeleton.append(buffer[done:size])
    value = json.loads(b"".join(skeleton).decode("utf-8"), parse_constant=parse_constant)
    return _put_back(value, long_strings) if long_strings else value


def count_in_slices(buffer: bytes | mmap.mmap, start: int, stop: int, needles: tuple[bytes, ...]) -> int:
    """How many of `needles` (single bytes) `buffer[start:stop]` holds, a slice at a time."""
    total = 0
    for at in range(start, stop, SLICE_CHARS):
        piece = buffer[at : min(at + SLICE_CHARS, stop)]
        total += sum(piece.count(needle) for needle in needles)
    return total


def count_outside_strings(buffer: bytes | mmap.mmap, size: int, needles: tuple[bytes, ...]) -> int:
    """How many of `needles` (single bytes) `buffer[:size]` holds outside its string literals (a
    literal never closed runs to the end), no step over more than a slice."""
    total = 0
    at = 0
    while at < size:
        opening = buffer.find(b'"', at, size)
        total += count_in_slices(buffer, at, size if opening < 0 else opening, needles)
        end = None if opening < 0 else _literal_end(_UTF8, buffer, opening, size)
        if end is None:
            break
        at = end
    return total


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


# A body the literal scan reads: text, or UTF-8 bytes (an anonymous `mmap` of a big reply).
_Body = str | bytes | mmap.mmap


def _long_literals(syntax: _Syntax[AnyStr], body: _Body, size: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each string literal longer than `SLICE_CHARS` in `body[:size]`, found with
    no regex running over more than a slice (one over a 14 MB literal held the GIL ~140 ms).
    Stops at a literal never closed: `json.loads` then says what is wrong with the body."""
    at = 0
    while (opening := body.find(syntax.quote, at, size)) >= 0:  # type: ignore[arg-type]
        end = _literal_end(syntax, body, opening, size)
        if end is None:
            return
        if end - opening > SLICE_CHARS:
            yield opening, end
        at = end


def _literal_end(syntax: _Syntax[AnyStr], body: _Body, opening: int, size: int) -> int | None:
    """The end of the string literal opened at `opening`, found a slice at a time; None if the
    body ends first."""
    at = opening + 1
    while True:
        match = syntax.content.match(body, at, min(at + SLICE_CHARS, size))  # type: ignore[arg-type]
        assert match is not None  # the pattern matches the empty string
        if match.end() < size and body[match.end() : match.end() + 1] == syntax.quote:
            return match.end() + 1
        if match.end() == at or match.end() >= size:
            return None  # a lone backslash at the end, or no closing quote
        at = match.end()


def _parse_string(syntax: _Syntax[AnyStr], body: _Body, start: int, end: int) -> Iterator[str]:
    """The slices of the string whose literal's content is `body[start:end]`, parsed one by one.

    Raises:
        ValueError: the literal is not a JSON string; UnicodeDecodeError: not UTF-8.
    """
    at = start
    while at < end:
        cut = _safe_cut(syntax, body, at, at + SLICE_CHARS, end) if end - at > SLICE_CHARS else end
        piece = body[at:cut]
        yield json.loads(f'"{piece if isinstance(piece, str) else piece.decode("utf-8")}"')
        at = cut


def _safe_cut(syntax: _Syntax[AnyStr], body: _Body, floor: int, cut: int, end: int) -> int:
    """A cut after `floor`, at or before `cut` when it can (else the first one after it, at most
    `end`), that splits no escape, surrogate pair or UTF-8 character: right before a backslash
    that starts an escape (one not preceded by a backslash, nor by the first half of a pair), or
    anywhere in a slice without any backslash (on a character's first byte)."""
    backslash = body.rfind(syntax.backslash, floor, cut)  # type: ignore[arg-type]
    if backslash < 0:
        while syntax.utf8 and cut > floor + 1 and body[cut : cut + 1][0] & 0xC0 == 0x80:  # type: ignore[operator]
            cut -= 1  # a continuation byte: the character starts before it
        return cut
    while backslash > floor:
        while backslash > floor and body[backslash - 1 : backslash] == syntax.backslash:
            backslash -= 1  # the start of the run: an escape starts there
        if backslash > floor and not _after_high_surrogate(syntax, body, floor, backslash):
            return backslash
        backslash = body.rfind(syntax.backslash, floor, backslash)  # type: ignore[arg-type]
    # a slice of nothing but escapes: the first cut after it
    after = body.find(syntax.backslash, cut + 1, end)  # type: ignore[arg-type]
    while after > 0 and (
        body[after - 1 : after] == syntax.backslash or _after_high_surrogate(syntax, body, floor, after)
    ):
        after = body.find(syntax.backslash, after + 1, end)  # type: ignore[arg-type]
    return after if after > 0 else end


def _after_high_surrogate(syntax: _Syntax[AnyStr], body: _Body, floor: int, at: int) -> bool:
    return syntax.high_surrogate_escape.search(body, max(floor, at - 6), at) is not None  # type: ignore[arg-type]


def _put_back(value: object, long_strings: dict[str, str | LongText]) -> object:
    """`value` with each placeholder string replaced by the long string it stands for (a key by a
    whole `str`: a dict key is a `str`), at any depth (`deep_json.rewritten`)."""

    def keys_put_back(node: dict[str, object]) -> dict[str, object]:
        if not any(key in long_strings for key in node):
            return node
        return {str(long_strings.get(key, key)): item for key, item in node.items()}

    return rewritten(value, str, lambda text: long_strings.get(text, text), keys_put_back)


def dumps_in_slices(value: object) -> str:
    """`json.dumps(value, ensure_ascii=False, allow_nan=False)`, its strings longer than
    `SLICE_CHARS` characters and its lists longer than `SLICE_ITEMS` written a slice at a time.

    Raises:
        ValueError: `value` holds NaN or an infinity.
        TypeError: it holds a value JSON cannot represent.
    """
    return "".join(_written_parts(value))


def dumps_long(value: object) -> str | LongText:
    """`dumps_in_slices(value)` never joined: a `LongText` of its parts when `value` holds a long
    string or list (a 33 MB answer joined held the GIL ~100 ms), else the one `str`.

    Raises:
        ValueError, TypeError: as `dumps_in_slices`.
    """
    parts = _written_parts(value)
    return parts[0] if len(parts) == 1 else LongText(parts)


def joined_in_slices(lines: Iterable[str], separator: str = "\n") -> str | LongText:
    """`separator.join(lines)`: one `str` when no longer than a slice, else a `LongText` of slices
    of about `SLICE_CHARS` each (no join of the whole)."""
    slices: list[str] = []
    batch: list[str] = []
    size = 0
    for line in lines:
        batch.append(line)
        size += len(line) + len(separator)
        if size >= SLICE_CHARS:
            slices.append(separator.join(batch) + separator)
            batch, size = [], 0
    if not slices:
        return separator.join(batch)
    if batch:
        slices.append(separator.join(batch))
    else:
        slices[-1] = slices[-1][: -len(separator)]
    return LongText(slices)


def whole_value(value: object) -> object:
    """`value` with every `LongText` joined into its `str`, at any depth: for a reader of whole
    strings (the MCP SDK, a renderer). `value` itself when it holds none."""
    return rewritten(value, LongText, str)


def dumps_chunks(value: object) -> list[bytes]:
    """`dumps_in_slices(value)` as UTF-8, in chunks of about `SLICE_CHARS` bytes or more: the
    pieces of a response body, which no step joins (a 70 MB join held the GIL ~200 ms).

    Raises:
        ValueError, TypeError: as `dumps_in_slices`.
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
    """The JSON text of `value` in parts, none of them longer than about a slice.

    Any depth: a value nested deeper than `_take_out`'s frames (~500 levels) or `json`'s encoder
    (~1000) reach is written again by `_written_deep`, with a stack of its own.
    """
    try:
        return _written_whole(value)
    except RecursionError:
        return _written_deep(value)


def _written_whole(value: object) -> list[str]:
    """`_written_parts(value)`: the skeleton through `json` at once, its long parts in slices."""
    nonce = os.urandom(8).hex()
    taken: dict[str, str | LongText | list[object]] = {}
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


# What `_written_deep` puts after a container's last child: its closing bracket and nothing more.
_NOTHING: Final = object()


def _written_deep(value: object) -> list[str]:
    """`_written_parts(value)` without recursion: an iterator of (text to write, child to write
    after it) per container still open, on a list. The same text, in more and smaller parts.

    Raises:
        ValueError: `value` holds NaN or an infinity, or contains itself (as `json.dumps` says).
        TypeError: it holds a value JSON cannot represent.
    """
    parts: list[str] = []
    stack: list[Iterator[tuple[str, object]]] = [iter((("", value),))]
    open_ids: dict[int, None] = {}  # the containers on the stack (above the first frame), in order
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if open_ids:
                open_ids.popitem()
            continue
        before, child = step
        parts.append(before)
        if child is _NOTHING:
            continue
        opened = _opened(child)
        if opened is None:
            parts += _written_leaf(child)
            continue
        if id(child) in open_ids:
            raise ValueError("Circular reference detected")
        open_ids[id(child)] = None
        parts.append(opened[0])
        stack.append(opened[1])
    return [part for part in parts if part]


def _opened(value: object) -> tuple[str, Iterator[tuple[str, object]]] | None:
    """A non-empty container's opening bracket and its children, each after the text `json.dumps`
    writes before it, then its closing bracket; None for a leaf (an empty container is one)."""
    if isinstance(value, dict) and value:
        pairs = enumerate(value.items())
        members = ((f"{', ' * bool(n)}{_written_key(key)}: ", item) for n, (key, item) in pairs)
        return "{", itertools.chain(members, (("}", _NOTHING),))
    if isinstance(value, list | tuple) and value:
        items = ((", " * bool(n), item) for n, item in enumerate(value))
        return "[", itertools.chain(items, (("]", _NOTHING),))
    return None


def _written_key(key: object) -> str:
    """A dict key as `json.dumps` writes it: numbers, booleans and null as strings, others refused."""
    return json.dumps({key: None}, ensure_ascii=False, allow_nan=False)[1 : -len(": null}")]


def _written_leaf(value: object) -> list[str]:
    if isinstance(value, LongText) or (isinstance(value, str) and len(value) > SLICE_CHARS):
        return _written_in_slices(value)
    return [json.dumps(value, ensure_ascii=False, allow_nan=False)]


def _written_in_slices(value: str | LongText | list[object]) -> list[str]:
    if isinstance(value, LongText):
        return ['"', *(json.dumps(piece, ensure_ascii=False)[1:-1] for piece in value.slices), '"']
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


def _take_out(value: object, taken: dict[str, str | LongText | list[object]], nonce: str) -> object:
    """`value` with each string longer than a slice, each `LongText`, and each list longer than
    `SLICE_ITEMS`, replaced by a placeholder (in walk order, the order `json.dumps` writes them)."""
    if isinstance(value, LongText):
        pass
    elif isinstance(value, str):
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
