"""The engine's cooperative clock: the costly loops ask it, every so many items, if time is up.

Checking only between stages let one stage on a 3 MB log run ~0.7 s past a 50 ms
`timeout_ms`. The loops over lines (tokenising, matching, the structure passes) now
check as they go; a look at the clock is one call every `CHECK_EVERY` items, so the
engine's normal speed does not move. So do the walks of a parse tree (`structure/syntax.py`):
on 2 MB of one-line functions the walk alone took ~0.5 s, on an error-laden text ~2 s.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from mcp_pruner_server.pruning.errors import EngineTimeout

T = TypeVar("T")

# Items between two looks at the clock. A thousand lines of the costliest loop (tokenising
# 100-character log lines) take ~15 ms here: a timeout is noticed within about that much,
# while the look itself (~100 ns) is lost in the work of a thousand lines.
CHECK_EVERY = 1024


@dataclass(frozen=True)
class Deadline:
    """A point on `clock` after which the engine gives up (`EngineTimeout`)."""

    at: float
    timeout_ms: float
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def after(cls, timeout_ms: float, *, started: float, clock: Callable[[], float]) -> Deadline:
        """The deadline `timeout_ms` after `started` (a reading of `clock`)."""
        return cls(started + timeout_ms / 1000.0, timeout_ms, clock)

    def passed(self) -> bool:
        """Whether the deadline has passed: for a callback that must answer rather than raise."""
        return self.clock() > self.at

    def check(self) -> None:
        """Raises:
        EngineTimeout: the deadline has passed.
        """
        if self.passed():
            raise EngineTimeout(f"pruning exceeded {self.timeout_ms:g} ms")

    def paced(self, items: Iterable[T]) -> Iterator[T]:
        """`items`, with a `check()` before the first and then every `CHECK_EVERY` of them.

        Raises:
            EngineTimeout: the deadline passed while iterating.
        """
        # whole batches: cheaper per item than counting each one (the engine's hot loops run here)
        remaining = iter(items)
        while batch := list(itertools.islice(remaining, CHECK_EVERY)):
            self.check()
            yield from batch

    def paced_each(self, items: Iterable[T]) -> Iterator[T]:
        """`items` as `paced` gives them, but one at a time: for a generator whose next item
        depends on what the loop did with the last (`paced` reads a batch ahead).

        Raises:
            EngineTimeout: the deadline passed while iterating.
        """
        for count, item in enumerate(items):
            if count % CHECK_EVERY == 0:
                self.check()
            yield item

    def drained(self, stack: list[T]) -> Iterator[T]:
        """The items popped off `stack` until it is empty (the loop may push more: a walk of a
        tree), with a `check()` before the first and then every `CHECK_EVERY` of them.

        Raises:
            EngineTimeout: the deadline passed while draining.
        """
        popped = 0
        while stack:
            if popped % CHECK_EVERY == 0:
                self.check()
            popped += 1
            yield stack.pop()


# For callers without a time limit (backends scoring lines, unit tests): never checks the clock.
NO_DEADLINE = Deadline(math.inf, math.inf, clock=lambda: 0.0)
