"""R's brackets read once for the whole file, so that each function's end is looked up, not scanned.

`r_blocks` used to scan from each header to the bracket closing its function. On a file whose
brackets do not close (4,000 lines of `f <- function(x) {`, a paste cut short), each header's
scan ran to the end of the file (or `MAX_FUNCTION_LINES` below it): the cost grew with the
square of the file (32 s for 4,000 lines), so the prune hit its deadline and returned the text
unpruned. Here one pass from the top reads every line's code (strings and comments skipped, as
the scan did), pairs each opening bracket with its closing one and notes the depth at each
line's end; a function's end is then a look-up in those tables, and the answers are the scan's.

A header the pass reads as inside a string or a comment (the scan started it afresh: code
quoted in a string, a pass misled by an odd quote) is still scanned as before, within a budget
of `FALLBACK_LINES` for the file, past which such headers open no function.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence

from mcp_pruner_server.pruning.deadline import Deadline

# A line whose expression goes on below: it ends in an operator, a comma or an opening bracket.
GOES_ON = re.compile(r"(?:[-+*/^|&,=<>~!(\[{]|%[^%]*%|<-)\s*$")
# How many lines one function may span before it is given up on (an unclosed bracket).
MAX_FUNCTION_LINES = 5_000
# How many lines the scans of headers inside strings may read in one file, together.
FALLBACK_LINES = 20_000
_BRACKET = re.compile(r"[()\[\]{}]")
_QUOTES = "\"'`"
_CODE_RUN = re.compile(r"[^\"'`#]+")
# The rest of a string up to its closing quote, a backslash escaping the character after it.
_STRING_REST = {q: re.compile(rf"(?:[^{q}\\]|\\.)*{q}", re.DOTALL) for q in _QUOTES}
_NON_SPACE = re.compile(r"\S")

Position = tuple[int, int]  # (row, index in that row's code)


def code_of(line: str, quote: str) -> tuple[str, str]:
    """`line`'s code outside strings and its comment, and the quote still open at its end."""
    out: list[str] = []
    k = 0
    if quote:
        close = _STRING_REST[quote].match(line)
        if close is None:
            return "", quote
        k = close.end()
    while k < len(line):
        c = line[k]
        if c == "#":
            break
        if c in _QUOTES:
            close = _STRING_REST[c].match(line, k + 1)
            if close is None:
                return "".join(out), c
            k = close.end()
            continue
        run = _CODE_RUN.match(line, k)
        assert run is not None  # `c` is neither a quote nor `#`
        out.append(run.group())
        k = run.end()
    return "".join(out), ""


def _code_index(line: str, column: int, quote: str) -> int | None:
    """How many code characters of `line` (entered with `quote` open) come before `column`; None
    when `column` is inside a string or a comment."""
    count, k = 0, 0
    while k < column:
        c = line[k]
        if quote:
            if c == "\\":
                k += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        elif c == "#":
            return None
        else:
            count += 1
        k += 1
    return None if quote else count


