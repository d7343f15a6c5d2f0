"""Whole-text searches mapped back to line numbers: the engine's way around per-line loops.

On a 1M-line log a Python loop that runs a regex on every line costs seconds (the `_ERROR`
search alone was 6 µs a line). `str.find` over the whole text runs at memory speed, so the
structure passes ask this index which lines *may* match (a superset, found with `find`) and run
their exact per-line rule on those lines only: the same result, at a cost that follows the
matches, not the lines.
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re
from array import array
from collections.abc import Iterable, Sequence

from mcp_pruner_server.pruning.deadline import CHECK_EVERY, NO_DEADLINE, Deadline

# The text is lowered this many characters at a time for case-insensitive finds: the copy stays
# small (an 80 MB log is never lowered whole; 4 MiB chunks were 1.1x a 7 MB input in copies),
# and a chunk is still long enough for `find` (1 and 4 MiB measured the same speed).
LOWER_CHUNK_CHARS = 1 << 20
# Stands for the first character of an empty line in `firsts` (a line never holds a newline).
EMPTY_LINE_MARK = "\n"


class LineIndex:
    """Line start offsets of `text` (= `"\\n".join(lines)`) and finds that answer in line numbers."""

    def __init__(self, text: str, lines: Sequence[str]) -> None:
        self.text = text
        self.n = len(lines)
        # starts[i]: offset of line i, the lengths before it plus one newline each (C-level loops);
        # machine integers: on 1M lines a list of ints costs 36 MB, this array 8
        with_newline = map(operator.add, map(len, lines), itertools.repeat(1))
        self.starts = array(
            "q", itertools.chain((0,), itertools.islice(itertools.accumulate(with_newline), self.n - 1))
        )
        self._found: dict[tuple[str, bool], set[int]] = {}  # (needle, ignore_case) -> its lines
        # firsts[i]: the first character of line i, so "lines starting with X" is one str search
        self.firsts = "".join([line[:1] or EMPTY_LINE_MARK for line in lines])

    def line_of(self, offset: int) -> int:
        """The 0-based line holding character `offset`."""
        return bisect.bisect_right(self.starts, offset) - 1

    def lines_starting_with(self, chars: str) -> list[int]:
        """Sorted lines whose first character is one of `chars` (EMPTY_LINE_MARK: empty lines)."""
        found: list[int] = []
        for char in chars:
            at = self.firsts.find(char)
            while at >= 0:
                found.append(at)
                at = self.firsts.find(char, at + 1)
        return sorted(set(found))

    def lines_containing(
        self, needles: Iterable[str], *, ignore_case: bool, deadline: Deadline = NO_DEADLINE
    ) -> list[int]:
        """Sorted lines holding at least one of `needles` (lower-case when `ignore_case`).

        Case-insensitive finds lower an ASCII chunk and `find` in it; a chunk with other
        characters (whose lower case may change its length) is searched with an `re.I` pattern.
        The clock is looked at before each chunk (a 1 MiB chunk is searched in about a ms).

        Raises:
            EngineTimeout: `deadline` passed.
        """
        distinct = {needle for needle in needles if needle}
        # a line holding `error` holds `err`: only the needles holding no other one are searched
        wanted = sorted(n for n in distinct if not any(o != n and o in n for o in distinct))
        if not self.n:
            return []
        todo = [n for n in wanted if (n, ignore_case) not in self._found]
        if todo:  # each needle is searched once per text (the rules share some: `fail`, `exception`)
            for needle, offsets in self._search(todo, ignore_case, deadline).items():
                holding = {self.line_of(offset) for offset in deadline.paced(offsets)}
                self._found[(needle, ignore_case)] = holding
        return sorted(set().union(*(self._found[(n, ignore_case)] for n in wanted)))

    def _search(self, needles: list[str], ignore_case: bool, deadline: Deadline) -> dict[str, list[int]]:
        """Per needle, the offset of its first occurrence in each line holding it."""
        found: dict[str, list[int]] = {needle: [] for needle in needles}
        if not ignore_case:
            for needle in needles:
                deadline.check()
                found[needle] = self._finds(self.text, needle, 0, deadline)
            return found
        overlap = max(map(len, needles)) - 1
        for start in range(0, len(self.text), LOWER_CHUNK_CHARS):
            deadline.check()
            chunk = self.text[start : start + LOWER_CHUNK_CHARS + overlap]
            lowered = chunk.lower() if chunk.isascii() else None
            for needle in needles:
                if lowered is not None:
                    found[needle].extend(self._finds(lowered, needle, start, deadline))
                else:  # lower case may change a length here: the regex engine's own case folding
                    pattern = re.compile(re.escape(needle), re.IGNORECASE)
                    found[needle].extend(start + m.start() for m in pattern.finditer(chunk))
        return found

    def _finds(self, haystack: str, needle: str, base: int, deadline: Deadline) -> list[int]:
        """Offsets (plus `base`) of the first `needle` of every line of `haystack` holding one.

        Raises:
            EngineTimeout: `deadline` passed (a needle in each of 200k lines is a loop of 200k).
        """
        out: list[int] = []
        at = haystack.find(needle)
        while at >= 0:
            if len(out) % CHECK_EVERY == 0:
                deadline.check()
            out.append(base + at)
            end_of_line = haystack.find("\n", at + len(needle))
            if end_of_line < 0:
                break
            at = haystack.find(needle, end_of_line + 1)
        return out
