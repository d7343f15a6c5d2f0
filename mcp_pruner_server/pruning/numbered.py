"""Lines as `nl -ba` or `cat -n` print them: the code without the line-number prefixes.

An agent reading a file through the shell often asks for the numbers (`nl -ba f | sed -n
'120,360p'`, `cat -n f`): every line then starts with its number, right-aligned, and a tab.
Parsed as is, such a text is no code at all (tree-sitter fails on every line, the indentation
the heuristics read is the prefix's) and the numbers become terms. The engine reads the lines
without their prefixes for structure and scoring, and renders the lines as given (the numbers
were asked for).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

# `nl -ba` and `cat -n`: the number right-aligned in six columns (wider past 999,999), a tab.
_PREFIX = re.compile(r" *(\d+)\t")


def without_line_numbers(lines: Sequence[str]) -> list[str] | None:
    """The lines with their prefixes cut, if every line has one and the numbers follow each
    other (`12`, `13`, …; a last empty line, the text's final newline, may have none); else None.
    Bails out at the first line that does not fit, so ordinary text costs one match.
    """
    last = len(lines) - 1 if len(lines) > 1 and lines[-1] == "" else len(lines)
    out: list[str] = []
    expected = -1
    for line in itertools.islice(lines, last):  # no copy: ordinary text stops at its first line
        m = _PREFIX.match(line)
        if m is None:
            return None
        number = int(m.group(1))
        if expected >= 0 and number != expected:
            return None
        expected = number + 1
        out.append(line[m.end() :])
    if not out:
        return None
    out.extend(itertools.islice(lines, last, None))
    return out
