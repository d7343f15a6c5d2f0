"""Log lines that all begin with the name of their source: the messages without it.

`docker compose logs` / `up` put the service in front of every line (`api-1  | `), `kubectl logs
--prefix` the pod and container (`[pod/api-7c9/app] `), monorepo runners the package and task
(`web:build: `, `@acme/ui:test: `). As a time stamp does, such a prefix hides what a line starts
with from every rule that reads it. The engine reads the lines without it and renders them as
given; the source's name is then no term of the line (an error line is kept whatever service
wrote it; a question naming a service finds it in the lines that name it themselves).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Each kind of prefix, with the one blank after it (the message's own indentation stays).
_PREFIXES = (
    # docker compose: `api-1  | `, `db_1 | ` (its replica number: a table's `alice | 30` is no source)
    re.compile(r"[\w.-]+[-_]\d+ +\| ?"),
    re.compile(r"\[pod/[\w.-]+/[\w.-]+\] "),  # kubectl logs --prefix
    re.compile(r"@?[\w./-]+:[A-Za-z][\w-]*: "),  # turbo, lerna, nx: `web:build: `, `@acme/ui:test: `
)
# As for time stamps: enough lines, most of them (a traceback's lines may come without).
MIN_PREFIXED_LINES = 5
MIN_PREFIXED_SHARE = 0.6
HEAD_LINES = 20


def without_sources(lines: Sequence[str]) -> list[str] | None:
    """The lines with their source prefix cut, if most lines have one of a kind; else None."""
    head = [line for line in lines[:HEAD_LINES] if line.strip()]
    if len(head) < MIN_PREFIXED_LINES:
        return None
    prefix = next((p for p in _PREFIXES if sum(1 for line in head if p.match(line)) > len(head) / 2), None)
    if prefix is None:
        return None
    out: list[str] = []
    prefixed = non_blank = 0
    for line in lines:
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
