"""Calls between definitions: which units a line calls, and the credit a call earns them.

A definition called from a line relevant to the question is likely the helper that does the
work the question's words describe (`code.py` adds that credit to its score). What a call
looks like is the language's: `name(` in most, any word of the code where calls may omit
their parentheses (Ruby, Bash, PowerShell, OCaml, F#, Fortran), also `name[T](` and `x.name` in Scala,
`x.name` in Visual Basic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import is_header

__all__ = ["BARE_CALL_WORDS", "called_credit", "ocaml_code", "unit_names"]

# Names shorter than this are too ambiguous to follow (`f`, `go`, `io`).
MIN_CALLED_NAME = 3
# Not from inside a word: a match there needs one from the word's own start, found first, so
# the lookbehind only spares trying (and backtracking over) every suffix of every identifier.
_CALL = re.compile(r"(?<![A-Za-z_])([A-Za-z_][A-Za-z0-9_]*)\s*\(")
# Languages whose calls have more shapes than `name(`, read on the whole line as `_CALL` is.
# Scala: type arguments come before the parentheses (`fromOrderedEntries[A, B](xs, n)`), and a
# method without parameters is called without them (`xs.force`, `stream.size`).
# Visual Basic: a property (a unit of its own, `vbnet_blocks.py`) without parameters is read as a
# member, without parentheses (`Me.EnergyFlow = x`, `stream.EnergyFlow`), and so may a method be.
CALL_SHAPES: dict[str, re.Pattern[str]] = {
    "scala": re.compile(r"(?<![\w$])[A-Za-z_][\w$]*(?=\s*[(\[])|(?<=\.)[A-Za-z_][\w$]*"),
    "vbnet": re.compile(r"(?<!\w)[A-Za-z_]\w*(?=\s*\()|(?<=\.)[A-Za-z_]\w*"),
}
# Languages whose calls may go without parentheses (Ruby's `textif arg`, a Bash command
# `log_info "x"`, OCaml's `find_end (n - 1)`): there each word of a line is a possible call,
# as `name(` is elsewhere.
# Ruby: not an `@ivar` or `$global`, a `:symbol` is (`before_action :check`, `send(:x)`);
# `valid?` and `save!` are names. Bash: names may hold `-`; `$name` is a variable. OCaml:
# names may hold `'`; a label (`~f`, `?default`) names a parameter, not a definition; a
# qualified name (`Tree.join`) calls the `join` a local module may define. F#: as OCaml's, also
# upper case (`List.map f xs`, `Banner.Draw page`). Fortran: a procedure is named bare in `call
# finalize`, a type's `procedure :: get_energy` binding (whose `!>` doc often repeats the
# procedure's) and an interface's `module procedure` list.
# Only the code of a line is read so: a comment's prose names no call (a `safe_dump`'s `# dump
# the object` note would credit a `dump` defined beside it), though in Ruby and Bash a comment's
# `name(` still does.
BARE_CALL_WORDS: dict[str, re.Pattern[str]] = {
    "ruby": re.compile(r"(?<![\w@$])[A-Za-z_]\w*(?:[?!](?!=))?"),
    "bash": re.compile(r"(?<![\w$-])[A-Za-z_][\w-]*"),
    "ocaml": re.compile(r"(?<![\w'~?])[a-z_][\w']*"),
    "powershell": re.compile(r"(?<![\w$-])[A-Za-z_][\w-]*"),  # `Get-Item -Path $p`, as Bash
    "fsharp": re.compile(r"(?<![\w'~?])[A-Za-z_][\w']*"),
    "fortran": re.compile(r"(?<!\w)[A-Za-z]\w*"),
}
# Fortran's `!` comment, from the mark to the line's end, unless the `!` is in a string ('…' or
# "…": a doubled quote inside one reads as two strings side by side, which skips the same text);
# group 1 is the code before it. Possessive: a line without a comment fails without backtracking.
# (F#'s `//` comments are taken out with its `(* … *)`, by `ocaml_code`.)
_FORTRAN_COMMENT = re.compile(r"""^((?:[^'"!]++|'[^']*+'|"[^"]*+")*+)!.*""")


def _fortran_code(code: str) -> str:
    bang = code.find("!")
    if bang < 0:
        return code
    if "'" not in code[:bang] and '"' not in code[:bang]:
        return code[:bang]  # most comments: no string before them (the pattern's loop costs)
    return _FORTRAN_COMMENT.sub(r"\1", code)


# Fixed-form Fortran (FORTRAN 77, `.f`, `.for`) makes a whole line a comment with a `C`, `c` or `*`
# in column 1. Free form starts no statement so (`call f`, `contains`, `c = 1`, `c(i) = 0`): one
# line so tells the file's form, which the extension alone does not (a `.f` may be free form).
_FIXED_FORM_COMMENT = re.compile(r"\*|[Cc](?![\w(%]|\s*=)")
_FIXED_FORM_MARKS = ("C", "c", "*")


def _fixed_form(lines: Sequence[str]) -> bool:
    return any(line.startswith(_FIXED_FORM_MARKS) and _FIXED_FORM_COMMENT.match(line) for line in lines)


def _fortran_line_code(line: str, fixed_form: bool) -> str:
    """A Fortran line's code: none on a comment line or a preprocessor line (`#ifdef`, `#include`);
    a `#` elsewhere is text (`'a # b'`), not the start of a comment as in Ruby or Bash."""
    if (fixed_form and line.startswith(_FIXED_FORM_MARKS)) or line.lstrip().startswith("#"):
        return ""
    return _fortran_code(line)


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


def _code_part(line: str) -> str:
    """A Ruby or Bash line without its comment (`# …` after a blank), empty for a comment line."""
    stripped = line.lstrip()
    if stripped.startswith("#"):
        return ""
    return _TRAILING_COMMENT.sub("", stripped)


# What may hide a comment's delimiter from OCaml: a string, or a character literal (`'"'`);
# a type variable (`'a -> 'b`) is no literal: one character (or escape) between the quotes.
_OCAML_TOKENS = re.compile(r"\(\*|\*\)|\"(?:\\.|[^\"\\])*\"|'(?:\\[^']{1,4}|[^'\\])'")
# F# reads `(*)` as the multiplication operator (`List.fold (*) 1 xs`), not a comment's start:
# read as one, it hid every line after it up to the next `*)`. F# also has `//` comments (OCaml
# has none), whose text may hold a `(*` (`// a (* b`), and `"""` strings, which may span lines:
# `"""` alone on a line opens one, which a later line's `"""` closes. A verbatim string has no
# escapes (`@"C:\logs\"`: read with OCaml's, its last quote was escaped and the string ran on
# over the code after it), `""` being a quote in it. An interpolated string (`$"{render page}"`,
# `$@"…"`, `$$"""…"""`) holds code in its holes, whose calls count: its text only is blanked.
_FSHARP_TOKENS = re.compile(
    r'\(\*\)|//|\$*"""(?:.*?""")?|(?:\$?@|@\$)"(?:[^"]|"")*"|\$"(?:\\.|[^"\\])*"|' + _OCAML_TOKENS.pattern
)
# The code in an interpolated string's holes (`{x}`, `{{x}}` in a `$$` one; `{{` in a `$"…"` is a
# brace of the text, whose words, read as code too, are rarely a unit's name).
# A run of braces is read from its first (`(?<!\{)`): tried from each of its braces, a line of
# thousands of `{` took quadratic time.
_HOLE = re.compile(r"(?<!\{)\{++([^{}]*+)\}+")


def ocaml_code(lines: Sequence[str], lang: str | None = "ocaml") -> list[str]:
    """Each OCaml (or F#) line without its comments and string literals (blanked): comments
    span lines and nest (`(* see (* this *) *)`), so the lines are read in order."""
    fsharp = lang == "fsharp"
    tokens = _FSHARP_TOKENS if fsharp else _OCAML_TOKENS
    out: list[str] = []
    depth = 0
    in_string = False  # inside an F# `"""` string opened on an earlier line
    for line in lines:
        pos = 0
        if in_string:
            closing = line.find('"""')
            if closing < 0:
                out.append("")
                continue
            in_string = False
            pos = closing + 3
        elif not depth and "(*" not in line and '"' not in line and "'" not in line:
            # most lines: no comment or literal to take out, else an F# `//` comment alone
            comment = line.find("//") if fsharp else -1
            out.append(line if comment < 0 else line[:comment])
            continue
        parts: list[str] = []
        for m in tokens.finditer(line, pos):
            if not depth:
                parts.append(line[pos : m.start()])
            token = m.group()
            pos = m.end()
            if token == "(*":
                depth += 1
            elif token == "*)":
                depth = max(0, depth - 1)
            elif (token == "//" and not depth) or token.lstrip("$") == '"""':
                in_string = token != "//"
                pos = len(line)  # the rest of the line is comment or string
                break
            elif not depth and fsharp and token.startswith(("$", "@$")):  # `"${x}"` is text
                parts.extend(_HOLE.findall(token))
        if not depth:
            parts.append(line[pos:])
        out.append(" ".join(parts))
    return out


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
    `syntax_grammars.GRAMMARS`, None if unknown.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    fortran = lang == "fortran"  # its names ignore case: `CALL Finalize` calls `subroutine finalize`
    units_of: dict[str, list[int]] = {}
    for k, name in enumerate(unit_names(lines, bodies) if names is None else names):
        if name is not None and len(name) >= MIN_CALLED_NAME and not name.startswith("__"):
            units_of.setdefault(name.lower() if fortran else name, []).append(k)
    credit = [0.0] * len(bodies)
    if not units_of:
        return credit
    bare = BARE_CALL_WORDS.get(lang or "")
    shape = CALL_SHAPES.get(lang or "")
    codes = ocaml_code(lines, lang) if lang in ("ocaml", "fsharp") else None  # `(* … *)` spans lines
    fixed_form = fortran and _fixed_form(lines)
    for i, score in deadline.paced(enumerate(line_scores)):
        if score <= 0.0:
            continue
        line = lines[i]
        if fortran:
            code = _fortran_line_code(line, fixed_form)
        else:
            code = "" if bare is None else codes[i] if codes is not None else _code_part(line)
        if bare is not None and code:
            called = units_of.keys() & bare.findall(code.lower() if fortran else code)
        elif shape is not None:
            called = units_of.keys() & shape.findall(line)
        elif "(" in line:
            called = units_of.keys() & _CALL.findall(line)
        else:
            continue
        if called:  # a header is no call of its own name (found only then: it is the costly part)
            defined = _defined_name(line)
            called.discard(defined.lower() if fortran and defined else defined)
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
