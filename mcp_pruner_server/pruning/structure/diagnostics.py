"""Build tools' diagnostics: the error lines with no error word, and what belongs to an error.

`logs.py` keeps every error line; this module finds the errors its words miss (Go's
`stock.go:16:9: invalid operation …`, pip's `× … did not run successfully`, `--- FAIL:`,
Gradle's `* What went wrong:`, a shell's `line 37: x: command not found`, Jest's `●`, PHPUnit's
`✘`, ruff's `F821 …` over its ` --> a.py:4:12`, Kotlin's `e: …`, `npm ERR!`) and, for an error
line, the lines that belong to it: the code frame, `note:` / `help:` lines (gcc's `file:l:c:
note:` too), `│` / `╰─>` boxes, javac's source line, caret, `symbol:` and `location:`, stack
frames (`at …` of Java and Node, `Caused by:`, `... 3 more`, Go's `goroutine 7 [running]:`
with its function and `/path.go:12 +0x1d` lines, Ruby's `from app.rb:10:in`, PHP's `#0 …`,
Rust's `stack backtrace:`), the lines indented deeper than it (or than its numbered title:
`  1) cart totals case 1`), the lines it is indented under (eslint's file line) and, above a
Node or OCaml error, its `file.js:6` / `File "x.ml", line 3` location with its source line and
caret.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import Deadline
from mcp_pruner_server.pruning.lineindex import LineIndex

# `path:line:col: message` that is not a warning or a note (those are not errors of their own).
_LOCATED = re.compile(
    r"(?:vet: )?[^\s:]+\.\w+:\d+:\d+: (?!warning\b|note\b|remark\b)"
)  # `go vet` prefixes `vet: `
# What such a line holds, searched over the whole text first: a `^`-anchored multi-line regex
# is tried at every character (34 ms on a 100k-line log), this one only at each `:` (10 ms).
_LOCATED_HINT = re.compile(r":\d+:\d+: ")
# Longer texts are not scanned for them (~20 ms per 100k lines, as much as the rest of a bulk
# prune): a build's output that long is a CI log, whose errors carry words the index finds.
MAX_LOCATED_SCAN_LINES = 20_000
# pip's `×` box, a test runner's failed-test mark (Jest's `●`, PHPUnit testdox's `✘`, TAP's
# `not ok 6 - case 5`: node --test, prove, bats), Go's and Gradle's failure lines.
_MARKED = re.compile(r"^\s*(?:[×✘✗●]\s|--- FAIL:|\* What went wrong:|not ok \d+\b)")
_MARKED_NEEDLES = ("×", "✘", "✗", "●", "--- FAIL:", "* What went wrong:", "not ok ")
# valgrind's errors (`==4242== Invalid read of size 4`, `… definitely lost in loss record 1`).
_VALGRIND = re.compile(
    r"^==\d+== (?:Invalid |Conditional jump |Use of uninitialised |Mismatched free|Syscall param |"
    r"Source and destination overlap|"
    r"[\d,]+ (?:\(.*\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost)"
)
# Kotlin's compiler marks its errors `e: ` (and its warnings `w: `).
_KOTLIN = re.compile(r"^e: \S")
# npm's `npm ERR!` and Node's error codes (`ERR_MODULE_NOT_FOUND`, pnpm's `ERR_PNPM_…`).
_NODE_CODE = re.compile(r"\bERR!|\bERR_[A-Z0-9_]{3,}")
_NODE_CODE_NEEDLES = ("ERR",)  # one pass over the text for both (each costs ~5 ms per 100k lines)
# A diagnostic headed like rustc's, its location on the next line (`F821 Undefined name` over
# ` --> app.py:4:12`: ruff): the header is the error unless it is a warning or a note.
_POINTER = re.compile(r"^\s*--> \S+:\d+(?::\d+)?")
_NOT_AN_ERROR = re.compile(r"^\s*(?:warning|note|help|info|hint)\b|^\s*$", re.IGNORECASE)
# A shell's and the system's own failures: bash's `deploy.sh: line 37: x: command not found`,
# `cp: cannot stat 'a.conf': No such file or directory`, `set -u`'s `unbound variable`.
_SYSTEM = re.compile(
    r"^\S+: line \d+: |: (?:No such file or directory|Permission denied|command not found|unbound variable|"
    r"Operation not permitted|Is a directory|Not a directory|No space left on device|Connection refused)\b"
    r"|: (?:undefined reference to|multiple definition of) "  # the linker's
    r"|^g?make(?:\[\d+\])?: \*\*\* "  # make's own: `make: *** No rule to make target 'x'.  Stop.`
)
_SYSTEM_NEEDLES = (
    ": line ",
    "No such file or directory",
    "Permission denied",
    "command not found",
    "unbound variable",
    "Operation not permitted",
    "Is a directory",
    "Not a directory",
    "No space left on device",
    "Connection refused",
    "undefined reference to",
    "multiple definition of",
    ": *** ",  # make's and make[1]'s
)
# What follows an error and belongs to it.
_FOLLOWS = re.compile(
    r"^\s*(?:>\s*)?(?:\d+\s*)?[|│]"  # a code frame `42 | code`, a pip box `│ exit code: 1`
    r"|^\s*(?:-->|╰─>|=\s*(?:note|help)\b)"
    r"|^\s*\^[\^~-]*"  # a caret line
    r"|^\s*(?:note|help|hint|suggestion):"
    r"|^\s*[-+](?![-+]) ?\S"  # an expected / actual diff (`- Expected`, `+ Received`, `-2`), not `--- PASS`
    r"|^\s*❯ \S+:\d+"  # vitest's location
    r"|^==\d+==\s{2,}\S"  # valgrind's frames and notes: `==4242==    at 0x1091EF: lookup (app.c:9)`
    r"|^\s*[}\])]+[,;]?\s*$"  # the end of what the error printed (Node's `{ errno: -2, … }`)
    r"|^[^\s:]+:\d+(?::\d+)?: note:"  # gcc / clang
    r"|^\s+(?:symbol|location|required|found|reason):"  # javac
    r"|^\s+at\s|^\s*Caused by:|^\s+\.\.\. \d+ more"  # Java, Node
    r"|^\s*(?:from\s+|#\s+)?\S+:\d+:in [`'‘]"  # Ruby: `\tfrom app.rb:10:in 'main'`, rspec's `# ./spec/…`
    r"|^#\d+\s|^\s+thrown in "  # PHP's (and gdb's) numbered frames: `#0 /a.php(6): f()`
    r"|^\s*(?:[Ss]tack ?trace|[Bb]acktrace):"  # PHP, Julia, ExUnit
    r"|^stack backtrace:|^\s+\d+: \S"  # Rust
    # Go; a frame `pkg.f(…)` whose line ends with `)`, checked first: `[\w./*()-]+\(.*\)$` retried
    # `.*` from each `(` of a run of them (64 KiB of `(`: 16 s)
    r"|^goroutine \d+ \[|^\t/\S+:\d+|^(?=.*\)$)[\w./*()-]+\(|^created by "
    r"|^Node\.js v\d"
)
_CARET = re.compile(r"^\s*\^[\^~-]*\s*$")
# Node prints `file.js:6`, the source line and a caret line above the error itself; OCaml and
# Python's SyntaxError print `File "x.ml", line 3, …` there.
_LOCATION_ABOVE = re.compile(r"^\S+:\d+$|^\s*File \"[^\"]+\", line \d+")
NODE_PREAMBLE_LINES = 4
# Go prints `# example.com/proj/cart` over a package's errors (`cart/cart.go:8:9: …`), at most
# this many lines up.
_GO_PACKAGE = re.compile(r"^# [\w.-]+(?:/[\w.-]+)*$")
_IN_GROUP = re.compile(r"^(?:vet: )?\S+:\d+:\d+: |^\t")
GROUP_LINES = 10
# An error's lines stop after this many (a runaway stack is cut, its head kept).
MAX_FOLLOWING_LINES = 60
# A numbered failure's title (`  1) cart totals case 1:`: Mocha, RSpec, PHPUnit, Minitest) is
# this many lines above its error at most, blank lines included.
_NUMBERED_TITLE = re.compile(r"^\s*\d+\) \S")
TITLE_LINES = 4
# How far up an indented error line's enclosing, less indented lines are looked for (eslint's
# and pyright's file line over its diagnostics, RSpec's example over its `Failure/Error:`).
MAX_PARENT_LINES = 30


def diagnostic_lines(text: str, lines: Sequence[str], index: LineIndex, deadline: Deadline) -> list[int]:
    """Lines that are errors though they hold no error word."""
    out: list[int] = []
    if len(lines) < MAX_LOCATED_SCAN_LINES:
        hinted = {index.line_of(m.start()) for m in _LOCATED_HINT.finditer(text)}
        out = [i for i in sorted(hinted) if _LOCATED.match(lines[i])]
    deadline.check()
    for i in deadline.paced(index.lines_containing(_MARKED_NEEDLES, ignore_case=False, deadline=deadline)):
        if _MARKED.match(lines[i]):
            out.append(i)
    for i in deadline.paced(index.lines_containing(_SYSTEM_NEEDLES, ignore_case=False, deadline=deadline)):
        if _SYSTEM.search(lines[i]):
            out.append(i)
    for i in deadline.paced(index.lines_starting_with("=")):
        if _VALGRIND.match(lines[i]):
            out.append(i)
    for i in deadline.paced(index.lines_starting_with("e")):
        if _KOTLIN.match(lines[i]):
            out.append(i)
    for i in deadline.paced(index.lines_containing(_NODE_CODE_NEEDLES, ignore_case=False, deadline=deadline)):
        if _NODE_CODE.search(lines[i]):
            out.append(i)
    for i in deadline.paced(index.lines_containing(["--> "], ignore_case=False, deadline=deadline)):
        if i > 0 and _POINTER.match(lines[i]) and not _NOT_AN_ERROR.match(lines[i - 1]):
            out.append(i - 1)
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def belonging(lines: Sequence[str], i: int) -> list[int]:
    """The lines around error line `i` that belong to it (see the module docstring).

    Below it: its continuation lines (code frame, notes, stack frames) and every line indented
    deeper than it, or than its numbered title, across single blank lines (an RSpec, Jest or
    ExUnit failure's body, CMake's message); above it: the lines it is indented under, its
    numbered title, Node's or OCaml's location.
    """
    n = len(lines)
    out: list[int] = []
    title = _numbered_title(lines, i)
    base = _indent(lines[i]) if title is None else min(_indent(lines[i]), _indent(lines[title]))
    j = i + 1
    end = min(n, i + 1 + MAX_FOLLOWING_LINES)

    def continues(k: int) -> bool:
        line = lines[k]
        if not line.strip():
            return False
        if _FOLLOWS.match(line) or _indent(line) > base:
            return True
        # a line of a numbered failure's message printed unindented (Mocha's `2 !== 3`)
        return title is not None and _resumes(lines, k, base)

    # a header set apart by a blank line (`Failed examples:`): the paragraph below is what it announces
    if lines[i].rstrip().endswith(":") and j + 1 < end and not lines[j].strip():
        out.append(j)
        j += 1
        while j < end and lines[j].strip():
            out.append(j)
            j += 1
    while j < end:
        line = lines[j]
        if continues(j):
            out.append(j)
        elif j + 1 < n and _CARET.match(lines[j + 1]) and line.strip():
            out.append(j)  # the source line above a caret (javac, Node)
        elif not line.strip() and j + 1 < n and continues(j + 1):
            out.append(j)  # one blank line inside a diagnostic (rustc's `help:` block)
        elif j == i + 1 and j + 1 < n and _FOLLOWS.match(lines[j + 1]):
            out.append(j)  # the message under its header, frames below it (`rake aborted!`)
        else:
            break
        j += 1
    if title is not None:
        out.extend(range(title, i))
    out.extend(_above(lines, i))
    return list(dict.fromkeys(out))  # a title can also be a line the error is indented under


def _resumes(lines: Sequence[str], j: int, base: int) -> bool:
    """Whether a line indented deeper than `base` comes within the two lines after `j`."""
    return any(lines[k].strip() and _indent(lines[k]) > base for k in range(j + 1, min(len(lines), j + 3)))


def _numbered_title(lines: Sequence[str], i: int) -> int | None:
    for k in range(i - 1, max(-1, i - 1 - TITLE_LINES), -1):
        if _NUMBERED_TITLE.match(lines[k]):
            return k
    return None


def _above(lines: Sequence[str], i: int) -> list[int]:
    out: list[int] = []
    indent = _indent(lines[i])
    for k in range(i - 1, max(-1, i - 1 - MAX_PARENT_LINES), -1):
        if indent == 0 or not lines[k].strip():
            break
        if _indent(lines[k]) < indent:
            out.append(k)
            indent = _indent(lines[k])
    for k in range(i - 1, max(-1, i - 1 - GROUP_LINES), -1):
        if _GO_PACKAGE.match(lines[k]):
            out.append(k)  # the package the errors below are in
            break
        if not _IN_GROUP.search(lines[k]):
            break
    for k in range(i - 1, max(-1, i - 1 - NODE_PREAMBLE_LINES), -1):
        if _LOCATION_ABOVE.match(lines[k]) and any(_CARET.match(lines[x]) for x in range(k + 1, i)):
            out.extend(range(k, i))
            break
    return out
