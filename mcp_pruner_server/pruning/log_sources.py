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

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.line_prefix import cut_prefix, head_mostly_matches

# Each kind of prefix, with the one blank after it (the message's own indentation stays).
_PREFIXES = (
    # docker compose: `api-1  | `, `db_1 | ` (its replica number: a table's `alice | 30` is no source)
    re.compile(r"[\w.-]+[-_]\d+ +\| ?"),
    re.compile(r"\[pod/[\w.-]+/[\w.-]+\] "),  # kubectl logs --prefix
    re.compile(r"@?[\w./-]+:[A-Za-z][\w-]*: "),  # turbo, lerna, nx: `web:build: `, `@acme/ui:test: `
)


def without_sources(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[str] | None:
    """The lines with their source prefix cut, if most lines have one of a kind; else None.

    Raises:
        EngineTimeout: `deadline` passed while cutting.
    """
    prefix = next((p for p in _PREFIXES if head_mostly_matches(lines, p)), None)
    return None if prefix is None else cut_prefix(lines, prefix, deadline)
