"""Finding the blocks of source code, by indentation and braces, for any language.

A definition header (`def`, `class`, `function`, `func`, `fn`, `impl`, a C-like signature
ending in `{` …) owns every following line that is more indented, plus a closing bracket
line at its own indentation. Decorators and comments directly above belong to it. This
one mechanism covers Python, JS/TS, Go, Rust, Java and C alike. Scoring the blocks as
units for the selector is `structure/code.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from re import Pattern

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.common import indent_of

_DEF = re.compile(
    r"^\s*(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|internal|static|final|abstract|"
    r"override|virtual|async|unsafe|extern|inline|const|open|data|sealed|"
    # Kotlin, Swift and Scala modifiers (`suspend fun`, `mutating func`, `private[data] def`)
    r"suspend|operator|infix|tailrec|mutating|fileprivate|convenience|required|implicit|"
    # Fortran's procedure prefixes and result types (`pure elemental real(dp) function f(x)`)
    r"pure|impure|elemental|recursive|module|(?:integer|real|logical|complex|character)(?:\s*\([^)]*\))?|"
    r"(?:type|class)\s*\([^)]*\)|double\s+precision|"
    r"(?:private|protected)\[\w+\])\s+)*"
    r"(?P<kw>def|class|function\*?|Function|func|fn|impl|struct|enum|trait|interface|module|namespace|object|record|"
    r"macro_rules!|sub|proc|subroutine|"
    # Kotlin `fun`, Elixir `defp` / `defmacro` / `defmodule`, Lua `local function`: only before
    # a name (`fun = …` assigns a variable)
    r"(?:fun|defp|defmacrop?|defmodule|local\s+function)(?=\s+[\w<`(])|"
    # PowerShell's `filter Get-Item {` (a function run once for each object piped to it)
    r"[fF]ilter(?=\s+[\w-]+\s*(?:\{|$))|"
    # F#'s `member x.Name(…) =` and a `let` with parameters (`let inline f (x: int) =`; its modifiers
    # taken possessively: a run of them is not tried again as the name, which was quadratic): a
    # `let x =`, `let x: T =`, Rust's `let mut x =` bind values
    r"member(?=\s+[\w'.]+)|let(?=\s+(?:(?:inline|rec|private|internal)\s+)*+(?!mut\b)(?:[\w']+|\([^)]*\))(?:<[^>]*>)?"
    r"\s+[\w'(][^=]*=(?:\s*\w+\s*\{|\s*function)?\s*$)|"
    # Lisp's definitions: `(defun`, `(defmacro`, Clojure's `(defn-`, Scheme's `(define`, and the
    # `(define-…` macros (`define-minor-mode`, `define-condition`) but Emacs's `(define-key`, a call
    r"\((?:def(?:un|macro|method|generic|var|parameter|constant|class|struct|type|setf|record|protocol|"
    r"multi|n-?)?|define(?:-(?!key\b)[\w-]+)?)(?=\s))(?:\b|(?<=-))"
)
_CONTAINER = frozenset(
    {"class", "impl", "struct", "enum", "trait", "interface", "module", "namespace", "object", "defmodule"}
)
# `foo(a, b) {`, `int main(void) {`, `const f = (x) => {`, `name: function (x) {`
_BRACE_SIGNATURE = re.compile(
    r"^\s*[^\s(){};=#/*][^;]*\)\s*(?:->\s*[^{]+|:\s*[^{]+|\w+\s*|throws\s+[\w.,\s]+)?\{\s*$|=>\s*\{\s*$"
)
_CONTROL = re.compile(
    r"^\s*(?:\}\s*)?(?:if|else|for|foreach|while|do|switch|case|catch|try|finally|return|with)\b"
)
_DECORATOR = re.compile(r"^\s*(?:@|\[<)")  # also F#'s `[<Obsolete>]`
# Also Lua's `---`, Haskell's `{-`, OCaml's `(*`, Lisp's `;;`, Erlang's and MATLAB's `%`. Not a
# `!`: in a file of a known language other than Fortran, a line starting with one is code
# (JavaScript's `!function () {…}()`, a shell's `! grep -q x file`, IPython's `!pip install`).
COMMENT = re.compile(r"^\s*(?:#(?!!)|//|/\*|\*|--|\{-|\(\*|;;|%)")
# In a Fortran file, any `!` but `!=` also starts a comment (`!>` a Doxygen or FORD doc), and in a
# text of unknown language: a Fortran text without its path (its `!comment` is no JavaScript
# `!done` by shape; read as code, Fortran dev sets without the path lost 0.04 of whole functions).
BANG_COMMENT = re.compile(r"^\s*(?:#(?!!)|//|/\*|\*|--|\{-|\(\*|;;|%|!(?!=))")
_CLOSER = re.compile(r"^\s*[)\]}]")
_OPENER = re.compile(r"^\s*\{\s*$")
# The `end` closing a Lua, Julia, Elixir, Ruby, Crystal, MATLAB or Fortran block at its header's
# indentation (with `)`/`,`/`;` after it, or a comment), not a variable named `end`; Fortran's
# names what it closes (`end subroutine name`).
_END_LINE = re.compile(
    r"^\s*end\b(?:\s*(?:subroutine|function|module|submodule|program|type|interface|procedure)\b(?:\s+\S+)?)?"
    r"[\s)\]},;.]*(?:(?:#|--|%|!).*)?$"
)
# Lines that end no block though less indented: Fortran's `contains` before a procedure's inner
# procedures, and its statement labels (`99020 format (…)` at column 0).
_NEUTRAL = re.compile(r"^\s*(?:contains\s*$|\d+\s+[A-Za-z])")
# A Fortran procedure's own end: it closes one whose body is not indented (an older style).
_NAMED_END = re.compile(r"^\s*end\s*(?:subroutine|function)\b")
# The name a Fortran procedure's header gives it, and the name its `end function f` repeats.
_PROCEDURE_NAME = re.compile(r"\b(?:subroutine|function)\s+(\w+)", re.IGNORECASE)
_END_NAME = re.compile(r"^\s*end\s*(?:subroutine|function)\s+(\w+)", re.IGNORECASE)
_NAMED_KW = frozenset({"subroutine", "function"})
# Fixed-form Fortran (77) closes a procedure with a bare `end` at its header's indentation; only
# a header no other language writes (a `subroutine`, a typed `function`) looks for one (a Julia
# docstring's "function instead …" then a struct's `end` is no procedure).
_BARE_END = re.compile(r"^\s*end\s*(?:!.*)?$", re.IGNORECASE)
_FORTRAN_HEADER = re.compile(
    r"^\s*(?:\w+\s+)*(?:subroutine|(?:integer|real|logical|complex|character|double\s+precision)\b.*\bfunction)\s+\w+",
    re.IGNORECASE,
)
_IMPORT = re.compile(
    r"^(?:import\s|from\s+\S+\s+import\s|#include\b|using\s+[\w.]+;|use\s+[\w:{}, ]+;|require\(|"
    r"(?:const|let|var)\s+\S+\s*=\s*require\(|package\s+\w+|extern\s+crate\s)"
)


@dataclass(frozen=True)
class Block:
    """A definition: lines `start`..`end - 1` (0-based), its header line and its nesting."""

    start: int
    header: int
    end: int
    container: bool
    parent: int | None  # index of the enclosing Block in the list, if any
    sig_end: int | None = None  # exclusive end of the signature, when a parser knows it
    name: str | None = None  # the name it defines, when a parser knows it


def is_header(line: str) -> bool:
    """True when `line` opens a definition (function, method, class, impl …)."""
    if _DEF.match(line):
        return True
    if not line.rstrip().endswith("{"):
        return False  # cheap test first: most lines open nothing
    return bool(_BRACE_SIGNATURE.search(line)) and not _CONTROL.match(line)


def _block_end(
    lines: Sequence[str],
    header: int,
    indents: Sequence[int | None],
    comment: re.Pattern[str],
    *,
    allman: bool,
) -> int:
    base = indents[header]
    assert base is not None
    last = header
    j = header + 1
    n = len(lines)
    opened = False
    while j < n:
        ind = indents[j]
        if ind is None or (ind <= base and (comment.match(lines[j]) or _NEUTRAL.match(lines[j]))):
            # a comment or a preprocessor line (`#ifdef`, commented-out code at column 0) ends
            # no block: code does
            j += 1
            continue
        if ind > base:
            last = j
        elif allman and j == last + 1 and not opened and _OPENER.match(lines[j]):
            # Allman style: the body's `{` on the line after its header, or after the indented
            # rest of its signature (Solidity's `returns (…)`, a C parameter per line)
            last, opened = j, True
        elif _CLOSER.match(lines[j]) or _END_LINE.match(lines[j]):
            last = j
            tail = lines[j].rstrip()
            # `) -> None:` / `) {` continue a multi-line signature, and so does a `)` closing the
            # header's parameters when the body follows it (Julia's `) where {T}`, `)::Response`);
            # `}` closes the block
            if not tail.endswith((":", "{")) and not _closes_parameters(lines, header, j):
                break
        else:
            break
        j += 1
    return last + 1


# How many lines a multi-line parameter list may hold before its `)`.
MAX_SIGNATURE_LINES = 40


def _closes_parameters(lines: Sequence[str], header: int, j: int) -> bool:
    """Whether `lines[j]`, a `)` at the header's indentation, closes the header's parameter list."""
    if j - header > MAX_SIGNATURE_LINES or not lines[j].lstrip().startswith(")"):
        return False
    opened = sum(lines[k].count("(") - lines[k].count(")") for k in range(header, j))
    return opened > 0


# How far up a multi-line decorator (`@deprecated(\n  "...",\n)`) is looked for.
MAX_DECORATOR_LINES = 30


# How far a brace block is followed to its closing brace (beyond, indentation decides).
MAX_BRACE_SCAN_LINES = 20_000
# All the brace scans of a file together read at most this many times its lines (plus one
# whole scan): each line is read once per enclosing block, and real code nests far less
# deeply. Without a bound, a file of unclosed `{` (a truncated bundle) was quadratic:
# 4,000 such lines took 28 s.
BRACE_SCANS_PER_LINE = 8
# A line longer than this ends a brace scan (indentation decides): it is minified code,
# with no block structure worth following, and reading it character by character would
# take seconds between two looks at the deadline.
MAX_BRACE_LINE_CHARS = 5_000


# The only characters a brace scan acts on (in a string: `\\` and its quote; in a comment: `*/`):
# the scan jumps from one to the next instead of reading every character in Python.
_SCAN_STOPS = re.compile(r"[{}'\"`/*\\]")


def _brace_end(lines: Sequence[str], header: int, limit: int, deadline: Deadline) -> tuple[int | None, int]:
    """Exclusive end of the `{ … }` block opened on `header`, skipping strings and comments
    (None when it does not close within `limit` lines), and the number of lines read.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    depth = 0
    quote = ""  # the open string delimiter; a backtick string may span lines
    block_comment = False
    scanned = 0
    for j in deadline.paced(range(header, min(len(lines), header + limit))):
        line = lines[j]
        scanned += 1
        if len(line) > MAX_BRACE_LINE_CHARS:
            return None, scanned
        k = 0
        if quote != "`":
            quote = ""
        while (stop := _SCAN_STOPS.search(line, k)) is not None:
            k = stop.start()
            c = line[k]
            if block_comment:
                if line.startswith("*/", k):
                    block_comment = False
                    k += 1
            elif quote:
                if c == "\\":
                    k += 1
                elif c == quote:
                    quote = ""
            elif c in "'\"`":
                quote = c
            elif line.startswith("//", k):
                break
            elif line.startswith("/*", k):
                block_comment = True
                k += 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return j + 1, scanned
            k += 1
    return None, scanned


