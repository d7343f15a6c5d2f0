"""Log lines that all begin with a time stamp: the messages without it.

CI runners (GitHub Actions' raw logs), `docker logs -t`, `kubectl logs --timestamps`, syslog and
journald, `dmesg` and most logging set-ups stamp every line. The stamp hides what a log line
starts with — `Traceback`, `E   `, `FAILED`, `error[E0308]`, `src/x.go:16:9:` — from every rule
that reads a line's start, and its digits become terms. The engine reads the lines without their
stamps for structure and scoring, and renders the lines as given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A stamp at a line's start and the one blank after it (the message's own indentation stays); one
# pattern, tried once per line: ISO 8601 with a date (`2026-11-24T16:00:05.1234567Z`,
# `2026-11-24 16:00:05,123`, `+02:00`; Go's `2026/11/24 16:00:05`), a bare time (`16:00:05.123`),
# either in brackets; dmesg's seconds since boot (`[   12.345678]`);
# syslog's `Nov 24 16:00:05 host process[42]:`.
_STAMP = re.compile(
    r"(?:\[?(?:\d{4}([-/])\d\d\1\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?"
    r"|\[\s*\d+\.\d+\]"
    r"|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [^\s:]+:)"
    r"(?: |\t|$)"
)
# Lines in a row a stamp must begin, and the share of non-blank lines (a traceback's or a
# multi-line message's lines carry none).
MIN_STAMPED_LINES = 5
MIN_STAMPED_SHARE = 0.6
# Lines looked at before deciding: a text whose head is unstamped costs a few matches.
HEAD_LINES = 20


def without_timestamps(lines: Sequence[str]) -> list[str] | None:
    """The lines with their leading stamps cut, if most lines have one; else None."""
    head = [line for line in lines[:HEAD_LINES] if line.strip()]
    if len(head) < MIN_STAMPED_LINES or sum(1 for line in head if _STAMP.match(line)) < len(head) / 2:
        return None
    out: list[str] = []
    stamped = non_blank = 0
    for line in lines:
        m = _STAMP.match(line)
        if line.strip():
            non_blank += 1
        if m is None:
            out.append(line)
        else:
            stamped += 1
            out.append(line[m.end() :])
    if stamped < MIN_STAMPED_LINES or stamped < MIN_STAMPED_SHARE * non_blank:
        return None
    return out
