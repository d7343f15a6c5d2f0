"""The lines the engine reads when they differ from the lines given: what a terminal or a tool put
around each line set aside, data blobs cut short. Structure and scoring read these; the result
renders the lines given.

In order: colours and `\\r` redraws as a terminal shows them (`terminal.py`), then `nl -ba` /
`cat -n` numbers (`numbered.py`) or else time stamps (`timestamps.py`), and base64 or hex blobs
cut to a word (`blobs.py`). Each check bails out on the first lines of an ordinary text (the
blobs' on a line's length).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.blobs import blobs_cut_short
from mcp_pruner_server.pruning.numbered import without_line_numbers
from mcp_pruner_server.pruning.terminal import as_shown
from mcp_pruner_server.pruning.timestamps import without_timestamps


def lines_to_read(text: str, lines: Sequence[str]) -> list[str] | None:
    """`lines` (those of `text`) as the engine reads them, or None when that is as given."""
    shown = as_shown(text, lines)
    base = lines if shown is None else shown
    unprefixed = without_line_numbers(base)
    if unprefixed is None:
        unprefixed = without_timestamps(base)
    read = unprefixed if unprefixed is not None else shown
    short = blobs_cut_short(read if read is not None else lines)
    return short if short is not None else read
