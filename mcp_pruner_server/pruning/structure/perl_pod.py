"""Perl's POD: where it lies, which section documents the sub below it, and the `=cut` lines that
close none.

A Perl sub's POD (`=head2 name` … `=cut`) sits above it after a blank line: its last section is
the sub's doc as a comment would be; the rest of a file's POD is documentation all the same, which
`code.py` weighs as it weighs doc comments (`language_hooks.PERL_HOOKS`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tree_sitter import Node

# A POD paragraph naming what follows it (`=head2 grow`, `=item $w->grow($step)`).
_POD_SECTION = re.compile(rb"^=(?:head\d|item)\b", re.MULTILINE)
# A line opening POD (`=head1`, `=pod`, `=begin`): POD runs from it to `=cut`.
_POD_START = re.compile(r"=[A-Za-z]")
# A POD command line (`=head2 grow`, `=cut`), for `blank_stray_cuts`.
_POD_COMMAND = re.compile(r"^=([A-Za-z]\w*).*$", re.MULTILINE)


def pod_rows(lines: Sequence[str]) -> set[int]:
    """The rows of Perl's POD: from a line opening with `=word` to `=cut` (or the end)."""
    rows: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        if not inside and _POD_START.match(line):
            inside = True
        if inside:
            rows.add(i)
            if line.startswith("=cut"):
                inside = False
    return rows


def pod_doc_row(pod: Node) -> int:
    """The first row of a Perl POD block's last section (`=head2 grow` … `=cut`): the doc of
    the sub below it; the sections above document the module or other subs."""
    text = pod.text or b""
    starts = [m.start() for m in _POD_SECTION.finditer(text)]
    return int(pod.start_point[0]) + (text.count(b"\n", 0, starts[-1]) if starts else 0)


def blank_stray_cuts(text: str) -> str:
    """`text` with every `=cut` that closes no POD blanked (same length: rows stay). A POD block
    cannot start with `=cut` (perlpodspec: an error, a POD processor stops there), yet perl and
    the grammar read one as POD up to the next `=cut`: a doc deleted down to its `=cut` made the
    subs below it one POD block, no unit at all, where a reader sees code."""
    stray: list[tuple[int, int]] = []
    inside = False
    for m in _POD_COMMAND.finditer(text):
        if m.group(1) != "cut":
            inside = True
        elif inside:
            inside = False
        else:
            stray.append(m.span())
    if not stray:
        return text
    parts, last = [], 0
    for start, end in stray:
        parts += [text[last:start], " " * (end - start)]
        last = end
    return "".join(parts) + text[last:]