def _named_end(
    lines: Sequence[str], header: int, indents: Sequence[int | None], deadline: Deadline
) -> int | None:
    """Exclusive end of a procedure closed by `end subroutine` / `end function` at its header's
    indentation, or by one naming it at any (an end a column off its header still says what it
    closes), None if another procedure opens there first."""
    base = indents[header]
    found = _PROCEDURE_NAME.search(lines[header])
    name = found.group(1).lower() if found else None
    fortran = bool(_FORTRAN_HEADER.match(lines[header]))
    for j in deadline.paced(range(header + 1, min(len(lines), header + MAX_BRACE_SCAN_LINES))):
        if indents[j] != base:
            end = _END_NAME.match(lines[j]) if name and indents[j] is not None else None
            if end and end.group(1).lower() == name:
                return j + 1
            continue
        if _NAMED_END.match(lines[j]) or (fortran and _BARE_END.match(lines[j])):
            return j + 1
        m = _DEF.match(lines[j])
        if m and m.group("kw") in _NAMED_KW:
            return None
    return None


def _block_start(lines: Sequence[str], header: int, base: int, comment: re.Pattern[str]) -> int:
    start = header
    while start > 0:
        prev = lines[start - 1]
        if not prev.strip():
            break
        if comment.match(prev) and indent_of(prev) in (base, base + 1):  # ` * ` lines of a /** doc */
            start -= 1
            continue
        if indent_of(prev) != base:
            break
        if _DECORATOR.match(prev):
            start -= 1
            continue
        if _CLOSER.match(prev):  # the end of a multi-line decorator: find its `@`
            top = next(
                (
                    k
                    for k in range(start - 2, max(-1, start - 2 - MAX_DECORATOR_LINES), -1)
                    if lines[k].strip() and indent_of(lines[k]) <= base
                ),
                None,
            )
            if top is not None and indent_of(lines[top]) == base and _DECORATOR.match(lines[top]):
                start = top
                continue
        break
    return start


