"""PowerShell's lines read as PowerShell reads them: its comments, strings and braces.

The heuristics' brace scan knows C's strings and comments: in PowerShell a backtick is no string
but an escape (a line ending in one continues on the next), `#` and `<# … #>` are its comments, a
here-string (`@" … "@`) spans lines, and `''` / `""` escape a quote. Read as C, one backtick or
apostrophe (`# don't`) hid every brace after it. Here each line's code (comments blanked) and its
braces outside strings and comments are found in one pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline

# What a line in code can do: open a block comment, a comment, a string, a here-string (`@"` last
# on its line), a braced variable (`${env:ProgramFiles(x86)}`, whose braces are its name's), escape
# a character, open or close a brace, and in a subexpression open or close a parenthesis.
_CODE_STOPS = re.compile(r"<#|#|@['\"]\s*$|['\"]|\$\{|`|[{}()]")
# In a double-quoted string: an escape, its end, or a subexpression (`"$($x.Name)"`), code again.
_DOUBLE_STOPS = re.compile(r"`|\"|\$\(")
# A `#` starts a comment where a token may start (`a#b` is one word to PowerShell).
_TOKEN_BEFORE = frozenset(" \t;(){}|,=")
# A line longer than this is not lexed (minified or generated data): it holds no brace to follow.
MAX_LEXED_LINE_CHARS = 5_000

# What the text at a point is: code, a subexpression of a string (code up to its `)`), a block
# comment, a single- or double-quoted string, a here-string. Strings and subexpressions nest.
_CODE, _SUB, _COMMENT, _SINGLE, _DOUBLE, _HERE_SINGLE, _HERE_DOUBLE = range(7)
_HERE_END = {_HERE_SINGLE: "'@", _HERE_DOUBLE: '"@'}


@dataclass(frozen=True)
class Lexed:
    """Per line: its code with its comments blanked (spaces in their place, so a column of the
    code is the line's: the braces' columns index it), whether it starts in code (not inside a
    string or comment), and its braces outside strings and comments as (column, `{` or `}`);
    `closed` when the text ends in code (a string or comment left open says it was misread)."""

    code: list[str]
    starts_in_code: list[bool]
    braces: list[list[tuple[int, str]]]
    closed: bool


def lex(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> Lexed:
    """Each line's code, state and braces (see `Lexed`).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    code: list[str] = []
    starts: list[bool] = []
    braces: list[list[tuple[int, str]]] = []
    stack = [_CODE]  # the states entered and not yet left
    depth = [0]  # per state: the open parentheses of a subexpression
    for line in deadline.paced(lines):
        state = stack[-1]
        starts.append(state == _CODE)
        found: list[tuple[int, str]] = []
        braces.append(found)
        if state in _HERE_END:
            if line.lstrip().startswith(_HERE_END[state]):
                stack.pop()
                depth.pop()
            code.append("")
            continue
        if len(line) > MAX_LEXED_LINE_CHARS:
            code.append("" if state == _COMMENT else line)
            continue
        parts: list[str] = []  # the line's code, each comment's columns as spaces
        code_from = -1 if state == _COMMENT else 0
        comment_from = 0  # where the block comment open on this line began
        k = 0
        n = len(line)
        while k < n:
            state = stack[-1]
            if state == _COMMENT:
                close = line.find("#>", k)
                if close < 0:
                    break
                stack.pop()
                depth.pop()
                k = code_from = close + 2
                parts.append(" " * (code_from - comment_from))
            elif state == _SINGLE:
                close = line.find("'", k)
                if close < 0:
                    break
                if line.startswith("''", close):
                    k = close + 2
                else:
                    stack.pop()
                    depth.pop()
                    k = close + 1
            elif state == _DOUBLE:
                stop = _DOUBLE_STOPS.search(line, k)
                if stop is None:
                    break
                k, token = stop.start(), stop.group()
                if token == "$(":
                    stack.append(_SUB)
                    depth.append(1)
                    k += 2
                elif token == "`" or line.startswith('""', k):
                    k += 2
                else:
                    stack.pop()
                    depth.pop()
                    k += 1
            else:
                stop = _CODE_STOPS.search(line, k)
                if stop is None:
                    break
                k, token = stop.start(), stop.group()
                k += len(token)
                if token == "<#":
                    parts.append(line[code_from : k - 2])
                    code_from = -1
                    comment_from = k - 2
                    stack.append(_COMMENT)
                    depth.append(0)
                elif token == "#":
                    if k == 1 or line[k - 2] in _TOKEN_BEFORE:
                        parts.append(line[code_from : k - 1])
                        code_from = -1
                        break
                elif token.startswith("@"):
                    stack.append(_HERE_SINGLE if token[1] == "'" else _HERE_DOUBLE)
                    depth.append(0)
                    break
                elif token in ("'", '"'):
                    stack.append(_SINGLE if token == "'" else _DOUBLE)
                    depth.append(0)
                elif token == "${":
                    close = line.find("}", k)
                    k = n if close < 0 else close + 1
                elif token == "`":
                    k += 1
                elif token in "{}":
                    found.append((k - 1, token))
                elif state == _SUB:
                    depth[-1] += 1 if token == "(" else -1
                    if depth[-1] == 0:
                        stack.pop()
                        depth.pop()
        if code_from >= 0:
            parts.append(line[code_from:])
        code.append("".join(parts))
    return Lexed(code, starts, braces, stack == [_CODE])


def brace_closes(lexed: Lexed) -> dict[tuple[int, int], int]:
    """The line each `{` (by line and column) is closed on; an unclosed one is left out."""
    out: dict[tuple[int, int], int] = {}
    stack: list[tuple[int, int]] = []
    for i, found in enumerate(lexed.braces):
        for col, brace in found:
            if brace == "{":
                stack.append((i, col))
            elif stack:
                out[stack.pop()] = i
    return out
