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
# How many lines one form may span before the scan gives up on it (an unclosed bracket).
MAX_FORM_LINES = 5_000


def _form_end(lines: Sequence[str], row: int) -> int | None:
    """Exclusive end of the form opening at column 0 of `row`: the line after its closing `)`."""
    depth = 0
    in_string = False
    for j in range(row, min(len(lines), row + MAX_FORM_LINES)):
        line = lines[j]
        if in_string:  # a string goes on from the line above: find its closing quote
            close = re.search(r'(?<!\\)(?:\\\\)*"', line)
            if close is None:
                continue
            line, in_string = line[close.end() :], False
        for token in _TOKENS.finditer(line):
            text = token.group()
            if text[0] == '"':
                if not _CLOSED_STRING.fullmatch(text):
                    in_string = True  # opened here, closed on a line below
            elif text in "([{":
                depth += 1
            elif text in ")]}":
                depth -= 1
                if depth <= 0:
                    return j + 1
    return None


def clojure_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every top-level `(def…` form, with the `;` comments directly above."""
    out: list[Block] = []
    inside_until = 0
    for row in deadline.paced(range(len(lines))):
        if row < inside_until or not lines[row].startswith("("):
            continue
        head = _HEAD.match(lines[row])
        if head is None:
            continue
        end = _form_end(lines, row)
        if end is None:
            continue
        start = row
        while start > 0 and _COMMENT.match(lines[start - 1]):
            start -= 1
        out.append(Block(start, row, end, False, None, sig_end=row + 1, name=head.group(1)))
        inside_until = end
    return out
