"""The fields of a class that come with a kept member: those its body uses.

A method read alone says `count += step` about a `count` declared at the top of its class; the
declaration line joins the member's context (with the class header, `code.py`'s business).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.code_blocks import Block

_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def words_of(lines: Sequence[str], indexes: Iterable[int]) -> set[str]:
    """The identifiers of the lines at `indexes`: one regex pass over them joined, not one per line."""
    return set(_WORDS.findall("\n".join([lines[i] for i in indexes])))


# A field declared in a class body: `private int size;`, `readonly cache: Map<K, V> = …`,
# `std::vector<int> items_;`, PHP's `protected $name;` — the name is the last word before `;`, `=`, `:`.
_FIELD = re.compile(
    r"^\s*(?!return\b|//|/\*|\*|@|#|\})(?:[\w<>\[\],.?&*:]+\s+)*?\*?\$?([A-Za-z_]\w*)\s*(?:;|=(?!=)|:(?!:))"
)
# At most this many field lines come with a member: a data class's dozens would drown it, and
# each one is budget taken from the next-best definition.
MAX_MEMBER_FIELDS = 2


def with_fields(
    lines: Sequence[str],
    blocks: Sequence[Block],
    sig_end: Sequence[int],
    units: list[Unit],
) -> None:
    """A parsed member's context gains the fields of its class that its body uses."""
    members: dict[int, list[int]] = {}
    for k, b in enumerate(blocks):
        if b.parent is not None and blocks[b.parent].container:
            members.setdefault(b.parent, []).append(k)
    for c, ks in members.items():
        inside: set[int] = set()
        for k in ks:
            inside.update(range(blocks[k].start, blocks[k].end))
        fields: dict[str, int] = {}
        for i in range(sig_end[c], blocks[c].end):
            if i not in inside and (m := _FIELD.match(lines[i])):
                fields.setdefault(m.group(1), i)
        if not fields:
            continue
        for k in ks:
            used = words_of(lines, units[k].lines) & fields.keys()
            if used:
                extra = sorted(fields[w] for w in used)[:MAX_MEMBER_FIELDS]
                units[k] = replace(units[k], context=(*units[k].context, *extra))
