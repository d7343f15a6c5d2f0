"""Rules shared by every source type: protected regions, diffs, indentation."""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.types import NO_PRUNE_BEGIN, NO_PRUNE_END

_DIFF_FILE = re.compile(r"^(diff --git |Index: |--- \S|\+\+\+ \S)")
DIFF_HUNK = re.compile(r"^@@ -\d+(,\d+)? \+\d+(,\d+)? @@")
_DIFF_FILE_FIRST_CHARS = "dI-+"
_DIFF_HUNK_FIRST_CHARS = "@"
# A hunk's lines: context, added, removed, `\ No newline at end of file` (and a context line
# whose space a tool trimmed).
HUNK_LINE_FIRST_CHARS = frozenset(" +-\\") | {""}
# The share of a text's non-blank lines a diff's hunks must make for the text to be a diff.
DIFF_SHARE = 0.5
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
    """True for a unified diff (a hunk header after a file header), pruned by hunks (`diffs.py`).

    The diff must be most of the text (`DIFF_SHARE` of its non-blank lines in hunks): a log that
    shows a small one (CI's `git diff --exit-code`, a golden test's `diff -u`) is a log, pruned as
    one. Only lines starting as a header can start a hunk (`index` finds them by their first
    character); each line is read at most once.
    """
    index = index or LineIndex("\n".join(lines), lines)
    # Hunk headers first: few texts have one, while a log's lines all start with `I` (`INFO`),
    # which a file header's `Index:` also does (a 700k-line log: 0.5 s of CPU saved).
    hunk_heads = [i for i in index.lines_starting_with(_DIFF_HUNK_FIRST_CHARS) if DIFF_HUNK.match(lines[i])]
    if not hunk_heads:
        return False
    files = (i for i in index.lines_starting_with(_DIFF_FILE_FIRST_CHARS) if _DIFF_FILE.match(lines[i]))
    first_file = next(files, None)
    if first_file is None:
        return False
    hunks = [i for i in hunk_heads if i > first_file]
    if not hunks:
        return False
    in_hunks = 0
    for start, end in zip(hunks, [*hunks[1:], len(lines)], strict=True):
        i = start + 1
        while i < end and lines[i][:1] in HUNK_LINE_FIRST_CHARS:
            i += 1
        in_hunks += i - start
    non_blank = sum(1 for line in lines if line.strip())
    return in_hunks >= DIFF_SHARE * non_blank
