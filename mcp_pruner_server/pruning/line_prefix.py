"""A prefix a tool put before most lines of a text (a time stamp, a service's name): cut it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import Deadline

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

    Raises:
        EngineTimeout: `deadline` passed (a match a line: ~1.3 s on a 60 MB log).
    """
    out: list[str] = []
    prefixed = non_blank = 0
    for line in deadline.paced(lines):
        m = prefix.match(line)
        non_blank += bool(line.strip())
        if m is None:
            out.append(line)
        else:
            prefixed += 1
            out.append(line[m.end() :])
    if prefixed < MIN_PREFIXED_LINES or prefixed < MIN_PREFIXED_SHARE * non_blank:
        return None
    return out
