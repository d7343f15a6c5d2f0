"""MATLAB's (and Octave's) functions, found by a scan of their own: no grammar wheel is a dependency.

A `.m` file is Objective-C or MATLAB; `languages.is_matlab` tells them apart by the first line of
code: MATLAB's is a `function` or `classdef` (Objective-C's an `#import`, `@interface` …). The
heuristics read a MATLAB function by indentation, but its body is often not indented, its `end`
closes `if` and `for` as well, and the function may have no `end` at all: the functions came out
cut short or run together. Here the block keywords are counted (`if`, `for`, `while`, `switch`,
`try`, `function`, `classdef`'s sections … each closed by `end`, or Octave's `endif`,
`endfunction` …; an `end` inside brackets is an index), strings and `%` comments skipped; a file
whose functions have no `end` (the counts never balance) has each function run to the next. A
function's help text (the `%` lines after its signature) is its own and weighs as a doc
(`matlab_docs.help_led`); the comments directly above are its doc too (Octave's texinfo help too, a blank
line above the function). A function nested in another is a block of its own, a member of the
outer one, which is then read as a class is, as is a long function (`matlab_pieces.py`); one
nested deeper is part of the function it is nested in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.matlab_pieces import non_blank, split_function
from mcp_pruner_server.pruning.terms import stem, terms

_COMMENT = re.compile(r"^\s*(?:%|#(?:[#\s]|$))")
_FUNCTION = re.compile(
    r"^\s*function\b\s*(?:(?:\[[^\]]*\]|[\w.]+)\s*=\s*)?([A-Za-z][\w.]*)"  # `function [a, b] = f(x)`
)
_OPENERS = frozenset(
    {"if", "for", "parfor", "while", "switch", "try", "function", "classdef", "spmd", "unwind_protect", "do"}
)
# The blocks of a function's logic (its statements' nesting, where a long one may be cut).
_CONTROL = _OPENERS - {"function", "classdef"}
_CLASS_SECTIONS = frozenset({"methods", "properties", "events", "enumeration"})
# A function's argument validation block (`arguments`, `arguments (Repeating)` on a line of its
# own, closed by `end`); elsewhere `arguments` may be a variable's name.
_ARGUMENTS = re.compile(r"^\s*arguments\s*(?:\(\s*\w+\s*\))?\s*(?:%.*)?$")
_CLOSERS = frozenset(
    {
        "end", "endfunction", "endif", "endfor", "endparfor", "endwhile", "endswitch", "end_try_catch",
        "end_unwind_protect", "endclassdef", "endmethods", "endproperties", "endevents", "endenumeration",
        "endspmd", "until",
    }
)  # fmt: skip
# A word, a string, a bracket, or a comment's start; a `'` after a name, a closing bracket, a `.`
# or another `'` is a transpose, not a string.
_TOKENS = re.compile(
    r"[A-Za-z_]\w*|\"(?:[^\"]|\"\")*\"?|(?<![\w)\]}.'])'(?:[^']|'')*'?|[(\[{]|[)\]}]|\.\.\.|%|#|\.|'"
)
# How many lines a file may have for the scan (a generated file longer than this is left to the
# heuristics).
MAX_SCANNED_LINES = 50_000


def _words(line: str, depth: int, in_class: bool) -> tuple[list[tuple[str, int]], int]:
    """The block keywords of `line` at bracket depth 0, with the depth at its end."""
    found: list[tuple[str, int]] = []
    for token in _TOKENS.finditer(line):
        text = token.group()
        if text in ("%", "#", "..."):
            break
        if text in "([{":
            depth += 1
        elif text in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and (text in _OPENERS or text in _CLOSERS or (in_class and text in _CLASS_SECTIONS)):
            before = line[: token.start()].rstrip()
            if not before.endswith("."):  # a field (`s.end`) is no keyword
                found.append((text, token.start()))
    return found, depth


class _Scan:
    """What one pass over a MATLAB file finds: its outermost functions closed by their `end`
    (header row, exclusive end), the functions nested directly in one of them (header row,
    exclusive end, the outer one's header row), each row's depth of `if`, `for` … blocks
    (functions and a class's sections not counted), and whether every block closed (False: the
    file's functions have no `end`)."""

    def __init__(self, lines: Sequence[str], deadline: Deadline) -> None:
        self.functions: list[tuple[int, int]] = []
        self.nested: list[tuple[int, int, int]] = []
        self.control_depth = [0] * len(lines)
        self.balanced = self._run(lines, deadline)

    def _run(self, lines: Sequence[str], deadline: Deadline) -> bool:
        stack: list[tuple[str, int]] = []
        # the header rows of the functions open on `stack`, kept as it changes: collected from
        # the stack at each function's `end`, they cost the square of a file of deep blocks
        open_functions: list[int] = []
        depth, block_comment, in_class, control = 0, False, False, 0
        for i, line in deadline.paced(enumerate(lines)):
            self.control_depth[i] = control
            stripped = line.strip()
            if stripped in ("%{", "#{"):
                block_comment = True
                continue
            if block_comment:
                block_comment = stripped not in ("%}", "#}")
                continue
            if depth == 0 and stack and stack[-1][0] == "function" and _ARGUMENTS.match(line):
                stack.append(("arguments", i))
                continue
            words, depth = _words(line, depth, in_class)
            for word, _ in words:
                if word in _OPENERS or word in _CLASS_SECTIONS:
                    stack.append((word, i))
                    in_class = in_class or word == "classdef"
                    control += word in _CONTROL
                    if word == "function":
                        open_functions.append(i)
                elif stack:
                    opener, row = stack.pop()
                    control -= opener in _CONTROL
                    if opener == "function":
                        open_functions.pop()
                        self._closed(row, i + 1, open_functions)
                else:
                    return False  # an `end` with nothing open: functions without `end`
        return not stack

    def _closed(self, row: int, end: int, outer: list[int]) -> None:
        if not outer:
            self.functions.append((row, end))
        elif len(outer) == 1:
            self.nested.append((row, end, outer[0]))


def _block_comment_rows(lines: Sequence[str]) -> set[int]:
    """The rows of the block comments (`%{` … `%}`, each marker on a line of its own), where a
    function commented out is no function."""
    rows: set[int] = set()
    opened: int | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if opened is None and stripped in ("%{", "#{"):
            opened = i
        elif opened is not None and stripped in ("%}", "#}"):
            rows.update(range(opened, i + 1))
            opened = None
    return rows


def _ends_without_end(lines: Sequence[str], headers: list[int], hidden: set[int]) -> list[tuple[int, int]]:
    """Each function runs to the comments above the next one (or the file's end), block
    comments (`hidden`) among them."""
    out = []
    for k, row in enumerate(headers):
        end = headers[k + 1] if k + 1 < len(headers) else len(lines)
        while end > row + 1 and (
            end - 1 in hidden or not lines[end - 1].strip() or _COMMENT.match(lines[end - 1])
        ):
            end -= 1
        out.append((row, end))
    return out


def _doc_start(lines: Sequence[str], row: int) -> int:
    """The first row of the comments directly above `row`, or of Octave's texinfo help above it
    (`## -*- texinfo -*-`, which Octave's style sets a blank line above the function)."""
    start = row
    while start > 0 and _COMMENT.match(lines[start - 1]):
        start -= 1
    if start == row and row > 1 and not lines[row - 1].strip() and _COMMENT.match(lines[row - 2]):
        top = row - 1
        while top > 0 and _COMMENT.match(lines[top - 1]):
            top -= 1
        if any("-*- texinfo -*-" in line for line in lines[top : row - 1]):
            return top
    return start


def _signature_end(lines: Sequence[str], row: int, end: int) -> int:
    j = row
    while j + 1 < end and lines[j].split("%")[0].rstrip().endswith("..."):
        j += 1
    return j + 1


def matlab_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every function of a MATLAB file not inside another, with the comments directly above it;
    a long one, or one with functions nested in it, read as a class is (`matlab_pieces.py`)."""
    if len(lines) > MAX_SCANNED_LINES:
        return []
    scan = _Scan(lines, deadline)
    spans, nested = scan.functions, scan.nested
    if not scan.balanced:
        hidden = _block_comment_rows(lines)
        headers = [i for i, line in enumerate(lines) if _FUNCTION.match(line) and i not in hidden]
        spans = _ends_without_end(lines, headers, hidden)
        nested = []
    inner: dict[int, list[Block]] = {}
    for row, end, outer in nested:
        inner.setdefault(outer, []).append(_block(lines, row, end))
    out: list[Block] = []
    file_size = non_blank(lines) if spans else 0  # once: per function, a file of many was quadratic
    for row, end in spans:
        out += split_function(
            lines, _block(lines, row, end), inner.get(row, []), scan.control_depth, len(out), file_size
        )
    return out


def _block(lines: Sequence[str], row: int, end: int) -> Block:
    sig_end = _signature_end(lines, row, end)
    # a signature continued (`function [funs, ends] = ...` and its name on the next line)
    signature = " ".join(line.split("%")[0].rstrip().removesuffix("...") for line in lines[row:sig_end])
    head = _FUNCTION.match(signature)
    name = head.group(1) if head else None
    return Block(_doc_start(lines, row), row, end, False, None, sig_end=sig_end, name=name)


# A class's methods that MATLAB calls for an operator or a built-in ("Operator Overloading" in
# MATLAB's documentation): their names are abbreviations (`subsasgn`, `mtimes`), and their help
# names the operation ("Subscripted assignment for …", "Functional addition"), never the method.
_OPERATOR_WORDS: dict[str, tuple[str, ...]] = {
    "plus": ("addition", "add", "sum"),
    "minus": ("subtraction", "subtract", "difference"),
    "uminus": ("unary", "negation", "negate"),
    "uplus": ("unary",),
    "times": ("multiplication", "multiply", "product", "pointwise"),
    "mtimes": ("matrix", "multiplication", "multiply", "product", "composition"),
    "rdivide": ("division", "divide", "pointwise"),
    "ldivide": ("division", "divide", "left"),
    "mrdivide": ("matrix", "division", "divide"),
    "mldivide": ("matrix", "division", "divide", "backslash", "solve"),
    "power": ("power", "pointwise"),
    "mpower": ("matrix", "power"),
    "lt": ("less",),
    "gt": ("greater",),
    "le": ("less", "equal"),
    "ge": ("greater", "equal"),
    "eq": ("equal", "equality"),
    "ne": ("equal", "inequality"),
    "not": ("logical", "negation"),
    "ctranspose": ("transpose", "conjugate"),
    "transpose": ("transpose",),
    "horzcat": ("horizontal", "concatenation", "concatenate"),
    "vertcat": ("vertical", "concatenation", "concatenate"),
    "subsref": ("subscripted", "reference", "indexing"),
    "subsasgn": ("subscripted", "assignment", "assign"),
    "subsindex": ("subscript", "index"),
    "disp": ("display",),
    "display": ("display",),
    "numel": ("number", "elements"),
    "loadobj": ("load",),
    "saveobj": ("save",),
}
_OPERATOR_TERMS = {name: {stem(w) for w in words} for name, words in _OPERATOR_WORDS.items()}


def name_word_hits(name: str | None, query: Mapping[str, float]) -> dict[str, int]:
    """The question's words for the operation a MATLAB operator method implements, those a
    part of the name abbreviates and the control a callback's name opens with, as hits of its
    name field."""
    words = _OPERATOR_TERMS.get(name or "", set())
    named = {**abbreviated_hits(name, query), **control_hits(name, query)}
    return {**named, **{t: 1 for t in words if t in query}}


def control_hits(name: str | None, query: Mapping[str, float]) -> dict[str, int]:
    """The question's identifier a callback's name opens with: a GUI's callbacks are named for
    their control (`zSlider_Callback`, `pushbutton8_Callback`, `figure1_CreateFcn`), and a
    question naming the control (`zSlider`) names its callback, whose terms hold only the whole
    name joined (`z_slider_callback`), not the control's."""
    if name is None or "_" not in name:
        return {}
    joined = max(terms(name), key=len)
    return {q: 1 for q in query if "_" in q and joined.startswith(q + "_")}


# MATLAB names cut their words short (`getTol`, `dom`, `pref`, `coeffs`, `deriv`): a part of a
# name at least this long that starts a question word this many letters longer names that word.
MIN_ABBREVIATION = 3
MIN_CUT = 3


def abbreviated_hits(name: str | None, query: Mapping[str, float]) -> dict[str, int]:
    """The question terms a part of `name` abbreviates ("tolerance" of `getTol`), as hits of its
    name field."""
    if name is None:
        return {}
    parts = {t for t in terms(name) if "_" not in t and len(t) >= MIN_ABBREVIATION and t not in query}
    return {
        q: 1
        for q, w in query.items()
        if w >= 1.0 and any(len(q) >= len(p) + MIN_CUT and q.startswith(p) for p in parts)
    }


# MATLAB's help names its function in capitals in its usage lines ("`FINV = INV(F)` attempts to
# compute …", "`[P, Q] = TRIGRATINTERP(F, M, N)` computes …"): a question so worded is about the
# function of that name, which scores this many times its own (with its help out of the file, its
# helpers' helps outscored it).
USAGE_NAME_BOOST = 2.0
_USAGE_CALL = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\(")


def usage_named_first(question: str, names: Sequence[str | None], scores: Sequence[float]) -> list[float]:
    """`scores` with each function the question calls in capitals, as a help's usage line does,
    raised by `USAGE_NAME_BOOST` (a name written in capitals in the code itself is no help's)."""
    called = {m.group(1).lower() for m in _USAGE_CALL.finditer(question)}
    return [
        s * USAGE_NAME_BOOST if name is not None and not name.isupper() and name.lower() in called else s
        for s, name in zip(scores, names, strict=True)
    ]
