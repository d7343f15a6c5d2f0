"""What a question points at in the text itself: a line by its number, a line by the code it quotes.

Agents say where they are going ("…navigate to line 198", "lines 40-60", "L198", `views.py:198`)
and quote the code they mean (`p.new in sentinels`). Neither is a word to rank units by: the
line is kept, with its neighbourhood, whatever the units' scores (issue 33: the constructor
next to line 198 was kept, line 198 pruned; the one line holding `p.new in sentinels` pruned).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Lines kept either side of a line the question names by number: the statement it is in and
# what the agent will read around it.
LINE_NEIGHBOURHOOD = 5
# A named range longer than this many lines is kept from its start to this length (a question
# saying "lines 1-5000" names the file, not a place in it).
MAX_NAMED_RANGE = 200
# Lines kept either side of a line holding quoted code.
QUOTE_NEIGHBOURHOOD = 2
# Quoted code found on more lines than this points at no line in particular (`self`, `return x`).
MAX_QUOTED_LINES = 3
# A quoted fragment shorter than this (characters, spaces out) is a word, not code to look for.
MIN_QUOTE_CHARS = 5

# "line 198", "lines 40-60", "lines 40 to 60", "line #12", "L198", "L40-L60", "file.py:198"
_LINE_WORDS = re.compile(
    r"\blines?\s*#?\s*(\d+)(?:\s*(?:-|–|to|through|and)\s*(\d+))?"
    r"|\bL(\d+)(?:\s*-\s*L?(\d+))?\b"
    r"|\.\w{1,6}:(\d+)(?:-(\d+))?\b",
    re.IGNORECASE,
)
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_CALL_TAIL = re.compile(r"\((?:[^()]*)\)$")
_SPACES = re.compile(r"\s+")
# `nl -ba` / `cat -n`: the text's own numbers (`numbered.py`)
_NUMBER_PREFIX = re.compile(r" *(\d+)\t")


def first_line_number(given: Sequence[str]) -> int:
    """The number the text's first line has in its file: the one `nl -ba` printed, else 1."""
    m = _NUMBER_PREFIX.match(given[0]) if given else None
    return int(m.group(1)) if m else 1


def numbered_lines(question: str, n: int, first: int = 1) -> set[int]:
    """The indexes of the lines `question` names by number (and their neighbourhoods), the text's
    first line being line `first` of its file."""
    out: set[int] = set()
    for m in _LINE_WORDS.finditer(question):
        start_s, end_s = next((m.group(k), m.group(k + 1)) for k in (1, 3, 5) if m.group(k))
        start = int(start_s)
        end = int(end_s) if end_s and int(end_s) >= start else start
        end = min(end, start + MAX_NAMED_RANGE - 1)
        lo = max(0, start - first - LINE_NEIGHBOURHOOD)
        hi = min(n, end - first + 1 + LINE_NEIGHBOURHOOD)
        out.update(range(lo, hi))
    return out


def _fragments(question: str) -> list[list[str]]:
    """The code `question` quotes in backticks, each as the variants to look for, in order: as
    written, without a call's parentheses (`open_url()` is defined as `open_url(url, …)`), its
    last dotted part (`_termui_impl.open_url`)."""
    out: list[list[str]] = []
    for m in _BACKTICKED.finditer(question):
        fragment = _SPACES.sub(" ", m.group(1).strip())
        bare = _CALL_TAIL.sub("", fragment)
        variants: list[str] = []
        for variant in (fragment, bare, bare.rsplit(".", 1)[-1]):
            if len(variant.replace(" ", "")) >= MIN_QUOTE_CHARS and variant not in variants:
                variants.append(variant)
        if variants:
            out.append(variants)
    return out


def quoted_lines(question: str, lines: Sequence[str]) -> set[int]:
    """The indexes of the lines holding code `question` quotes (and their neighbourhoods): per
    fragment, the first of its variants found on 1..`MAX_QUOTED_LINES` lines."""
    if "`" not in question:
        return set()
    fragments = _fragments(question)
    if not fragments:
        return set()
    squeezed = [_SPACES.sub(" ", line) for line in lines]
    out: set[int] = set()
    for variants in fragments:
        for variant in variants:
            found = [i for i, line in enumerate(squeezed) if variant in line]
            if len(found) > MAX_QUOTED_LINES:
                break  # a shorter variant is found on as many lines or more
            if found:
                for i in found:
                    out.update(
                        range(max(0, i - QUOTE_NEIGHBOURHOOD), min(len(lines), i + QUOTE_NEIGHBOURHOOD + 1))
                    )
                break
    return out
