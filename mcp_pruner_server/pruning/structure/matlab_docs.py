"""What documents a MATLAB function besides the comments above it: its help, and its class's list.

MATLAB's doc comment is its help, the `%` lines right after the signature (the first the H1 line,
`%SMOOTH  Moving average …`), and a class's help (or a toolbox's `Contents.m`) lists the methods,
one line each with what it does (`%  toradians     convert joint angles to radians`). Both are
the function's doc and weigh as any language's doc does (`LEAD_WEIGHT` a line): at full weight,
every other function's help outscored the one a question is about, whose help says nothing of
its words, and the list's line, a chunk of the class help, outscored the method it describes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from mcp_pruner_server.pruning.scoring import LEAD_WEIGHT, Doc, LineHits
from mcp_pruner_server.pruning.structure.code_blocks import Block

_COMMENT = re.compile(r"^\s*(?:%|#(?:[#\s]|$))")
# A help line listing a function: its name (qualified by its class or not), two spaces or more
# (or a dash), then what it does.
_LISTED = re.compile(r"^\s*%+\s+(?:\w+\.)?([A-Za-z]\w*)(?:\s{2,}|\s+-+\s+)\w")


def matlab_doc_bags(lines: Sequence[str], lh: LineHits, blocks: Sequence[Block]) -> Callable[[int, int], Doc]:
    """The bag of each block (by its index, up to its unit's end), its help and its class's list
    weighed as its doc (`help_led`)."""
    listed = listed_rows(lines, blocks)

    def bag(k: int, end: int) -> Doc:
        return help_led(lines, lh, blocks[k], end, listed.get(blocks[k].name or "", ()))

    return bag


def listed_rows(lines: Sequence[str], blocks: Sequence[Block]) -> dict[str, list[int]]:
    """The help lines (outside the function itself) listing each function of `blocks` by name."""
    spans = {b.name: (b.start, b.end) for b in blocks if b.name is not None}
    out: dict[str, list[int]] = {}
    for i, line in enumerate(lines):
        m = _LISTED.match(line)
        if m is None or m.group(1) not in spans:
            continue
        start, end = spans[m.group(1)]
        if not start <= i < end:
            out.setdefault(m.group(1), []).append(i)
    return out


def help_led(lines: Sequence[str], lh: LineHits, block: Block, end: int, listed: Sequence[int] = ()) -> Doc:
    """The bag of `block`'s lines up to `end`, plus the `listed` lines naming it elsewhere
    (`listed_rows`), in which its doc above, its help (the `%` lines after its signature) and
    those lines count `LEAD_WEIGHT` a line, the rest fully.

    For a MATLAB block in place of `LineHits.led` (`language_hooks`, through `matlab_doc_bags`)."""
    sig_end = block.sig_end if block.sig_end is not None else block.header + 1
    help_end = sig_end
    while help_end < end and _COMMENT.match(lines[help_end]):
        help_end += 1
    if help_end == sig_end and not listed:
        return lh.led(block.start, block.header, end)
    parts = [(lh.span(block.start, block.header), LEAD_WEIGHT), (lh.span(block.header, sig_end), 1.0)]
    parts += [(lh.span(sig_end, help_end), LEAD_WEIGHT), (lh.span(help_end, end), 1.0)]
    parts += [(lh.span(i, i + 1), LEAD_WEIGHT) for i in listed]
    hits: dict[str, float] = {}
    for doc, weight in parts:
        for term, tf in doc.hits.items():
            hits[term] = hits.get(term, 0.0) + weight * tf
    return Doc(hits, sum(doc.length for doc, _ in parts))
