"""The lines the engine reads when they differ from the lines given: what a terminal or a tool put
around each line set aside. Structure and scoring read these; the result renders the lines given.

In order: colours and `\\r` redraws as a terminal shows them (`terminal.py`), then `nl -ba` /
`cat -n` numbers (`numbered.py`) or else time stamps (`timestamps.py`). Each check bails out on
the first lines of an ordinary text.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_pruner_server.pruning.numbered import without_line_numbers
from mcp_pruner_server.pruning.terminal import as_shown
from mcp_pruner_server.pruning.timestamps import without_timestamps


def lines_to_read(text: str, lines: Sequence[str]) -> list[str] | None:
    """`lines` (those of `text`) as the engine reads them, or None when that is as given."""
    shown = as_shown(text, lines)
    base = lines if shown is None else shown
    numbered = without_line_numbers(base)
    if numbered is not None:
        return numbered
    unstamped = without_timestamps(base)
    return unstamped if unstamped is not None else shown
