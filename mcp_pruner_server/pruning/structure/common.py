"""Rules shared by every source type: protected regions, diffs, indentation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.types import NO_PRUNE_BEGIN, NO_PRUNE_END

_DIFF_FILE = re.compile(r"^(diff --git |Index: |--- \S|\+\+\+ \S)")
_DIFF_HUNK = re.compile(r"^@@ -\d+(,\d+)? \+\d+(,\d+)? @@")
_DIFF_FILE_FIRST_CHARS = "dI-+"
_DIFF_HUNK_FIRST_CHARS = "@"
# Tabs count as this many columns when comparing indentation (only relative depth matters).
TAB_WIDTH = 8


def indent_of(line: str) -> int:
    """Columns of leading whitespace (tabs expanded)."""
    stripped = line.lstrip(" \t")
    return len(line[: len(line) - len(stripped)].expandtabs(TAB_WIDTH))


def no_prune_lines(lines: Sequence[str]) -> list[int]:
    """0-based indexes inside `⟦NO_PRUNE_BEGIN⟧…⟦NO_PRUNE_END⟧`, both directive lines included.

    An unterminated BEGIN protects everything after it: the safe reading of a directive.
    """
    out: list[int] = []
    begin: int | None = None
    for i, line in enumerate(lines):
        if begin is None and NO_PRUNE_BEGIN in line:
            begin = i
        if begin is not None:
            out.append(i)
            if NO_PRUNE_END in line and (i > begin or line.index(NO_PRUNE_END) > line.index(NO_PRUNE_BEGIN)):
                begin = None
    return out


def looks_like_diff(lines: Sequence[str], index: LineIndex | None = None) -> bool:
    """True for a unified diff (a hunk header after a file header): diffs are never pruned.

    Only lines starting as a header can (`index` finds them by their first character).
    """
    index = index or LineIndex("\n".join(lines), lines)
    files = (i for i in index.lines_starting_with(_DIFF_FILE_FIRST_CHARS) if _DIFF_FILE.match(lines[i]))
    first_file = next(files, None)
    if first_file is None:
        return False
    hunks = index.lines_starting_with(_DIFF_HUNK_FIRST_CHARS)
    return any(i > first_file and _DIFF_HUNK.match(lines[i]) for i in hunks)
