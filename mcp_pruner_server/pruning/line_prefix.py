"""A prefix a tool put before most lines of a text (a time stamp, a service's name): cut it."""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import CHECK_EVERY, Deadline

# Lines in a row a prefix must begin, and the share of non-blank lines (a traceback's or a
# multi-line message's lines carry none).
MIN_PREFIXED_LINES = 5
MIN_PREFIXED_SHARE = 0.6
# Lines looked at before deciding: a text whose head has no prefix costs a few matches.
HEAD_LINES = 20


def head_mostly_matches(lines: Sequence[str], prefix: re.Pattern[str]) -> bool:
    """Whether `prefix` begins most of the first non-blank lines (and there are enough of them)."""
    head = [line for line in lines[:HEAD_LINES] if line.strip()]
    return len(head) >= MIN_PREFIXED_LINES and sum(1 for line in head if prefix.match(line)) > len(head) / 2


def cut_prefix(lines: Sequence[str], prefix: re.Pattern[str], deadline: Deadline) -> list[str] | None:
    """The lines with `prefix` cut where it begins them, if it begins most of them; else None.
    (`prefix` matches at least one character: a line it begins is a new string.)

    Raises:
        EngineTimeout: `deadline` passed (a match a line: ~0.6 s on a 50 MB log).
    """
    match = prefix.match
    out: list[str] = []
    prefixed = non_blank = 0
    # a comprehension and C-level counts a slice of lines: a loop with a statement a line took
    # twice as long (1.2 s of a 50 MB log's 3 s through `jeeves prune`)
    for start in range(0, len(lines), CHECK_EVERY):
        deadline.check()
        chunk = lines[start : start + CHECK_EVERY]
        cut = [line if (m := match(line)) is None else line[m.end() :] for line in chunk]
        prefixed += sum(map(operator.is_not, cut, chunk))
        non_blank += sum(map(bool, map(str.strip, chunk)))
        out.extend(cut)
    if prefixed < MIN_PREFIXED_LINES or prefixed < MIN_PREFIXED_SHARE * non_blank:
        return None
    return out
