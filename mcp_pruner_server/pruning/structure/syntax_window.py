"""A window of a file (`sed -n '120,360p' f`) made parseable: its cut ends set aside.

An agent reading a file a window at a time hands over text that starts inside some unit and
ends inside another. In a language of braces the top of such a window is the end of a body
whose header is above the window (statements, then a `}` that closes nothing), and the members
below it may belong to a class whose header is above too (a later `}` closes nothing either).
A parser reads the first as errors and the second as statements or local functions, so that a
whole window could be distrusted or found to define nothing. `window_texts` gives the texts to
parse instead, one per reading of the top, each with the same lines (rows are kept, only
characters are blanked or put in front):

- the top orphan: the lines down to the `}` that closes the body the window opens in (the
  first `}` closing nothing whose following lines are not indented less: its siblings), blanked;
  and when the window opens inside a block comment, the lines down to its `*/`. A reading
  without the orphan is tried too (the window may open at a member);
- the headless container: the `}`s that still close nothing are blanked, and for each a
  container header of the language (`class _ {`: its record's `Syntax.container_opener`) is put
  on the row where the window's own code starts, so that its members parse as members (one at
  least below an indented orphan `}`).

`syntax.py` parses these only when the text as given did not parse (`window_blocks`), so a file
that parses is not concerned, and keeps the reading with the fewest failed rows; the container
put in front is no block of the file and is dropped.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.structure.code_blocks import Block

# What a brace count skips on a line: strings, characters and a line comment (braces in a
# block comment are rare enough to count).
_NOT_CODE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|//.*')


# The name of the container put in front.
_SYNTHETIC = "_"


def window_blocks(
    text: str, lang: str, read: Callable[[str], tuple[tuple[Block, ...] | None, int]]
) -> tuple[Block, ...] | None:
    """The blocks of the best reading of `text` as a window (`read` parses one: its blocks, None
    if untrusted or none, and its failed rows); None if no reading parses or `text` is no window."""
    best: tuple[Block, ...] | None = None
    fewest = math.inf
    for reading, opened in window_texts(text, lang):
        blocks, failed = read(reading)
        if blocks and failed < fewest:
            best, fewest = _without_synthetic(blocks, opened), failed
    return best


def window_texts(text: str, lang: str) -> Iterator[tuple[str, int | None]]:
    """The readings of `text` as a window cut out of a file, if it looks like one (some `}`
    closes nothing, a `*/` opens nothing, or no line is at the left margin), each with the row
    where containers were put in front (None if none was); nothing for other texts and languages."""
    syntax = by_name(lang).syntax
    if syntax.container_opener is None and not syntax.brace_only:
        return
    lines = text.split("\n")
    top = _comment_end(lines)
    stray = _stray_closers(lines, top)
    # no line of code at the left margin: all of it lies inside a unit opened above the window
    inside = min((_indent(line) for line in lines[top:] if line.strip()), default=0) > 0
    if not top and not stray and not inside:
        return
    yield _reading(lines, top, lang, nested=inside)
    end = _orphan_end(lines, stray)
    if end is not None and end > top:
        yield _reading(lines, end, lang, nested=bool(_indent(lines[end - 1])))


def _reading(lines: list[str], top: int, lang: str, *, nested: bool) -> tuple[str, int | None]:
    """The lines above `top` blanked, the `}`s below it that close nothing blanked, and as many
    container headers put in front of the first line of code below it (one at least if the
    body above `top` was `nested`, its `}` indented: a method's)."""
    out = ["" for _ in lines[:top]] + lines[top:]
    stray = _stray_closers(out, top)
    blanked: dict[int, list[str]] = {}  # each row rebuilt once: per `}`, 64 KiB of them took 2 s
    for row, col in stray:
        if row not in blanked:
            blanked[row] = list(out[row])
        blanked[row][col] = " "
    for row, chars in blanked.items():
        out[row] = "".join(chars)
    syntax = by_name(lang).syntax
    opener = syntax.container_opener
    openers = 1 if syntax.methods_inside else max(len(stray), int(nested))
    first = next((i for i in range(top, len(out)) if out[i].strip()), None)
    if not openers or opener is None or first is None:
        return "\n".join(out), None
    out[first] = " ".join([opener] * openers) + " " + out[first]
    return "\n".join(out), first


def _orphan_end(lines: list[str], stray: list[tuple[int, int]]) -> int | None:
    """The row after the `}` that closes the body the window opens in: the first `}` closing
    nothing below which, down to the next one, no line is indented less than it is (they are
    its siblings, where below a `}` that closes an inner block the rest of the body is)."""
    rows = [row for row, _ in stray]
    for k, row in enumerate(rows):
        below = rows[k + 1] if k + 1 < len(rows) else len(lines)
        between = [_indent(line) for line in lines[row + 1 : below] if line.strip()]
        if between and min(between) >= _indent(lines[row]):
            return row + 1
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _stray_closers(lines: list[str], start: int) -> list[tuple[int, int]]:
    """(row, column) of each `}` from row `start` on that closes no `{` opened below `start`."""
    stray: list[tuple[int, int]] = []
    depth = 0
    for row in range(start, len(lines)):
        line = lines[row]
        if "{" not in line and "}" not in line:
            continue
        code = _NOT_CODE.sub(lambda m: " " * len(m.group()), line)
        for col, ch in enumerate(code):
            if ch == "{":
                depth += 1
            elif ch == "}":
                if depth == 0:
                    stray.append((row, col))
                else:
                    depth -= 1
    return stray


def _comment_end(lines: list[str]) -> int:
    """The row after a `*/` that closes a comment opened above the window, else 0."""
    for row, line in enumerate(lines):
        opens, closes = line.find("/*"), line.find("*/")
        if closes >= 0 and (opens < 0 or closes < opens):
            return row + 1
        if opens >= 0:
            return 0
    return 0


def _without_synthetic(blocks: Sequence[Block], opened: int | None) -> tuple[Block, ...]:
    """`blocks` without the containers `_reading` put in front on row `opened`, their members
    re-parented (a container headed there and named `_`, or unnamed where the grammar names none)."""
    dropped = {
        k for k, b in enumerate(blocks) if b.container and b.header == opened and b.name in (_SYNTHETIC, None)
    }
    if not dropped:
        return tuple(blocks)
    new_index: dict[int, int] = {}
    out: list[Block] = []
    for k, b in enumerate(blocks):
        if k in dropped:
            continue
        parent = b.parent
        while parent is not None and parent in dropped:
            parent = blocks[parent].parent
        new_index[k] = len(out)
        out.append(replace(b, parent=None if parent is None else new_index[parent]))
    return tuple(out)
