"""R's definitions, found by a scan of its own where no grammar is installed: blocks as a parser's.

An R function is a value bound to a name, `name <- function(x) {…}` (also `<<-`, `=`, a
backquoted name, an R6 method's `name = function(…)` in a `list(`), so the language-independent
heuristics see only the one-line headers that end in `{`: a parameter list over several lines
went unseen, and a roxygen block (`#'` lines, often a hundred with its examples) counted as the
function's own code, so a question worded like a sibling's documentation found that sibling.
Here each function runs from its name to the `}` closing its body (strings, backquoted names
and `#` comments skipped), or to the end of a body without braces; the comments directly above
are its doc, which `code.py` weighs as a parser's (`LEAD_WEIGHT` a line); its name is known. A
function inside another is part of it, as a closure is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.r_brackets import GOES_ON, MAX_FUNCTION_LINES, RBrackets, code_of
from mcp_pruner_server.pruning.structure.r_roxygen import title_named_first

# `\(x)` is R 4.1's shorthand for `function(x)`.
R_FUNCTION = re.compile(
    r"^\s*(`[^`]+`|\"[^\"]+\"|'[^']+'|[A-Za-z.][\w.]*)\s*(?:<<-|<-|=)\s*(?:function|\\)\s*\("
)
# S4 defines a method (or a generic) by a call naming it first: `setMethod("show", "Interval",
# function(object) {…})`, `setGeneric("area", function(shape) standardGeneric("area"))`.
S4_DEFINITION = re.compile(r"^\s*(?:methods::)?set(?:Method|Generic|ReplaceMethod)\s*\(")
S4_NAME = re.compile(r"^\s*(?:methods::)?set\w+\s*\(\s*(?:[fn]\w*\s*=\s*)?[\"']([^\"']+)[\"']")
_FUNCTION_KEYWORD = re.compile(r"\bfunction\s*\(")
_COMMENT = re.compile(r"^\s*#")


def _function_end(
    lines: Sequence[str], header: int, column: int, max_lines: int = MAX_FUNCTION_LINES
) -> tuple[int, int] | None:
    """(exclusive end, exclusive end of the signature) of the function whose `(` is at `column`
    of `header`, read from there on (`RBrackets.function_end` looks it up); None when its
    brackets do not close within `max_lines`."""
    depth, quote, state = 0, "", "parameters"  # then "after", then "braces" or "bare"
    sig_end = header + 1
    for j in range(header, min(len(lines), header + max_lines)):
        code, quote = code_of(lines[j][column:] if j == header else lines[j], quote)
        for c in code:
            if state == "after" and not c.isspace():
                state = "braces" if c == "{" else "bare"
                sig_end = j + 1
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth < 0:
                    return None
                if depth == 0 and state == "parameters":
                    state = "after"
                elif depth == 0 and state == "braces":
                    return j + 1, sig_end
        if state == "bare" and depth == 0 and not quote and not GOES_ON.search(code):
            return j + 1, sig_end
    return None


def _call_end(
    lines: Sequence[str], header: int, column: int, max_lines: int = MAX_FUNCTION_LINES
) -> int | None:
    """The exclusive end of the call whose `(` is at `column` of `header`, read from there on
    (`RBrackets.call_end` looks it up); None when it does not close within `max_lines`."""
    depth, quote = 0, ""
    for j in range(header, min(len(lines), header + max_lines)):
        code, quote = code_of(lines[j][column:] if j == header else lines[j], quote)
        for c in code:
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    return j + 1
    return None


def _s4_method(lines: Sequence[str], brackets: RBrackets, header: int) -> tuple[int, int, str] | None:
    """(end, signature end, name) of the S4 method or generic `header` opens; None if it opens none."""
    head = S4_DEFINITION.match(lines[header])
    if head is None:
        return None
    column = head.end() - 1
    end = brackets.call_end(header, column, partial(_call_end, lines, header, column))
    if end is None:
        return None
    call = " ".join(lines[header:end])
    name = S4_NAME.match(call)
    if name is None:
        return None
    sig_end = end
    for j in range(header, end):  # the method's own parameters, when it is written in the call
        if (m := _FUNCTION_KEYWORD.search(lines[j])) is not None:
            found = brackets.function_end(j, m.end() - 1, partial(_function_end, lines, j, m.end() - 1))
            sig_end = min(found[1], end) if found is not None else end
            break
    return end, sig_end, name.group(1)


def r_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every R function bound to a name, and every S4 method and generic, not inside another,
    with the comments directly above."""
    brackets = RBrackets(lines, deadline)
    out: list[Block] = []
    inside_until = 0
    for i, line in deadline.paced(enumerate(lines)):
        if i < inside_until or ("function" not in line and "\\(" not in line and "set" not in line):
            continue
        head = R_FUNCTION.match(line)
        if head is not None:
            column = head.end() - 1
            found = brackets.function_end(i, column, partial(_function_end, lines, i, column))
            if found is None:
                continue
            (end, sig_end), name = found, head.group(1).strip("`\"'")
        elif (method := _s4_method(lines, brackets, i)) is not None:
            end, sig_end, name = method
        else:
            continue
        start = i
        while start > 0 and _COMMENT.match(lines[start - 1]):
            start -= 1
        out.append(Block(start, i, end, False, None, sig_end=sig_end, name=name))
        inside_until = end
    return out


# R's functions are named for what they do (`summarise`, `expand`, `recode`, `pivot_wider`), and a
# roxygen title opens with that verb ("Summarise each group …", "Expand data frame …") or with the
# name written as code ("`pivot_wider()` widens …"): a question so opened names the function as
# plainly as "The equal method …" does, and the function of that
# name (not its S3 methods, `summarise.data.frame`) scores this many times its own.
OPENING_NAME_BOOST = 2.0
_OPENING_WORD = re.compile(r"\W*([A-Za-z.][\w.]*)")


def opening_name_first(question: str, names: Sequence[str | None], scores: Sequence[float]) -> list[float]:
    """`scores` with the function named by the question's first word raised by `OPENING_NAME_BOOST`,
    and each function whose name words all open the question by `r_roxygen.TITLE_NAME_BOOST`."""
    m = _OPENING_WORD.match(question)
    if m is not None:
        word = m.group(1).rstrip(".").lower()
        scores = [
            s * OPENING_NAME_BOOST if name is not None and name.lower() == word else s
            for s, name in zip(scores, names, strict=True)
        ]
    return title_named_first(question, names, scores)
