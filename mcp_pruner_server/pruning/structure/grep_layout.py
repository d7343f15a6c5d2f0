"""grep / ripgrep listings: which lines are hits, their files and their texts.

Layouts: flat (`path:12:text`, context `path-13-text`), `--column` (`path:12:9:text`), no line
numbers (`path:text`: `rg` into a pipe, `grep -r`), and `--heading` (the path alone on a line,
then `12:text` / `13-context` lines, groups separated by blank lines or `--`). The layout is
recognised from a text's first lines, with no path given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.languages.registry import LANGUAGES

# `path:12:text` / `path-12-text` (context) but not a diagnostic, `path:12:9: message` or mypy's
# `path:12: error: message`; the path holds a `.` or `/` and no space, so a timestamp
# (`2026-01-01 12:00`) is no path. `rg --column`'s `path:12:9:    indented code` is a hit: a
# diagnostic's message follows one space. A match's `:12:` is looked for first: `x86-64-linux/a.c:12:`
# is no context line `-64-` of `x86`.
# A path may hold spaces (`Tests/TreeSet Tests.swift`) when it has a directory and a file extension.
_SPACED_PATH = r"[^:]*?/[^:/]*\.[A-Za-z0-9]{1,8}"
_FLAT = re.compile(
    rf"^(?=[^\s:]*[./])(?:[^\s:]+?:\d+:|[^\s:]+?-\d+-|{_SPACED_PATH}(?::\d+:|-\d+-))"
    r"(?!\d+: (?! )|\s?(?:error|warning|note):)"
)
# `rg` into a pipe and `grep -r` print no line numbers: `path:text`. The path has a `/` or ends
# with a file extension one knows (a logger's `app.main: started` is no path), and no `(` (tsc's
# `src/a.ts(12,5): error`); not pytest's `a.py::test_x`. Known: a parsed language's, Python's, these.
_TEXT_EXTENSIONS = (  # noqa: SIM905 (forty words read better as words)
    "py pyi pyw md rst txt json jsonl yaml yml toml cfg ini conf xml html htm css scss sql kt kts swift "
    "scala ex exs lua hs m mm dart vue svelte gradle properties lock proto graphql tf mk cmake"
).split()
_KNOWN_EXTENSION = "|".join(
    sorted(
        {e.lstrip(".") for lang in LANGUAGES.values() if lang.grammar is not None for e in lang.extensions}
        | set(_TEXT_EXTENSIONS),
        key=len,
        reverse=True,
    )
)
_PLAIN = re.compile(rf"^(?:[^\s:=()]*/[^\s:=()]*|[^\s:=()/]+\.(?i:{_KNOWN_EXTENSION})):(?!\d+:|:)")
# Under a heading: `12:text`, `12-context`.
_NUMBERED = re.compile(r"^\d+[:-]")
# A heading is a path: no spaces around (inside only as `_SPACED_PATH`), no `:` followed by a digit.
_PATH = re.compile(rf"^(?=\S*[./])[^\s:](?:\S*|{_SPACED_PATH})$")
_SEPARATOR = "--"
# `rg --column`'s column, after the line number: `9:` of `path:12:9:text`.
COLUMN = re.compile(r"^\d+:")
# The text is grep output when at least this fraction of its non-blank lines are hits (the
# rest headings and separators), over at least `MIN_GREP_LINES` of them.
MIN_GREP_FRACTION = 0.8
MIN_GREP_LINES = 3
# Only the first lines are looked at to recognise the layout: a listing is uniform.
SNIFF_LINES = 200


def grep_headings(lines: Sequence[str]) -> list[int | None] | None:
    """Per line, the heading line of its hit (itself for a flat hit, None for headings and
    blanks); None when the text is not grep output."""
    sample = [line for line in lines[:SNIFF_LINES] if line.strip() and line != _SEPARATOR]
    if len(sample) < MIN_GREP_LINES:
        return None
    numbered = sum(1 for line in sample if _NUMBERED.match(line))
    for flat in (_FLAT, _PLAIN):
        if sum(1 for line in sample if flat.match(line)) >= MIN_GREP_FRACTION * len(sample):
            return [i if flat.match(line) else None for i, line in enumerate(lines)]
    heads = sum(1 for line in sample if not _NUMBERED.match(line) and _PATH.match(line))
    if numbered + heads < len(sample) or numbered < heads or _NUMBERED.match(sample[0]):
        return None
    out: list[int | None] = []
    heading: int | None = None
    for i, line in enumerate(lines):
        if _NUMBERED.match(line) and heading is not None:
            out.append(heading)
            continue
        out.append(None)
        if _PATH.match(line) and line != _SEPARATOR:
            heading = i
        elif line.strip() and line != _SEPARATOR:
            return None  # a line that is neither: not a heading listing after all
    return out


def with_columns(lines: Sequence[str], headings: Sequence[int | None]) -> bool:
    """Whether every hit (of the first `SNIFF_LINES`) has a column before its text, as
    `rg --column` / `--vimgrep` print it (`path:12:9:text`)."""
    texts = [
        path_and_text(lines[i], lines[h] if h != i else None)[1]
        for i, h in enumerate(headings[:SNIFF_LINES])
        if h is not None and is_match(lines[i], h != i)
    ]
    return bool(texts) and all(COLUMN.match(t) for t in texts)


def is_match(line: str, under_heading: bool) -> bool:
    """A matching line (`path:12:` / `12:`), not a context line (`path-12-` / `12-`), which
    has no column."""
    return _line_mark(line, under_heading) == ":"


def _line_mark(line: str, under_heading: bool) -> str | None:
    """The mark after a hit's line number: `:` for a match, `-` for a context line."""
    m = (_NUMBERED if under_heading else _FLAT).match(line)
    return line[m.end() - 1] if m is not None else None


