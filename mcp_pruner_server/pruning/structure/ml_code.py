"""OCaml's and F#'s lines without their comments and string literals, read in order: OCaml's
`(* … *)` comments span lines and nest, and F#'s triple-quoted strings span lines (`calls.py`
reads the calls in what is left).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

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


def ocaml_code(lines: Sequence[str], *, fsharp: bool = False) -> list[str]:
    """Each OCaml (or F#) line without its comments and string literals (blanked): comments
    span lines and nest (`(* see (* this *) *)`), so the lines are read in order."""
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


def ocaml_lines(lines: Sequence[str]) -> Callable[[int], str]:
    """Each OCaml line's code, by row."""
    return ocaml_code(lines).__getitem__


def fsharp_lines(lines: Sequence[str]) -> Callable[[int], str]:
    """Each F# line's code, by row."""
    return ocaml_code(lines, fsharp=True).__getitem__