class RBrackets:
    """One pass over an R file: each line's code, each opening bracket's closing one (and the
    bracket it is nested in), the depth at each line's end."""

    def __init__(self, lines: Sequence[str], deadline: Deadline) -> None:
        self.lines = lines
        self.codes: list[str] = []
        self.entry_quote: list[str] = []
        self.exit_quote: list[str] = []
        self.end_depth: list[int] = []
        self.closing: dict[Position, Position] = {}
        self.enclosing: dict[Position, Position | None] = {}
        self.depth_before: dict[Position, int] = {}
        self.strays: list[Position] = []  # closing brackets with none open
        self.fallback_budget = FALLBACK_LINES
        # the rows ending at each depth outside any string, whose expression ends there
        self._rows_ending: dict[int, list[int]] = {}
        stack: list[Position] = []
        quote = ""
        for j, line in deadline.paced(enumerate(lines)):
            self.entry_quote.append(quote)
            code, quote = code_of(line, quote)
            self.codes.append(code)
            self.exit_quote.append(quote)
            for m in _BRACKET.finditer(code):
                at = (j, m.start())
                if m.group() in "([{":
                    self.enclosing[at] = stack[-1] if stack else None
                    self.depth_before[at] = len(stack)
                    stack.append(at)
                elif stack:
                    self.closing[stack.pop()] = at
                else:
                    self.strays.append(at)
            self.end_depth.append(len(stack))
            if not quote and not GOES_ON.search(code):
                self._rows_ending.setdefault(len(stack), []).append(j)

    def _opening(self, row: int, column: int) -> Position | None:
        """The position of the bracket at `column` of `row`; None when the pass read it as inside
        a string or a comment."""
        index = _code_index(self.lines[row], column, self.entry_quote[row])
        return None if index is None else (row, index)

    def _scan_lines(self, header: int) -> int:
        """How many lines the scan of a header inside a string may read: what is left of the budget."""
        return min(MAX_FUNCTION_LINES, self.fallback_budget, len(self.lines) - header)

    def call_end(self, header: int, column: int, scan: Callable[[int], int | None]) -> int | None:
        """The exclusive end of the call whose `(` is at `column` of `header`; None when unclosed."""
        opening = self._opening(header, column)
        if opening is None:
            lines = self._scan_lines(header)
            found = scan(lines) if lines > 0 else None
            self.fallback_budget -= lines if found is None else found - header
            return found
        close = self.closing.get(opening)
        if close is None or close[0] >= header + MAX_FUNCTION_LINES:
            return None
        return close[0] + 1

    def function_end(
        self, header: int, column: int, scan: Callable[[int], tuple[int, int] | None]
    ) -> tuple[int, int] | None:
        """(exclusive end, exclusive end of the signature) of the function whose `(` is at
        `column` of `header`, as `r_blocks` defines them; None when its brackets do not close.
        `scan(max_lines)` answers for a header inside a string."""
        opening = self._opening(header, column)
        if opening is None:
            lines = self._scan_lines(header)
            found = scan(lines) if lines > 0 else None
            self.fallback_budget -= lines if found is None else found[0] - header
            return found
        limit = min(len(self.lines), header + MAX_FUNCTION_LINES)
        close = self.closing.get(opening)
        if close is None or close[0] >= limit:
            return None
        # the body: from the first character after the parameters, on their line or below
        row, start = close[0], close[1] + 1
        while (first := _NON_SPACE.search(self.codes[row], start)) is None:
            row, start = row + 1, 0
            if row >= limit:
                return None
        sig_end = row + 1
        if first.group() == "{":
            brace_close = self.closing.get((row, first.start()))
            if brace_close is None or brace_close[0] >= limit:
                return None
            return brace_close[0] + 1, sig_end
        # a body without braces ends with the first line back at the header's depth whose
        # expression ends there, before the bracket around the header closes
        outer = self.enclosing[opening]
        if outer is None:
            k = bisect.bisect_right(self.strays, close)
            stop = self.strays[k][0] if k < len(self.strays) else len(self.lines)
        else:
            outer_close = self.closing.get(outer)
            stop = outer_close[0] if outer_close is not None else len(self.lines)
        stop = min(stop, limit)
        depth = self.depth_before[opening]
        if row == header:  # the header's own line is read from the function on
            segment = code_of(self.lines[header][column:], "")[0]
            if header < stop and self._ends_at(header, depth) and not GOES_ON.search(segment):
                return header + 1, sig_end
            row = header + 1
        rows = self._rows_ending.get(depth, [])
        k = bisect.bisect_left(rows, row)
        if k < len(rows) and rows[k] < stop:
            return rows[k] + 1, sig_end
        return None

    def _ends_at(self, row: int, depth: int) -> bool:
        """Whether `row` ends at `depth` outside any string."""
        return not self.exit_quote[row] and self.end_depth[row] == depth
