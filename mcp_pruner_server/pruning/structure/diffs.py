"""Unified diffs (`git diff`, `git show`, `git log -p`, `diff -u`): hunks are units, files are named.

A hunk is kept or removed whole, scored with its file's name (the `+++ b/path` line counts as
its header) and shown under that line and, in `git log -p`, its commit's `commit <sha>` line; a
hunk longer than a section is scored in windows, each with those headers. A hunk that defines a
name the question names ranks first. Every file's first header line (`diff --git a/x b/x`)
stays, so the model sees which files changed even where their hunks were pruned — unless the
diff names so many files that their headers alone would be a good part of it. Lines outside
hunks (a commit's header and message, `index` and mode lines) are scored in windows, as a log's
unsectioned lines are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.scoring import LineHits
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.common import DIFF_HUNK, HUNK_LINE_FIRST_CHARS
from mcp_pruner_server.pruning.structure.grep_defs import defined_name
from mcp_pruner_server.pruning.structure.logs import (
    MAX_SECTION_LINES,
    MIN_NAMED_IDENTIFIER,
    WINDOW_LINES,
    scored_units,
)
from mcp_pruner_server.pruning.terms import identifiers

_FILE_START = re.compile(r"^(?:diff --git |diff -|Index: |--- \S)")
_NEW_FILE = re.compile(r"^\+\+\+ \S")
_COMMIT = re.compile(r"^commit [0-9a-f]{7,40}\b")
# File headers kept beyond this share of the diff's lines would crowd out its hunks.
MAX_HEADER_SHARE = 0.05
CHECK_EVERY_LINES = 1024  # how often the walk reads the clock

Span = tuple[int, int, int | None, bool]  # body start, body end, header, header shown as context


@dataclass
class _Layout:
    """What one walk over the diff finds."""

    spans: list[Span] = field(default_factory=list)  # hunks (or their windows), other lines' windows
    file_starts: list[int] = field(default_factory=list)  # each file's first header line
    commit_of: dict[int, int] = field(default_factory=dict)  # a hunk span's start -> its commit line


def diff_plan(
    lines: Sequence[str],
    lh: LineHits,
    query: dict[str, float],
    goal_hint: str,
    *,
    deadline: Deadline = NO_DEADLINE,
) -> tuple[list[Unit], list[int]]:
    """Units (hunks, windows of the other lines) and the lines that must stay (files' headers)."""
    layout = _walk(lines, deadline)
    units = scored_units(layout.spans, lh, query, deadline)
    units = [_under_commit(u, layout.commit_of) for u in units]
    units = _definitions_first(units, lines, goal_hint, layout.spans, deadline)
    starts = layout.file_starts
    return units, starts if len(starts) <= MAX_HEADER_SHARE * len(lines) else []


def _walk(lines: Sequence[str], deadline: Deadline) -> _Layout:
    layout = _Layout()
    n = len(lines)
    path_line: int | None = None  # the current file's `+++` line, or its first header line
    commit_line: int | None = None
    other_start: int | None = None  # where the current run of lines outside hunks began
    header_open = False  # a `diff --git` line seen, its hunks not yet
    i = next_check = 0
    while i < n:
        if i >= next_check:
            deadline.check()
            next_check = i + CHECK_EVERY_LINES
        line = lines[i]
        if DIFF_HUNK.match(line):
            _windows(layout.spans, other_start, i)
            other_start, header_open = None, False
            end = i + 1
            while end < n and lines[end][:1] in HUNK_LINE_FIRST_CHARS and not DIFF_HUNK.match(lines[end]):
                if _starts_file(lines, end):
                    break
                end += 1
            step = end - i if end - i <= MAX_SECTION_LINES else WINDOW_LINES  # a long hunk: windows
            for w in range(i, end, step):
                layout.spans.append((w, min(end, w + step), path_line, path_line is not None))
                if commit_line is not None:
                    layout.commit_of[w] = commit_line
            i = end
            continue
        if _COMMIT.match(line):
            commit_line = i
        # `--- a/x` after `diff --git a/x b/x` is the same file's header
        if _starts_file(lines, i) and not (line.startswith("--- ") and header_open):
            layout.file_starts.append(i)
            path_line = i
            header_open = not line.startswith("--- ")
        elif _NEW_FILE.match(line):
            path_line = i
        if other_start is None:
            other_start = i
        i += 1
    _windows(layout.spans, other_start, n)
    return layout


def _starts_file(lines: Sequence[str], i: int) -> bool:
    """A file's first header line: `diff --git`, `diff -u …`, `Index:`, or `---` before `+++`."""
    line = lines[i]
    if not _FILE_START.match(line):
        return False
    if line.startswith("--- "):
        return i + 1 < len(lines) and _NEW_FILE.match(lines[i + 1]) is not None
    return True


def _windows(spans: list[Span], start: int | None, end: int) -> None:
    if start is not None:
        spans.extend((w, min(end, w + WINDOW_LINES), None, False) for w in range(start, end, WINDOW_LINES))


def _under_commit(unit: Unit, commit_of: dict[int, int]) -> Unit:
    commit = commit_of.get(unit.lines[0])
    return unit if commit is None else replace(unit, context=(commit, *unit.context))


def _definitions_first(
    units: list[Unit], lines: Sequence[str], goal_hint: str, spans: Sequence[Span], deadline: Deadline
) -> list[Unit]:
    """A hunk defining a name the question names ranks above every other: "what does the new
    `peekErrorCode` do" asks for its definition, not for the test that calls it most often."""
    wanted = {w.lower() for w in identifiers(goal_hint) if len(w) >= MIN_NAMED_IDENTIFIER}
    if not wanted or not units:
        return units
    paths = {start: _path(lines[header]) for start, _, header, _ in spans if header is not None}
    top = max(u.score for u in units)
    out = []
    for unit in deadline.paced(units):
        path = paths.get(unit.lines[0], "")
        if path and any(_defines(lines[i], path, wanted) for i in unit.lines):
            unit = replace(unit, score=unit.score + top)
        out.append(unit)
    return out


def _defines(line: str, path: str, wanted: set[str]) -> bool:
    if line[:1] not in ("+", " "):  # a removed line defines nothing any more
        return False
    lowered = line.lower()
    if not any(w in lowered for w in wanted):  # most lines: no shape to read
        return False
    name = defined_name(line[1:], path)
    return name is not None and name.lower() in wanted


def _path(header: str) -> str:
    """The file a header line names: `+++ b/src/x.go` (`diff -u`'s `+++ x.go\tDATE`), or the last
    word of `diff --git a/src/x.go b/src/x.go` and `Index: x.go`."""
    named = header[4:].split("\t")[0].strip() if header.startswith("+++ ") else header.rsplit(" ", 1)[-1]
    return named[2:] if named.startswith(("a/", "b/")) else named
