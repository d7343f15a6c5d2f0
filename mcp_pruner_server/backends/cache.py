"""A small TTL + LRU cache for remote pruning answers (docs/tools.md#pruning-backends).

Used from the event loop only (no lock): backends call it between awaits.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class TtlCache(Generic[K, V]):
    """At most `max_items` values, each valid for `ttl_s` after it was put."""

    def __init__(self, ttl_s: float, max_items: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._ttl_s = ttl_s
        self._max_items = max_items
        self._clock = clock
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The live value under `key` (refreshing its recency), or None."""
        found = self._items.get(key)
        if found is None:
            return None
        expires_at, value = found
        if self._clock() >= expires_at:
            del self._items[key]
            return None
        self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items.pop(key, None)
        while len(self._items) >= self._max_items:
            self._items.popitem(last=False)
        self._items[key] = (self._clock() + self._ttl_s, value)

    def __len__(self) -> int:
        return len(self._items)
