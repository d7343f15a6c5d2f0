"""The in-memory recovery store behind `recover_text` (docs/tools.md#recover_text,
#recovery-store, http.md#json-rpc-error-codes).

Every text the service prunes is stored whole under its `prune_id`, so any line range of the
original can be fetched back until the entry expires. The gateway stores the masked middles
of huge observations in the same store, so `put` takes any text under any id.

Bounds, so a long run cannot grow memory without limit:

- TTL (`MCP_PRUNER_PRUNE_ID_TTL_S`), counted from `put`; reading an entry does not extend it.
- at most `max_entries` entries and `max_bytes` UTF-8 bytes in total; beyond either, the
  least recently used entries (by `put` or `recover`) are evicted first.
- a single text larger than `max_bytes` is NOT stored (`put` returns False): evicting every
  other entry to hold one oversized text would break everybody else's recovery, and storing
  it anyway would break the bound. The caller reports `recovery_unavailable`.

Lines are numbered like the engine numbers them: 1-based, split on `\\n` only (a `\\r` stays
in its line). Lines of a range, and consecutive ranges, are joined with `\\n`, so ranges that
cover a text in order reproduce it byte for byte.

Thread-safe: the server calls it from worker threads and the event loop alike.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mcp_pruner_server.errors import InvalidRangeError, PruneIdNotFoundError
from mcp_pruner_server.json_slices import LongText, joined_in_slices
from mcp_pruner_server.pruning.text import split_lines, utf8_size
from mcp_pruner_server.pruning.types import LINE_PREFIX_TEMPLATE

# An agent asks for a handful of pruned blocks at a time; thousands means a runaway client.
MAX_RECOVER_RANGES = 1000
# One answer may repeat the same range many times; cap what a single call can make us build.
MAX_RECOVER_OUTPUT_CHARS = 32 * 1024 * 1024

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def new_prune_id(prefix: str = "prn_") -> str:
    """A fresh id: `prefix` + 26 Crockford base-32 chars (48-bit ms time, 80 random bits).

    Ids sort by creation time (to the millisecond), like ULIDs.
    """
    value = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    chars = [_CROCKFORD[(value >> shift) & 31] for shift in range(125, -1, -5)]
    return prefix + "".join(chars)


@dataclass(frozen=True)
class LineRange:
    """An inclusive 1-based range of original line numbers."""

    start_line: int
    end_line: int

    def to_dict(self) -> dict[str, int]:
        return {"start_line": self.start_line, "end_line": self.end_line}


@dataclass(frozen=True)
class RecoveredText:
    """The `recover_text` result (docs/tools.md#recover_text); `ranges` are the clamped ranges served."""

    prune_id: str
    raw_text: str | LongText  # a long answer in slices, never joined (`json_slices.py`)
    ranges: tuple[LineRange, ...]
    total_lines: int

    def to_dict(self) -> dict[str, object]:
        return {
            "raw_text": self.raw_text,
            "metadata": {
                "prune_id": self.prune_id,
                "ranges": [r.to_dict() for r in self.ranges],
                "line_numbering": "original",
                "total_lines": self.total_lines,
            },
        }


@dataclass(frozen=True)
class StoreStats:
    entries: int
    bytes: int
    evictions: int
    expirations: int


@dataclass(frozen=True)
class _Entry:
    text: str
    size: int
    expires_at: float


class RecoveryStore:
    """Texts by id, bounded by TTL, entry count and total bytes (LRU eviction)."""

    def __init__(
        self,
        ttl_s: float,
        max_entries: int,
        max_bytes: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Raises:
        ValueError: if a bound is not positive.
        """
        if ttl_s <= 0 or max_entries <= 0 or max_bytes <= 0:
            raise ValueError("ttl_s, max_entries and max_bytes must be positive")
        self._ttl_s = ttl_s
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._clock = clock
        self._lock = threading.Lock()
        # Recency order (front = least recently used) for eviction.
        self._lru: OrderedDict[str, _Entry] = OrderedDict()
        # Insertion order == expiry order, because every entry gets the same TTL at `put`.
        self._by_expiry: OrderedDict[str, float] = OrderedDict()
        self._bytes = 0
        self._evictions = 0
        self._expirations = 0

    def put(self, prune_id: str, text: str) -> bool:
        """Store `text` under `prune_id` (replacing any previous text); False if too large."""
        size = utf8_size(text)
        now = self._clock()
        with self._lock:
            self._drop(prune_id)
            self._expire(now)
            if size > self._max_bytes:
                return False
            while self._lru and (len(self._lru) >= self._max_entries or self._bytes + size > self._max_bytes):
                oldest = next(iter(self._lru))
                self._drop(oldest)
                self._evictions += 1
            expires_at = now + self._ttl_s
            self._lru[prune_id] = _Entry(text, size, expires_at)
            self._by_expiry[prune_id] = expires_at
            self._bytes += size
            return True

    @property
    def max_entries(self) -> int:
        return self._max_entries

    @property
    def max_bytes(self) -> int:
        return self._max_bytes

    def get(self, prune_id: str) -> str:
        """The whole stored text.

        Raises:
            PruneIdNotFoundError: if the id is unknown, expired or evicted.
        """
        with self._lock:
            return self._live(prune_id).text

    def recover(
        self, prune_id: str, ranges: Sequence[tuple[int, int]], include_line_numbers: bool
    ) -> RecoveredText:
        """Original lines of `ranges` (1-based, inclusive), in request order.

        `end_line` past the last line is clamped to it. With `include_line_numbers`, each
        line is prefixed `N│ ` with its original number.

        Raises:
            InvalidRangeError: no range, too many ranges, `start_line < 1`, `start_line >
                end_line`, `start_line` past the last line, or an answer too large to build.
            PruneIdNotFoundError: if the id is unknown, expired or evicted.
        """
        _check_shapes(prune_id, ranges)
        with self._lock:
            text = self._live(prune_id).text
        lines = split_lines(text)
        total = len(lines)
        served = _clamp_ranges(prune_id, ranges, total)
        # Measured before anything is built: 1,000 ranges over a whole text used to build
        # millions of numbered lines (1.6 s on the event loop) only to end in this error.
        size = _answer_chars(lines, served, include_line_numbers)
        if size > MAX_RECOVER_OUTPUT_CHARS:
            raise InvalidRangeError(
                prune_id, f"the ranges ask for more than {MAX_RECOVER_OUTPUT_CHARS} chars"
            )

        def selected(r: LineRange) -> list[str]:
            chosen = lines[r.start_line - 1 : r.end_line]
            if include_line_numbers:
                return [
                    LINE_PREFIX_TEMPLATE.format(line_no=r.start_line + i) + s for i, s in enumerate(chosen)
                ]
            return chosen

        # every range holds a line: its lines and the next range's are joined by `\n` alike
        raw_text = joined_in_slices(itertools.chain.from_iterable(map(selected, served)))
        return RecoveredText(prune_id, raw_text, tuple(served), total)

    def stats(self) -> StoreStats:
        with self._lock:
            self._expire(self._clock())
            return StoreStats(len(self._lru), self._bytes, self._evictions, self._expirations)

    def __len__(self) -> int:
        return self.stats().entries

    # -- under the lock ------------------------------------------------------------------

    def _live(self, prune_id: str) -> _Entry:
        entry = self._lru.get(prune_id)
        if entry is None:
            raise PruneIdNotFoundError(prune_id)
        if self._clock() >= entry.expires_at:
            self._drop(prune_id)
            self._expirations += 1
            raise PruneIdNotFoundError(prune_id)
        self._lru.move_to_end(prune_id)
        return entry

    def _expire(self, now: float) -> None:
        while self._by_expiry:
            prune_id, expires_at = next(iter(self._by_expiry.items()))
            if expires_at > now:
                return
            self._drop(prune_id)
            self._expirations += 1

    def _drop(self, prune_id: str) -> None:
        entry = self._lru.pop(prune_id, None)
        if entry is not None:
            self._bytes -= entry.size
            del self._by_expiry[prune_id]


def recover_work(stored_chars: int, ranges: Sequence[tuple[int, int]]) -> int:
    """What a `recover` may cost, in characters handled: every range may span the whole text.

    The caller runs it off the event loop past a threshold; measured on the work, not on the
    stored size (a small text asked for 1,000 times is as much work as a big one asked once).
    """
    return stored_chars * max(1, len(ranges))


def _clamp_ranges(prune_id: str, ranges: Sequence[tuple[int, int]], total: int) -> list[LineRange]:
    served = []
    for index, (start, end) in enumerate(ranges):
        if start > total:
            raise InvalidRangeError(
                prune_id,
                f"start_line {start} is past the last line ({total})",
                index=index,
                start_line=start,
                end_line=end,
                total_lines=total,
            )
        served.append(LineRange(start, min(end, total)))
    return served


def _answer_chars(lines: Sequence[str], served: Sequence[LineRange], include_line_numbers: bool) -> int:
    """The exact length of the answer `recover` would build, in O(lines + ranges)."""
    before = list(itertools.accumulate(map(len, lines), initial=0))  # chars before line i (0-based)
    size = len(served) - 1  # the "\n" between ranges
    prefix_extra = len(LINE_PREFIX_TEMPLATE.format(line_no=""))
    for r in served:
        count = r.end_line - r.start_line + 1
        size += before[r.end_line] - before[r.start_line - 1] + count - 1
        if include_line_numbers:
            size += _digits_between(r.start_line, r.end_line) + prefix_extra * count
    return size


def _digits_between(first: int, last: int) -> int:
    """The decimal digits of every integer in first..last (both >= 1), without listing them."""
    digits, width, low = 0, 1, 1
    while low <= last:
        high = low * 10 - 1
        span = min(high, last) - max(low, first) + 1
        if span > 0:
            digits += span * width
        width, low = width + 1, low * 10
    return digits


def _check_shapes(prune_id: str, ranges: Sequence[tuple[int, int]]) -> None:
    if not ranges:
        raise InvalidRangeError(prune_id, "ranges must hold at least one range")
    if len(ranges) > MAX_RECOVER_RANGES:
        raise InvalidRangeError(prune_id, f"at most {MAX_RECOVER_RANGES} ranges per call")
    for index, (start, end) in enumerate(ranges):
        if start < 1:
            raise InvalidRangeError(
                prune_id, "start_line must be >= 1", index=index, start_line=start, end_line=end
            )
        if start > end:
            raise InvalidRangeError(
                prune_id, "start_line must be <= end_line", index=index, start_line=start, end_line=end
            )
