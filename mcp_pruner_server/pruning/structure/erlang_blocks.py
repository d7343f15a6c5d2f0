"""Erlang's functions, found by a scan of their own where no grammar is installed.

An Erlang function is one form: its clauses (`name(Args) -> …;` each at column 0) up to the `.`
that ends the last, often with a `-spec name(…) -> T.` form directly above. The
language-independent heuristics read it by indentation: a clause's body is indented under its
head, so each clause was a block of its own, the `-spec` and the `%%` comments above belonged
to the first clause only, and a multi-clause function was never one unit. Here a function runs
from its `-spec` (its signature, with the first clause's head) to its terminating `.` (strings,
quoted atoms, `$c` characters and `%` comments skipped); the `%` comments directly above are
its doc, as is an OTP 27 `-doc` attribute there, weighed as a parser's (`LEAD_WEIGHT` a line); its
name is known.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block

_CLAUSE_HEAD = re.compile(r"([a-z][\w@]*|'(?:[^'\\]|\\.)+')\s*\(")
_SPEC = re.compile(r"-spec[\s(]")
_COMMENT = re.compile(r"^\s*%")
# OTP 27's documentation attribute (`-doc "…".`, `-doc \"""` … `\""".` over lines), above the `-spec`.
_DOC_ATTRIBUTE = re.compile(r"-doc\b")
# How far up a `-doc` attribute over several lines is looked for.
MAX_DOC_LINES = 200
# What hides a `.` or a `%` from the scan: a string, a quoted atom, a character literal (`$.`,
# `$%`, `$\n`), a comment; and the form's terminating `.`, followed by a blank, a comment or
# the line's end (`1.5` and a record field's `R#r.f` are no end).
_TOKENS = re.compile(r"\"(?:[^\"\\]|\\.)*\"?|'(?:[^'\\]|\\.)*'?|\$\\?.|%.*|\.(?=\s|%|$)")
# How many lines one form may span before the scan gives up on it, and how far above a clause
# its `-spec` is looked for.
MAX_FORM_LINES = 3_000
MAX_SPEC_LINES = 30


def _form_end(lines: Sequence[str], row: int) -> int | None:
    """Exclusive end of the form opening on `row`: the line after its terminating `.`."""
    in_string = False
    for j in range(row, min(len(lines), row + MAX_FORM_LINES)):
        line = lines[j]
        if in_string:  # a string goes on from the line above: find its closing quote
            close = re.search(r'(?<!\\)"', line)
            if close is None:
                continue
            line, in_string = line[close.end() :], False
        for token in _TOKENS.finditer(line):
            text = token.group()
            if text == ".":
                return j + 1
            if text.startswith("%"):
                break
            if text.startswith('"') and (len(text) == 1 or not text.endswith('"') or text.endswith('\\"')):
                in_string = True
    return None


def _spec_above(lines: Sequence[str], row: int) -> int | None:
    """The row of the `-spec` form directly above `row` (no blank or comment line between)."""
    for k in range(row - 1, max(-1, row - 1 - MAX_SPEC_LINES), -1):
        if not lines[k].strip() or _COMMENT.match(lines[k]):
            return None
        if _SPEC.match(lines[k]):
            return k
        if lines[k][:1].isalpha():
            return None  # another form's line
    return None


def _doc_start(lines: Sequence[str], header: int) -> int:
    """The first row of the docs directly above `header`: `%` comments and `-doc` attributes."""
    start = header
    while start > 0:
        if _COMMENT.match(lines[start - 1]):
            start -= 1
            continue
        doc = next(
            (
                k
                for k in range(start - 1, max(-1, start - 1 - MAX_DOC_LINES), -1)
                if _DOC_ATTRIBUTE.match(lines[k])
            ),
            None,
        )
        # the attribute's form must end right above: no other form starts between
        if doc is None or any(
            _CLAUSE_HEAD.match(lines[k]) or lines[k].startswith("-") for k in range(doc + 1, start)
        ):
            return start
        start = doc
    return start


def erlang_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every function of an Erlang module, with its `-spec` and the comments directly above."""
    out: list[Block] = []
    row = 0
    for row_line in deadline.paced(range(len(lines))):
        if row_line < row:
            continue
        head = _CLAUSE_HEAD.match(lines[row_line])
        if head is None:
            continue
        end = _form_end(lines, row_line)
        if end is None:
            break
        spec = _spec_above(lines, row_line)
        header = row_line if spec is None else spec
        start = _doc_start(lines, header)
        out.append(
            Block(start, header, end, False, None, sig_end=row_line + 1, name=head.group(1).strip("'"))
        )
        row = end
    return out
