"""The lines the engine reads when they differ from the lines given: what a terminal or a tool put
around each line set aside, data blobs cut short. Structure and scoring read these; the result
renders the lines given.

In order: colours and `\\r` redraws as a terminal shows them (`terminal.py`), then `nl -ba` /
`cat -n` numbers (`numbered.py`) or else the name of each line's source (`log_sources.py`) and
time stamps (`timestamps.py`), then base64 or hex blobs cut to a word (`blobs.py`). Each check
bails out on the first lines of an ordinary text (the blobs' on a line's length).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.blobs import blobs_cut_short
from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.log_sources import without_sources
from mcp_pruner_server.pruning.numbered import without_line_numbers
from mcp_pruner_server.pruning.terminal import as_shown
from mcp_pruner_server.pruning.timestamps import without_timestamps


def lines_to_read(
    text: str, lines: Sequence[str], blobs: frozenset[int], *, deadline: Deadline = NO_DEADLINE
) -> list[str] | None:
    """`lines` (those of `text`, whose data blobs are `blobs`) as the engine reads them, or None
    when that is as given.

    Raises:
        EngineTimeout: `deadline` passed while cutting a prefix off every line.
    """
    read = as_shown(text, lines)
    unprefixed = _without_prefix(read if read is not None else lines, deadline)
    if unprefixed is not None:
        read = unprefixed
    short = blobs_cut_short(read if read is not None else lines, blobs)
    return short if short is not None else read


def _without_prefix(lines: Sequence[str], deadline: Deadline) -> list[str] | None:
    """The lines without `nl -ba` numbers, or else without their source's name and / or a time
    stamp (`api-1  | 2026-11-24T16:00:05Z msg` has both)."""
    numbered = without_line_numbers(lines)
    if numbered is not None:
        return numbered
    sourced = without_sources(lines, deadline=deadline)
    unstamped = without_timestamps(sourced if sourced is not None else lines, deadline=deadline)
    return unstamped if unstamped is not None else sourced
