"""Fortran's generic interfaces and the specific procedures that implement them.

`interface get_value` / `module procedure :: get_value_int, get_value_real` / `end interface`
names one operation (and a type's constructor: `interface stop_type` / `module procedure ::
stop_typer`) that callers call by the generic name, the compiler choosing the specific. The block
is a few lines with no code; a question about the operation names the generic, and finds the
block and not the code: the generic's name is a name of each specific it lists, the words of it
the question says hits of the specific's name field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.terms import terms

_GENERIC = re.compile(r"\s*(?:abstract\s+)?interface\s+(\w+)", re.IGNORECASE)
_END = re.compile(r"\s*end\s*interface\b", re.IGNORECASE)
_SPECIFICS = re.compile(r"\s*(?:module\s+)?procedure\b\s*(?:::)?\s*([^!]*)", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z]\w*")


def generics_of(lines: Sequence[str]) -> dict[str, list[str]]:
    """Each specific procedure's name (in lower case) -> the generic interfaces that list it."""
    found: dict[str, list[str]] = {}
    generic: str | None = None
    continued = False  # a `procedure ::` list goes on over `&` lines
    for line in lines:
        if generic is None:
            m = _GENERIC.match(line)
            generic = m.group(1) if m else None
            continue
        if _END.match(line):
            generic = None
            continue
        m = None if continued else _SPECIFICS.match(line)
        text = m.group(1) if m else (line.split("!")[0] if continued else "")
        continued = text.rstrip().endswith("&")
        for name in _NAME.findall(text):
            found.setdefault(name.lower(), []).append(generic)
    return found


def generic_hits(
    name: str | None, generics: Mapping[str, Sequence[str]], query: Mapping[str, float]
) -> dict[str, int]:
    """The question terms of the generics that list the procedure `name` (`generics` is
    `generics_of` the file, read once per prune), as hits of its name field ("stop" and "type" of
    `stop_typer`, listed by `interface stop_type`)."""
    if name is None:
        return {}
    listing = generics.get(name.lower(), ())
    return {
        t: 1 for generic in listing if generic.lower() != name.lower() for t in terms(generic) if t in query
    }
