"""Pascal's routines (Delphi, Free Pascal), found by a scan of their own: blocks as a parser's.

A Pascal routine's body is not indented under its head (`procedure TFoo.Bar;` at column 0, its
`var` section, nested routines, `begin` … `end;` at column 0 too), so the
language-independent heuristics saw a one-line unit per head and the body as loose chunks.
Here a routine of the implementation section (of the whole file in a program or an include
file) runs from its head to its own `end;` at column 0, the first after its body's `begin` at
column 0 (a local `var` section or `record … end;` type comes before the `begin`; nested routines
are indented), and never past the next head at column 0, `initialization` or `end.`. The comment
directly above is its doc (`//` lines, a `{ … }` or `(* … *)` block), weighed as a parser's
(`LEAD_WEIGHT` a line); its name is the method's own (`Bar` of `TFoo.Bar`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block

_HEAD = re.compile(
    r"(?:class\s+)?(?:procedure|function|constructor|destructor|operator)\s+([\w.]+(?:<[^>]*>)?(?:\.\w+)*)",
    re.IGNORECASE,
)
# What ends the routine above it at the latest: the next head, or the unit's closing sections.
_ITEM = re.compile(
    r"(?:(?:class\s+)?(?:procedure|function|constructor|destructor|operator)|initialization|finalization)\b|"
    r"end\.",
    re.IGNORECASE,
)
# A body's `begin` (or `asm`) and its `end;`, at column 0 as every Pascal style writes them.
_BODY = re.compile(r"(?:begin|asm)\b", re.IGNORECASE)
_IMPLEMENTATION = re.compile(r"implementation\b", re.IGNORECASE)
_UNIT_HEAD = re.compile(r"\s*(?:unit|library|package)\b", re.IGNORECASE)
_OWN_END = re.compile(r"end\s*;", re.IGNORECASE)
# A head ending in `forward;` or `external …` has no body here.
_NO_BODY = re.compile(r"\b(?:forward|external)\b[^;]*;", re.IGNORECASE)
_LINE_COMMENT = re.compile(r"\s*//")
# How many lines of a `{ … }` or `(* … *)` block above a head are looked through for its start.
MAX_DOC_LINES = 200


# A `.pp` file is Free Pascal's when it opens as a unit or a program does (after its comments and
# `{$mode …}` directives); Puppet's manifests open with `class`, `define`, `node` or a resource.
# `unit Grips;`, `unit XMLCfg deprecated;`, `program DoubleCmd;`
_PASCAL_OPENING = re.compile(r"\s*(?i:unit|program|library|package)\s+[\w.]+(?:\s+\w+)*\s*;")
# Comments and directives before it: `{ … }` and `(* … *)` over any number of lines, `//` lines.
_LEADING_COMMENT = re.compile(r"\s*(?:\{[^}]*(?:\}|$)|\(\*(?:(?!\*\)).)*(?:\*\)|$)|//.*)")
MAX_OPENING_LINES = 1000  # a unit may open with a long header comment


def is_pascal(lines: Sequence[str]) -> bool:
    """Whether the lines of a `.pp` file are Free Pascal's rather than a Puppet manifest's."""
    closing = ""  # the end of a comment still open from a line above
    for line in lines[:MAX_OPENING_LINES]:
        if closing:
            end = line.find(closing)
            if end < 0:
                continue
            line, closing = line[end + len(closing) :], ""
        while (comment := _LEADING_COMMENT.match(line)) is not None and comment.group().strip():
            text = comment.group().strip()
            if text.startswith("{") and not text.endswith("}"):
                closing = "}"
            elif text.startswith("(*") and not text.endswith("*)"):
                closing = "*)"
            line = line[comment.end() :]
        if closing or not line.strip():
            continue
        return bool(_PASCAL_OPENING.match(line))
    return False


def _sections(lines: Sequence[str]) -> int:
    """The first row routines with bodies are looked for from: after `implementation` in a
    unit, from the top in a program or an include file."""
    implementation = next((r for r, line in enumerate(lines) if _IMPLEMENTATION.match(line)), None)
    if implementation is not None:
        return implementation + 1
    if any(_UNIT_HEAD.match(line) for line in lines[:200]):
        return len(lines)  # a unit cut short before its implementation: declarations only
    return 0


def _signature_end(lines: Sequence[str], head: int, stop: int) -> int:
    """Exclusive end of the head: through the line closing its parameters with `;`."""
    depth = 0
    for j in range(head, stop):
        depth += lines[j].count("(") - lines[j].count(")")
        if depth <= 0 and lines[j].rstrip().endswith(";"):
            return j + 1
    return head + 1


def _doc_start(lines: Sequence[str], head: int) -> int:
    """The first row of the comment directly above `head`, or `head` when there is none."""
    above = head - 1
    if above < 0:
        return head
    text = lines[above].strip()
    if _LINE_COMMENT.match(text):
        start = above
        while start > 0 and _LINE_COMMENT.match(lines[start - 1]):
            start -= 1
        return start
    for opening, closing in (("{", "}"), ("(*", "*)")):
        if not text.endswith(closing) or text.startswith(opening + "$"):
            continue
        for k in range(above, max(-1, above - MAX_DOC_LINES), -1):
            stripped = lines[k].lstrip()
            if stripped.startswith(opening):
                return head if stripped.startswith(opening + "$") else k
            if k < above and closing in lines[k]:
                return head  # another comment ends here: the one above the head opens mid-line
    return head


def _own_end(lines: Sequence[str], start: int, stop: int) -> int | None:
    """The row of the routine's `end;`: the first at column 0 after its body's `begin` at column
    0 (a local `var` section or a `record … end;` type comes before it), else the last at column
    0 before `stop`."""
    begun = False
    last = None
    for k in range(start, stop):
        line = lines[k]
        if _BODY.match(line):
            begun = True
        elif _OWN_END.match(line):
            if begun:
                return k
            last = k
    return last


def pascal_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every routine with a body at column 0 (with its nested routines) and the comment above."""
    heads: list[int] = []
    items: list[int] = []
    for row in deadline.paced(range(_sections(lines), len(lines))):
        line = lines[row]
        if not line[:1].isalpha() or not _ITEM.match(line):
            continue
        items.append(row)
        if _HEAD.match(line) and not _NO_BODY.search(line):
            heads.append(row)
    out: list[Block] = []
    if not heads:
        return out
    next_item = {row: nxt for row, nxt in zip(items, [*items[1:], len(lines)], strict=True)}
    for head in heads:
        stop = next_item[head]
        sig_end = _signature_end(lines, head, stop)
        if _NO_BODY.search(" ".join(lines[head:sig_end])):
            continue
        own_end = _own_end(lines, sig_end, stop)
        if own_end is None:
            continue  # a declaration without a body (a procedural type's line, an interface's)
        found = _HEAD.match(lines[head])
        assert found is not None
        name = found.group(1).rsplit(".", 1)[-1]
        out.append(Block(_doc_start(lines, head), head, own_end + 1, False, None, sig_end=sig_end, name=name))
    return out
