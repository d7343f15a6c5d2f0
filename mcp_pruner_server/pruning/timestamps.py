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

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.line_prefix import cut_prefix, head_mostly_matches

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


def without_timestamps(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[str] | None:
    """The lines with their leading stamps cut, if most lines have one; else None.

    Raises:
        EngineTimeout: `deadline` passed while cutting.
    """
    return cut_prefix(lines, _STAMP, deadline) if head_mostly_matches(lines, _STAMP) else None
