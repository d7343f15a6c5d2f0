"""A long MATLAB function read as a class is: its head (signature and help) and its paragraphs.

A MATLAB file's main function is often most of it: a 300-line `eigs` ahead of its five local
helpers, a GUI's or a plotting routine's main function, a script-like one whose helpers are nested
in it. As one unit, such a function won the question on the words its long body holds (the
helpers' words are used there too) and was kept whole, three quarters of the file, leaving no
room for the helper the question meant. Read as a class is, its head (signature and help) is a
unit named like it, each paragraph of its code one more (cut where no `if` or `for` is open
wherever it can be), each function nested in it one of its own, all with its signature as their
context: a question about the function still finds its head and best paragraphs, one about a
helper no longer loses to the function's bulk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.structure.code_blocks import Block

# A function is long when it holds more than this many non-blank lines (a GUI's or a solver's
# main function, a class's constructor parsing its options): more than a reader takes in at once,
# and a fifth of most files, what the default ratio keeps of them ...
LONG_FUNCTION_LINES = 100
# ... or more than this many and this share of the file's: more than the default ratio's focus
# holds (its floor, a fifth, and `select.FOCUS_SLACK_FRACTION`), kept whole when it won, it left
# no room for the helper a question meant (the measurements are in CHANGELOG).
LONG_SHARE_LINES = 60
LONG_FUNCTION_SHARE = 0.25
# A paragraph is cut from the next at a blank line or a comment opening one when it holds at
# least this many lines and no `if`, `for` … is open there; one reaching this many lines is cut
# where the fewest are open.
MIN_PIECE_LINES = 8
MAX_PIECE_LINES = 30

_COMMENT = re.compile(r"^\s*(?:%|#(?:[#\s{}]|$))")


def split_function(
    lines: Sequence[str],
    fn: Block,
    nested: Sequence[Block],
    control_depth: Sequence[int],
    index: int,
    file_size: int,
) -> list[Block]:
    """`fn` alone, or, long or with functions nested in it, `fn` as a container (at `index` of
    the blocks) with its head, its paragraphs and its `nested` functions as members.
    `file_size` is the file's count of non-blank lines (`non_blank`), counted once for all its
    functions."""
    if not nested and not _long(lines, fn, file_size):
        return [fn]
    sig_end = fn.sig_end if fn.sig_end is not None else fn.header + 1
    help_end = sig_end
    while help_end < fn.end and _COMMENT.match(lines[help_end]):
        help_end += 1
    members = [
        Block(fn.header, fn.header, help_end, False, index, sig_end=sig_end, name=fn.name),
        *(replace(b, parent=index) for b in nested),
    ]
    # the function's own code: what lies between the functions nested in it
    edges = [help_end, *(row for b in nested for row in (b.start, b.end)), fn.end]
    for first, end in zip(edges[::2], edges[1::2], strict=True):
        members += [
            Block(a, a, b, False, index, sig_end=a) for a, b in _paragraphs(lines, first, end, control_depth)
        ]
    members.sort(key=lambda b: b.start)
    return [replace(fn, container=True), *members]


def non_blank(lines: Sequence[str]) -> int:
    """How many of `lines` hold something."""
    return sum(1 for line in lines if line.strip())


def _long(lines: Sequence[str], fn: Block, file_size: int) -> bool:
    """Whether `fn` holds more than `LONG_FUNCTION_LINES` non-blank lines, or more than
    `LONG_SHARE_LINES` and `LONG_FUNCTION_SHARE` of the file's `file_size` (blank lines cost
    nothing kept)."""
    size = non_blank(lines[fn.header : fn.end])
    if size <= LONG_SHARE_LINES:
        return False
    return size > LONG_FUNCTION_LINES or size > LONG_FUNCTION_SHARE * file_size


def _paragraphs(lines: Sequence[str], first: int, end: int, depth: Sequence[int]) -> list[tuple[int, int]]:
    """Rows `first`..`end - 1` cut into paragraphs: (first non-blank row, exclusive end) each."""
    cuts = [first]
    for r in range(first + 1, end):
        if r - cuts[-1] >= MAX_PIECE_LINES:
            cuts.append(_best_cut(lines, cuts[-1], r, depth))
        elif r - cuts[-1] >= MIN_PIECE_LINES and depth[r] == 0 and _opens_paragraph(lines, r):
            cuts.append(r)
    out = []
    for a, b in zip(cuts, [*cuts[1:], end], strict=True):
        while a < b and not lines[a].strip():
            a += 1
        if a < b:
            out.append((a, b))
    return out


def _opens_paragraph(lines: Sequence[str], r: int) -> bool:
    """Whether row `r` opens a paragraph: a blank line, or a comment below code."""
    if not lines[r].strip():
        return True
    return bool(_COMMENT.match(lines[r])) and bool(lines[r - 1].strip()) and not _COMMENT.match(lines[r - 1])


def _best_cut(lines: Sequence[str], start: int, end: int, depth: Sequence[int]) -> int:
    """Where to cut a paragraph from `start` grown to row `end`: the last paragraph opening
    where the fewest blocks are open (`end` itself if none is fewer)."""
    best = end
    for r in range(start + MIN_PIECE_LINES, end):
        if _opens_paragraph(lines, r) and depth[r] <= depth[best]:
            best = r
    return best