def find_blocks(
    lines: Sequence[str], *, comment: re.Pattern[str] = BANG_COMMENT, deadline: Deadline = NO_DEADLINE
) -> list[Block]:
    """Every definition block, outer before inner, with its parent index; `comment` matches the
    language's comment lines (its record's `comment`, `COMMENT` by default; `BANG_COMMENT` for a
    text of unknown language).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    indents: list[int | None] = [indent_of(line) if line.strip() else None for line in deadline.paced(lines)]
    raw: list[tuple[int, int, int, bool]] = []
    brace_budget = BRACE_SCANS_PER_LINE * len(lines) + MAX_BRACE_SCAN_LINES
    for i, line in deadline.paced(enumerate(lines)):
        if indents[i] is None or not is_header(line):
            continue
        deadline.check()  # one header's block can be most of the file
        m = _DEF.match(line)
        container = bool(m and m.group("kw") in _CONTAINER)
        # a function's Allman `{` opens its body; a class's would make the class one unit of
        # hundreds of lines, in competition with its members
        end = _block_end(lines, i, indents, comment, allman=not container)
        if line.rstrip().endswith("{"):
            # braces are the truth where they exist: a string or macro at column 0 ends no block
            closing, scanned = _brace_end(lines, i, min(MAX_BRACE_SCAN_LINES, brace_budget), deadline)
            brace_budget -= scanned
            if closing is not None and closing > end and indents[closing - 1] == indents[i]:
                end = closing
        if end - i < 2 and m and m.group("kw") in _NAMED_KW:
            end = _named_end(lines, i, indents, deadline) or end
        if end - i < 2 and not line.rstrip().endswith((":", "{")):
            continue  # a one-line declaration (`class X;`, `fn f();`) opens nothing
        base = indents[i]
        assert base is not None
        raw.append((_block_start(lines, i, base, comment), i, end, container))
    blocks: list[Block] = []
    stack: list[int] = []
    for start, header, end, container in raw:
        while stack and blocks[stack[-1]].end <= header:
            stack.pop()
        parent = stack[-1] if stack else None
        blocks.append(Block(start, header, end, container, parent))
        stack.append(len(blocks) - 1)
    return _long_functions_hold_units(lines, blocks)


# A function this long that defines functions inside it is a module in all but name (a
# PowerShell script's one function around its helpers, a Lisp `labels`, a JavaScript factory's
# closures): kept whole, it is more than the budget of most reads (a fifth of a file at the
# default ratio), so its inner definitions are units of their own, as a class's methods are.
# Counted from its header to its end, here and for a parser's blocks (`syntax.py`): the comments
# above a function make it no more a module. Here only a keyword definition counts (`function`,
# `def`, `(defun`): a heredoc's CSS `@media (…) {` defines nothing.
MODULE_LIKE_LINES = 150


def _long_functions_hold_units(lines: Sequence[str], blocks: list[Block]) -> list[Block]:
    parents = {b.parent for b in blocks if _DEF.match(lines[b.header])}
    return [
        replace(b, container=True) if k in parents and b.end - b.header >= MODULE_LIKE_LINES else b
        for k, b in enumerate(blocks)
    ]


def signature_end(lines: Sequence[str], block: Block) -> int:
    """Exclusive end of the header's signature (a multi-line parameter list included)."""
    if block.sig_end is not None:
        return block.sig_end
    depth = 0
    for j in range(block.header, block.end):
        text = lines[j]
        depth += sum(text.count(c) for c in "([{") - sum(text.count(c) for c in ")]}")
        opens_body = text.rstrip().endswith("{")  # that brace is the body's, not the signature's
        # balanced again: the header line ends here if it opens the body (`:` / `{`),
        # a continuation line always does
        if depth - opens_body <= 0 and (j > block.header or opens_body or text.rstrip().endswith(":")):
            return j + 1
    return block.header + 1  # never balanced (a bracket in a string or unclosed): the header alone


def import_lines(lines: Sequence[str], own: Pattern[str] | None = None) -> list[tuple[int, int]]:
    """Top-level import statements as (start, end) half-open ranges, parenthesised ones whole:
    the shapes every language shares, and those starting as `own` says (the language's record)."""
    out: list[tuple[int, int]] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if _IMPORT.match(line) or (own is not None and own.match(line)):
            j = i
            if "(" in line and ")" not in line:
                while j + 1 < n and ")" not in lines[j]:
                    j += 1
            elif line.rstrip().endswith("\\"):
                while j + 1 < n and lines[j].rstrip().endswith("\\"):
                    j += 1
            out.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    return out