def path_and_text(line: str, heading: str | None) -> tuple[str, str]:
    if heading is not None:
        return heading, line.split(":", 1)[-1]
    m = _FLAT.match(line)
    if m is not None:
        return re.sub(r"[:-]\d+[:-]$", "", line[: m.end()]), line[m.end() :]
    m = _PLAIN.match(line)
    return (line[: m.end() - 1], line[m.end() :]) if m else ("", line)


@dataclass
class Around:
    """The context lines (`rg -C`) of a listing's matches."""

    groups: dict[int, tuple[int, ...]] = field(default_factory=dict)  # match -> it and its context lines
    owner: dict[int, int] = field(default_factory=dict)  # context line -> its match


def context_of_matches(
    lines: Sequence[str], headings: Sequence[int | None], *, deadline: Deadline = NO_DEADLINE
) -> Around:
    """Each context line goes with the nearest match of its run (consecutive lines of one file:
    a separator, a blank or a heading ends it), the one above on a tie: a match is read with
    the lines around it, which were asked for.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    around = Around()
    marked = deadline.paced(enumerate(headings))
    if not any(head is not None and _is_context(lines[i], head != i) for i, head in marked):
        return around  # no context lines (most listings): nothing to attach
    run: list[int] = []
    for i, head in deadline.paced(enumerate(headings)):
        if run and (head is None or not _continues(lines, headings, run[-1], i)):
            _attach(lines, headings, run, around)
            run = []
        if head is not None:
            run.append(i)
    if run:
        _attach(lines, headings, run, around)
    return around


def _continues(lines: Sequence[str], headings: Sequence[int | None], last: int, i: int) -> bool:
    """Whether hit line `i` follows hit line `last` in one run of the same file."""
    if i != last + 1:
        return False
    if headings[i] != i:  # under a heading
        return headings[i] == headings[last]
    return path_and_text(lines[i], None)[0] == path_and_text(lines[last], None)[0]


def _is_context(line: str, under_heading: bool) -> bool:
    return _line_mark(line, under_heading) == "-"


def _attach(lines: Sequence[str], headings: Sequence[int | None], run: list[int], around: Around) -> None:
    matches = [k for k in run if not _is_context(lines[k], headings[k] != k)]
    if not matches or len(matches) == len(run):
        return
    groups: dict[int, list[int]] = {m: [m] for m in matches}
    at = 0  # matches[at] is the last match at or above k
    for k in run:
        while at + 1 < len(matches) and matches[at + 1] <= k:
            at += 1
        if k in groups:
            continue
        above = matches[at] if matches[at] < k else None
        below = next((m for m in matches[at:] if m > k), None)
        nearest = above if below is None or (above is not None and k - above <= below - k) else below
        assert nearest is not None
        around.owner[k] = nearest
        groups[nearest].append(k)
    for m, group in groups.items():
        around.groups[m] = tuple(sorted(group))
