"""Pure helpers: which lines a tool result shows, where its markers are, which needed lines it lost.

Pruned outputs number every kept line `N text` (original numbering; a blank line is left
bare), replace each removed block with one marker `[lines a-b pruned]` and name their
`prune_id` once, in the trailer line; `recover_text` numbers its lines `N│ text`. Outputs that
were not pruned are the raw text, numbered from 1 here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from mcp_pruner_server.pruning.model_view import MODEL_MARKER

_NUMBERED = re.compile(r"^(\d+)(?:│ ?| )(.*)$")
_TRAILER_ID = re.compile(r"prune_id=(\w+)")

NumberedLines = Mapping[int, str]


@dataclass(frozen=True)
class PrunedRange:
    """One marker: the original lines it hides (inclusive)."""

    start_line: int
    end_line: int

    def covers(self, line_no: int) -> bool:
        return self.start_line <= line_no <= self.end_line


def numbered(text: str) -> dict[int, str]:
    """The raw text's lines, numbered from 1."""
    return {i: line for i, line in enumerate(text.split("\n"), start=1)}


def shown_lines(text: str, pruned: bool) -> dict[int, str]:
    """The original line numbers and texts a tool output shows (markers excluded)."""
    if not pruned:
        return numbered(text)
    shown: dict[int, str] = {}
    for line in text.split("\n"):
        match = _NUMBERED.match(line)
        if match:
            shown[int(match.group(1))] = match.group(2)
    return shown


def served_lines(text: str, ranges: Sequence[Mapping[str, int]]) -> dict[int, str]:
    """The lines `recover_text` served without numbers, numbered by the `ranges` asked for."""
    numbers = [n for r in ranges for n in range(r["start_line"], r["end_line"] + 1)]
    return dict(zip(numbers, text.split("\n"), strict=False))


def markers(text: str) -> list[PrunedRange]:
    """Every pruned range a marker in `text` announces, in order."""
    found = []
    for line in text.split("\n"):
        match = MODEL_MARKER.match(line)
        if match:
            found.append(PrunedRange(int(match.group(1)), int(match.group(2))))
    return found


def trailer_prune_ids(text: str) -> list[str]:
    """The `prune_id`s the trailer (a pruned output's last line) names, in order."""
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    return _TRAILER_ID.findall(last) if last.startswith("[") else []


def missing(needed: NumberedLines, shown: NumberedLines) -> dict[int, str]:
    """The needed lines that `shown` does not carry with the same number and text."""
    return {n: text for n, text in needed.items() if shown.get(n) != text}


def ranges_covering(lines: Iterable[int], ranges: Sequence[PrunedRange]) -> list[PrunedRange]:
    """The markers hiding any of `lines`, each once, in order."""
    wanted = set(lines)
    return [r for r in ranges if any(r.covers(n) for n in wanted)]


def function_lines(source: str, name: str) -> dict[int, str]:
    """The non-blank lines of the top-level function `name` (decorators included), numbered.

    Raises:
        LookupError: the source defines no such function.
    """
    lines = numbered(source)
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            end = node.end_lineno or node.lineno
            return {n: lines[n] for n in range(start, end + 1) if lines[n].strip()}
    raise LookupError(f"no function {name!r}")


def failure_lines(log: str, test_name: str) -> dict[int, str]:
    """In a pytest log: the failing assertion (`>`), every `E ` line of `test_name`'s section
    and its `FAILED` summary line.

    Raises:
        LookupError: the log has no failure section for `test_name`.
    """
    lines = numbered(log)
    header = re.compile(r"^_{3,} " + re.escape(test_name) + r" _{3,}$")
    start = next((n for n, text in lines.items() if header.match(text)), None)
    if start is None:
        raise LookupError(f"no failure section for {test_name}")
    needed: dict[int, str] = {start: lines[start]}
    end = start + 1
    while end in lines and not re.match(r"^(_{3,} \S+ _{3,}|={3,} .* ={3,})$", lines[end]):
        if lines[end].startswith(("E ", ">")):
            needed[end] = lines[end]
        end += 1
    needed.update({n: t for n, t in lines.items() if t.startswith("FAILED") and f"::{test_name}" in t})
    return needed
