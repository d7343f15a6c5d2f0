"""Fortran's generic interfaces and the specific procedures that implement them.

`interface get_value` / `module procedure :: get_value_int, get_value_real` / `end interface`
names one operation (and a type's constructor: `interface stop_type` / `module procedure ::
stop_typer`) that callers call by the generic name, the compiler choosing the specific. The block
is a few lines with no code; a question about the operation, worded as its doc or naming the
generic, finds the block and not the code: each specific scores at least `GENERIC_SHARE` of its
generic, as a namesake does of the best of its namesakes (`code.NAMESAKE_SHARE`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.structure.code_blocks import Block

# (Fortran dev sets: one task more at 0.5, 0.7 and 0.9 alike, none lost; 0.7 as namesakes.)
GENERIC_SHARE = 0.7
_GENERIC = re.compile(r"\s*(?:abstract\s+)?interface\s+(\w+)", re.IGNORECASE)
_SPECIFICS = re.compile(r"\s*(?:module\s+)?procedure\b\s*(?:::)?\s*([^!]*)", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z]\w*")


def generic_specifics(lines: Sequence[str], blocks: Sequence[Block]) -> dict[int, list[int]]:
    """For each generic interface block (by index), the blocks of the specifics it lists."""
    by_name: dict[str, list[int]] = {}
    for k, b in enumerate(blocks):
        if b.name is not None and not b.container:
            by_name.setdefault(b.name.lower(), []).append(k)
    found: dict[int, list[int]] = {}
    for k, b in enumerate(blocks):
        if not _GENERIC.match(lines[b.header]):
            continue
        listed: list[int] = []
        continued = False  # a `procedure ::` list goes on over `&` lines
        for line in lines[b.header + 1 : b.end]:
            m = None if continued else _SPECIFICS.match(line)
            text = m.group(1) if m else (line.split("!")[0] if continued else "")
            continued = text.rstrip().endswith("&")
            for name in _NAME.findall(text):
                listed.extend(j for j in by_name.get(name.lower(), ()) if j != k)
        if listed:
            found[k] = listed
    return found


def specifics_with_generics(
    lines: Sequence[str], blocks: Sequence[Block], scores: Sequence[float]
) -> list[float]:
    """`scores` with each specific raised to `GENERIC_SHARE` of its generic interface's score."""
    out = list(scores)
    for generic, specifics in generic_specifics(lines, blocks).items():
        for k in specifics:
            out[k] = max(out[k], GENERIC_SHARE * scores[generic])
    return out
