"""Top-level definitions outside every unit (constants, option tables) that the best units use.

A unit's body often reads a name defined at the top of its module: `DEFAULT_TIMEOUT = 30`,
`const OPTIONS = {…}`, `static final int MAX = 8;`. The question's words are in the unit, not in
the constant, so the constant scores nothing and is pruned; rule `constants_used` has the best
units bring the statements defining the names their bodies read, as `imports_used` brings imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# A top-level statement binding a name: `NAME = …`, `const name = …`, `var x int = …`,
# `static final Map<K, V> TABLE = …;`: the name is the last word before `=` or `:`. A type starts
# with a letter, so a docstring's example prompt (`julia> body = …`, `>>> x = 1`) binds nothing.
_BINDS = re.compile(
    r"^(?:export\s+)?(?:(?:const|let|var|static|final|public|private|protected|readonly|pub|"
    r"internal|val|my|our)\s+)*(?:[A-Za-z_][\w\[\],.?*&]*(?:<[^=]*>)?\s+)?\$?([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)"
)
# At most this many lines of module-level statements come with one unit: an option table is
# worth its lines, a module's whole configuration block is not.
MAX_CONSTANT_LINES = 12


def module_bindings(lines: Sequence[str], chunks: Iterable[Sequence[int]]) -> dict[str, tuple[int, ...]]:
    """The names bound at the top level of `chunks` (runs of lines outside every unit) and the
    lines of each binding's statement: its first line and the more indented or closing lines after it."""
    out: dict[str, tuple[int, ...]] = {}
    for chunk in chunks:
        for k, i in enumerate(chunk):
            line = lines[i]
            if line[:1].isspace():
                continue
            m = _BINDS.match(line)
            if m is None:
                continue
            span = [i]
            for j in chunk[k + 1 :]:
                nxt = lines[j]
                if nxt[:1].isspace() or nxt.lstrip()[:1] in {")", "]", "}"}:
                    span.append(j)
                else:
                    break
            out.setdefault(m.group(1), tuple(span))
    return out


def constants_used(bindings: dict[str, tuple[int, ...]], used: set[str]) -> list[int]:
    """The lines of the bindings whose names are in `used`, first ones first, at most
    `MAX_CONSTANT_LINES` in all (a binding that would go over is left out whole)."""
    out: list[int] = []
    for name, span in sorted(bindings.items(), key=lambda kv: kv[1][0]):
        if name in used and len(out) + len(span) <= MAX_CONSTANT_LINES:
            out.extend(span)
    return out
