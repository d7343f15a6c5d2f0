"""Calls between definitions: which units a line calls, and the credit a call earns them.

A definition called from a line relevant to the question is likely the helper that does the
work the question's words describe (`code.py` adds that credit to its score). What a call
looks like is the language's: `name(` in most, any word of the code where calls may omit
their parentheses (Ruby, Bash, PowerShell, OCaml, F#, Fortran), also `name[T](` and `x.name` in Scala,
`x.name` in Visual Basic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.languages.registry import by_name
from mcp_pruner_server.pruning.structure.code_blocks import is_header

__all__ = ["called_credit", "unit_names"]

# Names shorter than this are too ambiguous to follow (`f`, `go`, `io`).
MIN_CALLED_NAME = 3
# Not from inside a word: a match there needs one from the word's own start, found first, so
# the lookbehind only spares trying (and backtracking over) every suffix of every identifier.
_CALL = re.compile(r"(?<![A-Za-z_])([A-Za-z_][A-Za-z0-9_]*)\s*\(")
# The keywords before a definition's name (those of `code_blocks._DEF`: the header's own, found
# anywhere in it, `export default function f`), and what may come between: a Go receiver (`func
# (s *Server) Serve`), type parameters (`fun <T> f`), F#'s `let` modifiers and a qualifier, whose last
# part is the name (Lua's `function M.f`, Ruby's `def self.f`, F#'s `member this.F`, Kotlin's `fun
# List<T>.f`); a keyword is no name (Fortran's `module subroutine f`). A PowerShell name is read up
# to its `-`, as `function` always was (`Get` of `Get-Item`): named in full, PowerShell's dev sets
# went 0.90 → 0.87 and 0.85 → 0.80 (its calls, then credited, and its noun's said-parts factor).
_NAME_KEYWORDS = (
    r"def|function\*?|Function|filter|Filter|func|fn|class|struct|enum|trait|interface|module|namespace|"
    r"object|record|sub|proc|subroutine|fun|defp|defmacrop?|defmodule|member|modifier|"
    r"let(?:\s+(?:inline|rec|private|internal|mutable|mut))*+"
)
_DEF_NAME = re.compile(
    rf"\b(?:{_NAME_KEYWORDS})\s+(?:\([^)]*\)\s*)?(?:<[^>]*>\s*)?(?:\w+(?:<[^>]*>)?(?:\.|::?))*"
    rf"(?!(?:{_NAME_KEYWORDS})\b)([A-Za-z_]\w*)"
    # R's `name <- function(…)`. Lisp's `(defun name` is left unnamed: named, its units ranked
    # no better (Common Lisp dev sets +0.03 and -0.03), as its calls `(name …)` earn no credit.
    # The name starts where no name character precedes it: tried at every `.` of a long run, the
    # name scanned to the run's end each time (32 KiB of `.` took 22.6 s).
    r"|(?<![\w.])([A-Za-z.][\w.]*+)\s*<-\s*function\b"
)
# How far into a unit its header is looked for (decorators and comments come first).
HEADER_SEARCH_LINES = 8


def _defined_name(line: str) -> str | None:
    m = _DEF_NAME.search(line)
    return next(name for name in m.groups() if name) if m and is_header(line) else None


def unit_names(lines: Sequence[str], bodies: Sequence[Sequence[int]]) -> list[str | None]:
    """The name each unit defines (`def name`, `class name` …), None for top-level chunks."""
    out: list[str | None] = []
    for body in bodies:
        out.append(next((n for i in body[:HEADER_SEARCH_LINES] if (n := _defined_name(lines[i]))), None))
    return out


_TRAILING_COMMENT = re.compile(r"\s#\s.*")


def _code_parts(lines: Sequence[str]) -> Callable[[int], str]:
    return lambda row: _code_part(lines[row])


def _code_part(line: str) -> str:
    """A Ruby or Bash line without its comment (`# …` after a blank), empty for a comment line."""
    stripped = line.lstrip()
    if stripped.startswith("#"):
        return ""
    return _TRAILING_COMMENT.sub("", stripped)


def called_credit(
    lines: Sequence[str],
    bodies: Sequence[Sequence[int]],
    line_scores: Sequence[float],
    *,
    names: Sequence[str | None] | None = None,
    lang: str | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> list[float]:
    """Per unit: the best score of a line, outside it, that calls its name (`name(`, the
    language's `CALL_SHAPES`, or in a language of `BARE_CALL_WORDS` any word of its code).

    A name defined by several units (`register` in four classes) shares the credit among
    them; dunder names (`__init__`) and a definition's own header line are not calls.
    `names` (from `unit_names`) saves finding the names again. `lang` is a key of
    `languages.registry.LANGUAGES`, None if unknown.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    calls = by_name(lang).calls
    fold = calls.ignore_case
    units_of: dict[str, list[int]] = {}
    for k, name in enumerate(unit_names(lines, bodies) if names is None else names):
        if name is not None and len(name) >= MIN_CALLED_NAME and not name.startswith("__"):
            units_of.setdefault(name.lower() if fold else name, []).append(k)
    credit = [0.0] * len(bodies)
    if not units_of:
        return credit
    bare, shape = calls.bare_words, calls.shape
    code_of = None if bare is None else (calls.code_of or _code_parts)(lines)
    for i, score in deadline.paced(enumerate(line_scores)):
        if score <= 0.0:
            continue
        line = lines[i]
        code = "" if code_of is None else code_of(i)
        if bare is not None and code:
            called = units_of.keys() & bare.findall(code.lower() if fold else code)
        elif shape is not None:
            called = units_of.keys() & shape.findall(line)
        elif "(" in line:
            called = units_of.keys() & _CALL.findall(line)
        else:
            continue
        if called:  # a header is no call of its own name (found only then: it is the costly part)
            defined = _defined_name(line)
            called.discard(defined.lower() if fold and defined else defined)
        for name in called:
            owners = units_of.get(name)
            if not owners:
                continue
            share = score / len(owners)
            for k in owners:
                body = bodies[k]
                if body[0] <= i <= body[-1]:
                    continue  # a recursive call is no outside evidence
                credit[k] = max(credit[k], share)
    return credit
