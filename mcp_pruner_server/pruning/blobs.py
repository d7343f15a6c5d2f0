"""Data blobs: long lines of base64 or hex (a notebook's images, an embedded font, a data URI,
a key) that no question reads. The engine reads each as the word `BLOB`; a unit holding one keeps
its other lines, and the blob goes only when the options' floor leaves nothing else to keep (its
marker recovers it like any pruned line) — unless the question names the rest of its line
(`ICON = "iVBORw0…"`, "where is ICON set?").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from mcp_pruner_server.pruning.select import Unit

# A line is looked at from this length on: a hash or a short token is read as any word is.
BLOB_MIN_CHARS = 1000
# The share of a line in runs of base64 characters for it to be a blob (the rest: its JSON key
# and quotes, a `data:image/png;base64,` prefix).
BLOB_SHARE = 0.9
_RUN = re.compile(r"[A-Za-z0-9+/=_-]{200,}")
_SHORT = "BLOB"


def blob_lines(lines: Sequence[str]) -> frozenset[int]:
    """The lines that are data blobs."""
    # the long lines first, in one comprehension over their lengths: a generator testing every
    # line took 0.2 s of a 50 MB log's prune
    long_lines = [i for i, length in enumerate(map(len, lines)) if length >= BLOB_MIN_CHARS]
    return frozenset(
        i for i in long_lines if sum(map(len, _RUN.findall(lines[i]))) >= BLOB_SHARE * len(lines[i])
    )


def blobs_cut_short(lines: Sequence[str], blobs: frozenset[int]) -> list[str] | None:
    """`lines` with the runs of each blob (`blob_lines`) cut to a word (`BLOB`: a string stays a
    string), or None when there is none: the engine reads the text without a megabyte of noise."""
    if not blobs:
        return None
    return [_RUN.sub(_SHORT, line) if i in blobs else line for i, line in enumerate(lines)]


def without_blobs(units: Sequence[Unit], blobs: frozenset[int]) -> list[Unit]:
    """`units` without their blob lines (a unit of blobs only is gone)."""
    out = []
    for unit in units:
        lines = tuple(i for i in unit.lines if i not in blobs)
        if lines:
            context = tuple(i for i in unit.context if i not in blobs)
            out.append(replace(unit, lines=lines, context=context))
    return out
