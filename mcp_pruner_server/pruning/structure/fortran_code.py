"""A Fortran line's code, without its comment: `!` outside strings, and in fixed form (FORTRAN 77)
a whole line marked in column 1 (`calls.py` reads the calls in what is left).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

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


def fortran_lines(lines: Sequence[str]) -> Callable[[int], str]:
    """Each Fortran line's code, by row (the file's form read once)."""
    fixed_form = _fixed_form(lines)
    return lambda row: _fortran_line_code(lines[row], fixed_form)
