"""Clojure's top-level definitions, found by a scan of their own: blocks as a parser's.

A Clojure definition is one form at column 0, `(defn name "doc" [args] …)` (also `defn-`,
`defmacro`, `defmulti`, `defmethod`, `defprotocol`, `defrecord`, `deftype`, `def`, `defonce` …),
to the `)` that closes it (strings, `\\c` characters and `;` comments skipped). The
language-independent heuristics find the same forms by indentation, but not their names behind
type hints and metadata (`(defn ^Writer writer`, `(defn ^:private f`), so the rules that weigh a
definition's name (a name the question says, twins, callers) never applied. Here each form's name
is known; the `;` comments directly above are its doc, weighed as a parser's (`LEAD_WEIGHT` a
line); its docstring stays in its body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block

# `(def…` at column 0 and the defined name, past metadata: `^:private`, `^String`, `^{:k v}`.
_HEAD = re.compile(r"\((?:[\w.]+/)?def[\w-]*\s+(?:\^(?::[\w-]+|\{[^}]*\}|[\w.]+)\s+)*([^\s()\[\]{}\"^;]+)")
_COMMENT = re.compile(r"\s*;")
# A string, a character literal (`\(`, `\"`, `\;`, `\newline`), a comment, or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|\\(?:[a-z]+|.)|;.*|[()\[\]{}]')
_CLOSED_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[()\[\]{}]")
_STRING_CLOSE = re.compile(r'(?<!\\)(?:\\\\)*"')
# How many lines one form may span before the scan gives up on it (an unclosed bracket).
MAX_FORM_LINES = 5_000
# How many lines the scans of heads inside strings may read in one file, together.
FALLBACK_LINES = 20_000


def _brackets(line: str, in_string: bool) -> tuple[list[str], bool]:
    """The brackets of `line` (entered inside a string or not), and whether a string is open at its end."""
    if in_string:  # a string goes on from the line above: find its closing quote
        close = _STRING_CLOSE.search(line)
        if close is None:
            return [], True
        line, in_string = line[close.end() :], False
    if '"' not in line and "\\" not in line and ";" not in line:
        return _BRACKET.findall(line), False  # no string, character or comment: brackets alone
    out: list[str] = []
    for token in _TOKENS.finditer(line):
        text = token.group()
        if text[0] == '"':
            if not _CLOSED_STRING.fullmatch(text):
                in_string = True  # opened here, closed on a line below
        elif text in "([{" or text in ")]}":
            out.append(text)
    return out, in_string


def _form_end(lines: Sequence[str], row: int, max_lines: int = MAX_FORM_LINES) -> int | None:
    """Exclusive end of the form opening at column 0 of `row` (the line after its closing `)`),
    read from there on; None when it does not close within `max_lines`."""
    depth = 0
    in_string = False
    for j in range(row, min(len(lines), row + max_lines)):
        found, in_string = _brackets(lines[j], in_string)
        for text in found:
            depth += 1 if text in "([{" else -1
            if depth <= 0:
                return j + 1
    return None


def _form_ends(
    lines: Sequence[str], heads: dict[int, re.Match[str]], deadline: Deadline
) -> tuple[dict[int, int], set[int]]:
    """One pass from the top: the exclusive end of each head's form (`_form_end`'s answer), and
    the heads the pass reads as inside a string, left to a scan of their own.

    A scan from each head re-read the lines below every head that did not close: on 4,000
    lines of `(defn f [x]` the cost grew with the square of the file (12 s), and the prune hit
    its deadline. Here every bracket is paired once; a head at column 0 outside any string
    opens with its form's `(`, whose pair is the form's end."""
    ends: dict[int, int] = {}
    in_strings: set[int] = set()
    opened: list[int] = []  # per open bracket: the head whose form it opens, or -1
    in_string = False
    for j, line in deadline.paced(enumerate(lines)):
        first = j in heads
        if first and in_string:
            in_strings.add(j)
            first = False
        found, in_string = _brackets(line, in_string)
        for text in found:
            if text in "([{":
                opened.append(j if first else -1)
                first = False
            elif opened and (row := opened.pop()) >= 0 and j < row + MAX_FORM_LINES:
                ends[row] = j + 1
    return ends, in_strings


def clojure_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every top-level `(def…` form, with the `;` comments directly above."""
    heads = {
        row: head for row, line in enumerate(lines) if line.startswith("(") and (head := _HEAD.match(line))
    }
    ends, in_strings = _form_ends(lines, heads, deadline)
    budget = FALLBACK_LINES
    out: list[Block] = []
    inside_until = 0
    for row, head in heads.items():
        if row < inside_until:
            continue
        if row in in_strings:  # code quoted in a string: read it as a form of its own, within the budget
            max_lines = min(MAX_FORM_LINES, budget, len(lines) - row)
            found = _form_end(lines, row, max_lines) if max_lines > 0 else None
            budget -= max_lines if found is None else found - row
            if found is not None:
                ends[row] = found
        end = ends.get(row)
        if end is None:
            continue
        start = row
        while start > 0 and _COMMENT.match(lines[start - 1]):
            start -= 1
        out.append(Block(start, row, end, False, None, sig_end=row + 1, name=head.group(1)))
        inside_until = end
    return out
