"""Lines as a terminal shows them: ANSI escape sequences removed, `\\r` overwrites resolved.

Tools print colours when forced to (CI runners set `FORCE_COLOR`, `CARGO_TERM_COLOR=always`,
`pytest --color=yes`; a CI log downloaded keeps them) and redraw progress bars with `\\r`. A
colour code in front of `error` or `E   ` hides the line's start from every rule that reads it,
and a progress line holds every state it was redrawn in. The engine reads the lines as shown and
renders the lines as given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# CSI sequences (colours, cursor moves: `\x1b[1;31m`, `\x1b[2K`), OSC ones (titles, hyperlinks,
# ended by BEL or ST) and the two-character escapes.
_ESCAPE = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# A carriage return inside a line (a CRLF line's final `\r` overwrites nothing): the last `\r` of a
# run, followed by a character of the line. `\r(?!\r*(?:\n|$))` looked from each `\r` of a run to
# its end (256 KiB of `\r` took 45 s).
_OVERWRITE = re.compile(r"\r[^\r\n]")


def as_shown(text: str, lines: Sequence[str]) -> list[str] | None:
    """`lines` (those of `text`) as a terminal shows them, or None if they show as they are."""
    escapes = "\x1b" in text
    overwrites = "\r" in text and _OVERWRITE.search(text) is not None
    if not escapes and not overwrites:
        return None
    out = list(lines)
    for i, line in enumerate(out):
        if escapes and "\x1b" in line:
            line = _ESCAPE.sub("", line)
        if overwrites and "\r" in line.rstrip("\r"):
            segments = [s for s in line.split("\r") if s]
            line = segments[-1] if segments else ""
        out[i] = line
    return out
