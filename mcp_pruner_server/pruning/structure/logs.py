"""Logs: errors always stay, sections (pytest's `____ test ____`, `==== FAILURES ====`) are units.

Every error / exception / traceback / `E ` / FAILED line is kept with its neighbours, a
Python traceback is kept whole, and the section the question names (by exact identifier
or by terms) is kept whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.lineindex import LineIndex
from mcp_pruner_server.pruning.scoring import Doc, LineHits, bm25_sparse
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.structure.diagnostics import belonging, diagnostic_lines
from mcp_pruner_server.pruning.structure.grep import grep_units
from mcp_pruner_server.pruning.structure.grep_layout import grep_headings
from mcp_pruner_server.pruning.terms import identifiers

_ERROR = re.compile(
    r"\b(?:error|errors|exception|traceback|fatal|panic|panicked|critical|failed|failing|failure|failures|aborted|"
    r"segmentation fault|core dumped|assert|assertion)\b|^E\s|^FAIL|^ERROR|^>\s|(?:error|exception):"
    # an exception's class named alone: pytest's `test_a.py:9: KeyError`
    r"|(?-i:[A-Za-z](?:Error|Exception)\b)",
    re.IGNORECASE,
)
_TRACEBACK_TEXT = "Traceback (most recent call last):"
_TRACEBACK = re.compile(r"^\s*" + re.escape(_TRACEBACK_TEXT))
_HEADER_CHARS = "=_-*#~"
_HEADER = re.compile(r"^([=_\-*#~])\1{2,}\s*(\S.*?)\s*\1{3,}\s*$")
# What every `_ERROR` match holds (lower case), found over the whole text before the regex runs
# on those lines only; `^E\s` and `^>\s` are found by their first character.
_ERROR_NEEDLES = (
    "error",
    "exception",
    "traceback",
    "fatal",
    "panic",
    "critical",
    "fail",
    "segmentation fault",
    "core dumped",
    "assert",
    "aborted",
)
_ERROR_FIRST_CHARS = "Ee>"
# Lines either side of an error line that stay with it (the call or assertion that led to it).
ERROR_CONTEXT = 1
# What else belongs to an error (code frame, notes, stack frames): `diagnostics.py`.
# A traceback longer than this keeps its first and last frames only (a deep recursion).
MAX_TRACEBACK_LINES = 80
# A section longer than this is scored in windows of `WINDOW_LINES` (each with the header).
MAX_SECTION_LINES = 120
WINDOW_LINES = 20
HEADER_WEIGHT = 3
# An identifier the question names (`test_parse`, `app.py`) keeps every log line holding it
# from this length on: shorter ones (`a.b`, `io`) are in too many lines to point at any.
MIN_NAMED_IDENTIFIER = 4


def _tracebacks(lines: Sequence[str], index: LineIndex, deadline: Deadline) -> list[int]:
    out: list[int] = []
    n = len(lines)
    for i in deadline.paced(index.lines_containing([_TRACEBACK_TEXT], ignore_case=False, deadline=deadline)):
        line = lines[i]
        if not _TRACEBACK.match(line):
            continue
        base = len(line) - len(line.lstrip())
        j = i + 1
        while j < n and lines[j].strip() and len(lines[j]) - len(lines[j].lstrip()) > base:
            j += 1
        end = min(j + 1, n)  # the exception line itself
        span = list(range(i, end))
        if len(span) > MAX_TRACEBACK_LINES:
            half = MAX_TRACEBACK_LINES // 2
            span = span[:half] + span[-half:]
        out.extend(span)
    return out


def _sections(lines: Sequence[str], index: LineIndex, deadline: Deadline) -> list[tuple[int, int]]:
    """Each section header with its own body: up to the next header of any rank.

    A section's body stops at its first sub-header, and sub-sections are units of their own
    (so a `____ test ____` failure inside `==== FAILURES ====` is one unit, not part of two).
    """
    candidates = index.lines_starting_with(_HEADER_CHARS)
    starts = [i for i in deadline.paced(candidates) if _HEADER.match(lines[i])]
    ends = [*starts[1:], len(lines)] if starts else []
    return list(zip(starts, ends, strict=True))


def logs_plan(
    lines: Sequence[str],
    lh: LineHits,
    query: dict[str, float],
    goal_hint: str,
    *,
    index: LineIndex | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> tuple[list[Unit], list[int]]:
    """Units (sections, windows of unsectioned lines) and the lines that must stay.

    Only units with a positive score are returned (the others are never chosen). `index` is
    built from `lines` when not given. grep output has units of its own (`grep.py`).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    n = len(lines)
    headings = grep_headings(lines)
    if headings is not None:
        return grep_units(lines, headings, lh, query, goal_hint=goal_hint, deadline=deadline), []
    index = index or LineIndex("\n".join(lines), lines)
    must: set[int] = set(_tracebacks(lines, index, deadline))
    wanted = {w for w in identifiers(goal_hint) if len(w) >= MIN_NAMED_IDENTIFIER}
    errors = set(index.lines_containing(_ERROR_NEEDLES, ignore_case=True, deadline=deadline))
    errors.update(index.lines_starting_with(_ERROR_FIRST_CHARS))
    named = set(index.lines_containing(wanted, ignore_case=True, deadline=deadline))
    diagnostics = set(diagnostic_lines(index.text, lines, index, deadline))
    for i in deadline.paced(sorted(errors | named | diagnostics)):
        line = lines[i]
        if i in diagnostics or (i in errors and _ERROR.search(line)):
            must.update(range(max(0, i - ERROR_CONTEXT), min(n, i + ERROR_CONTEXT + 1)))
            must.update(belonging(lines, i))
        elif i in named and any(w in line.lower() for w in wanted):
            must.add(i)
    # (body start, body end, header or None, header shown as context); in the order ties are ranked
    spans: list[tuple[int, int, int | None, bool]] = []
    sections = _sections(lines, index, deadline)
    for start, end in sections:
        if end - start <= MAX_SECTION_LINES:
            spans.append((start, end, start, False))
        else:
            spans.extend(
                (w, min(end, w + WINDOW_LINES), start, True) for w in range(start + 1, end, WINDOW_LINES)
            )
    # sections run to the next header and the last one to the end: only the head is unsectioned
    unsectioned = sections[0][0] if sections else n
    spans.extend(
        (w, min(unsectioned, w + WINDOW_LINES), None, False) for w in range(0, unsectioned, WINDOW_LINES)
    )
    return scored_units(spans, lh, query, deadline), sorted(must)


def scored_units(
    spans: Sequence[tuple[int, int, int | None, bool]],
    lh: LineHits,
    query: dict[str, float],
    deadline: Deadline,
) -> list[Unit]:
    """BM25 over every span (its header counted `HEADER_WEIGHT` more times), computed only for
    the spans holding a question term: the others score 0 but count in the average length."""
    total = 0
    docs: dict[int, Doc] = {}
    for k, (start, end, header, _) in enumerate(deadline.paced(spans)):
        repeat = [header] * HEADER_WEIGHT if header is not None else []
        total += lh.prefix[end] - lh.prefix[start] + sum(lh.lengths[i] for i in repeat)
        if lh.has_hits(start, end) or (header is not None and lh.hits[header]):
            docs[k] = lh.span(start, end, repeat=repeat)
    scores = bm25_sparse(query, docs, len(spans), total, deadline=deadline)
    units = []
    for k, score in scores.items():
        if score > 0:
            start, end, header, shown = spans[k]
            context = (header,) if shown and header is not None else ()
            units.append(Unit(tuple(range(start, end)), score, context))
    return units
