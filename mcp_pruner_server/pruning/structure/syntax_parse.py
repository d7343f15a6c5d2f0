"""A tree-sitter parse that stops at the engine's deadline, and the blocks of the last parses.

The parse runs in C, where the engine's cooperative clock (`deadline.py`) is never asked: an
odd 2,000-line Julia file took 2.4 s in its parse alone, whatever the `timeout_ms`. Given its
text by a read callback, tree-sitter (0.26.1+) calls a progress callback every hundred or so
parsing steps and stops when it answers True (and the read callback ends the text once the
deadline has passed, for a lexer that never reaches a step); a parse stopped so is the engine's timeout
(`EngineTimeout`: the no-op result with the `timeout` warning, as for any other stage).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Generic, TypeVar

from mcp_pruner_server.pruning.deadline import Deadline

if TYPE_CHECKING:  # imported by the first parse (`syntax.py`), not by the engine's import
    import tree_sitter

# The bytes one call of the read callback hands the parser. The tree keeps the callback to read
# its nodes' text (a definition's name: a few bytes) and the lexer goes back often (Perl's about
# every 10 bytes), each time asking from there: every call copies this much, and more calls cost
# more. With 256, a 900-line file's blocks take 5-9 % longer than parsed from bytes (+0.1-0.3 ms),
# Perl's ~45 % (+0.9 ms); 128 or 512 cost more.
READ_CHUNK_BYTES = 256

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def parse_until(parser: tree_sitter.Parser, source: bytes, deadline: Deadline) -> tree_sitter.Tree:
    """The tree of `source`, unless `deadline` passes while it is parsed.

    Raises:
        EngineTimeout: `deadline` passed during the parse (what was parsed is dropped).
    """
    if math.isinf(deadline.at):  # no time limit: nothing to ask, the plain parse
        return parser.parse(source)

    def read(offset: int, _point: object) -> bytes:
        # Past the deadline the text ends here: some lexers never reach a parsing step, where
        # the progress callback is asked (Elixir's on 64 KiB of `\r` read it 8.5 million
        # times in 137 s), and an end of input stops them.
        return b"" if deadline.passed() else source[offset : offset + READ_CHUNK_BYTES]

    try:
        tree = parser.parse(read, progress_callback=lambda _offset, _has_error: deadline.passed())
    except ValueError:  # "Parsing failed": the progress callback stopped it
        deadline.check()
        raise
    deadline.check()  # a tree of the text up to where the read callback ended it: not the text's
    return tree


class RecentResults(Generic[K, V]):
    """The results of the last `size` computations, by key: an agent reads the same file again
    with another question, and the engine's process serves many requests, from several worker
    threads (hence the lock). A computation that raises (a parse past its deadline) is not kept."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._results: OrderedDict[K, V] = OrderedDict()

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The result kept for `key`, else `compute()`'s, then kept (the oldest is forgotten)."""
        with self._lock:
            if key in self._results:
                self._results.move_to_end(key)
                return self._results[key]
        result = compute()  # outside the lock: two threads parse two texts at once
        with self._lock:
            self._results[key] = result
            self._results.move_to_end(key)
            while len(self._results) > self._size:
                self._results.popitem(last=False)
        return result

    def clear(self) -> None:
        """Forget every result."""
        with self._lock:
            self._results.clear()
