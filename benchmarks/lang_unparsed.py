"""Tasks in languages without a grammar wheel on PyPI (R, Erlang): their definitions found by
lines, by a small scanner of the builder's own, independent of the engine's heuristics.

R: a top-level `name <- function(…)` (or `=`, `<<-`, a backquoted or quoted name) is a
definition; it runs from that line to the `}` that closes its body (strings, backquoted names
and `#` comments skipped while matching), or, for a body without braces, to the first line
where every bracket is closed and the line does not end in an operator. Its doc is the roxygen
block (`#'` lines) directly above it. The question is the roxygen title and, where the title is
followed by a description paragraph, that paragraph too (roxygen's `@title` and `@description`:
a title alone is a few words); `@` tags end it, Rd markup (`\\code{x}`) and markdown links
(`[f()]`) are their text.

Erlang: a function is its clauses, from the first clause's `name(` at column 0 to the `.` that
ends the last (strings, quoted atoms, `$c` characters and `%` comments skipped), with a
`-spec` directly above it counted in (as an attribute is elsewhere). Its doc is the run of `%`
comment lines directly above (the `-spec` or the first clause), or an OTP 27 `-doc` attribute;
the question is that doc's first paragraph, edoc's `@doc` tag dropped and other tags ending it.

`definitions(lang, lines)` yields what `lang_others.definitions` yields:
(first gold row, last gold row, first doc row, last doc row, question, name).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

EXTENSIONS = {
    "r": (".R", ".r"),
    "erlang": (".erl",),
}

# --- R ---------------------------------------------------------------------------------------
_R_DEF = re.compile(r"(`[^`]+`|\"[^\"]+\"|[A-Za-z.][\w.]*)\s*(?:<<-|<-|=)\s*function\s*\(")
_R_DOC = re.compile(r"\s*#'")
# A line that goes on past its end: it ends in an operator, a comma or an opening bracket.
_R_CONTINUES = re.compile(r"(?:[-+*/^|&,=<>~(\[{]|%\w*%|%%|<-)\s*$")
_RD_MARKUP = re.compile(r"\\(?:code|link|emph|strong|pkg|var|bold|verb|dQuote|sQuote|href)\{([^{}]*)\}")
# Inline R code, run when the docs are built (a lifecycle badge): not prose.
_INLINE_R = re.compile(r"`r [^`]*`")
_MD_LINK = re.compile(r"\[([^\[\]]+)\](?:\([^)]*\)|\[[^\]]*\])?")


def _code_of(line: str, state: list[str]) -> str:
    """`line` without its comment and the insides of its strings; `state` carries an open
    string's quote across lines (R strings may span lines)."""
    out, i, quote = [], 0, state[0] if state else ""
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
            i += 1
            continue
        if ch in "\"'`":
            quote = ch
        elif ch == "#":
            break
        else:
            out.append(ch)
        i += 1
    state[:] = [quote] if quote else []
    return "".join(out)


def _r_end(lines: list[str], start: int) -> int | None:
    """The last row of the R function defined on `start`, or None when brackets never close:
    its parameters' `(…)`, then a `{…}` body to its `}`, or a bare expression to the first line
    end where every bracket is closed and the line does not go on."""
    state: list[str] = []
    head = _R_DEF.match(lines[start])
    assert head is not None
    depth, phase = 0, "params"  # then "between", then "braced" or "bare"
    for row in range(start, len(lines)):
        code = _code_of(lines[row][head.end() - 1 :] if row == start else lines[row], state)
        for ch in code:
            if phase == "between" and not ch.isspace():
                phase = "braced" if ch == "{" else "bare"
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    return None
                if depth == 0 and phase == "params":
                    phase = "between"
                elif depth == 0 and phase == "braced":
                    return row
        if phase == "bare" and depth == 0 and not state and not _R_CONTINUES.search(code):
            return row
    return None


def _roxygen_question(lines: list[str], first: int, last: int, name: str) -> str:
    paragraphs: list[list[str]] = [[]]
    for raw in lines[first : last + 1]:
        text = re.sub(r"^\s*#'\s?", "", raw).strip()
        tag = re.match(r"@(title|description)\s*", text)
        if tag is not None:
            text = text[tag.end() :]
        elif text.startswith("@"):
            break
        if not text:
            if paragraphs[-1]:
                paragraphs.append([])
            continue
        text = _INLINE_R.sub("", text)
        if text.strip():
            paragraphs[-1].append(_MD_LINK.sub(r"\1", _RD_MARKUP.sub(r"\1", text)))
    title = " ".join(paragraphs[0]).split()
    description = " ".join(paragraphs[1]).split() if len(paragraphs) > 1 else []
    if description and description[0].strip("`.,:").removesuffix("()") == name:
        description = description[1:]  # "`f()` does …": the question does not name its target
    return " ".join(title + description)


def _r_definitions(lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    for row, line in enumerate(lines):
        head = _R_DEF.match(line)
        if head is None:
            continue
        first = row
        while first > 0 and _R_DOC.match(lines[first - 1]):
            first -= 1
        if first == row:
            continue
        end = _r_end(lines, row)
        if end is None:
            continue
        name = head.group(1).strip('`"')
        yield row, end, first, row - 1, _roxygen_question(lines, first, row - 1, name), name


# --- Erlang ----------------------------------------------------------------------------------
_ERL_CLAUSE = re.compile(r"([a-z][\w@]*|'(?:[^'\\]|\\.)+')\s*\(")
_ERL_COMMENT = re.compile(r"\s*%")
_ERL_SPEC = re.compile(r"-spec\b")
# A form's terminating `.`: followed by a blank, a comment or the line's end (not `1.5`, `R#r.f`).
_ERL_STOP = re.compile(r"\.(?=\s|%|$)")
_EDOC_MARKS = re.compile(r"^\s*%+\s?")
_EDOC_RULER = re.compile(r"[-=*%#~_+]{3,}")


def _erl_code(line: str) -> str:
    """`line` with its strings, quoted atoms and `$c` characters blanked and its comment cut."""
    out, k, quote = [], 0, ""
    while k < len(line):
        ch = line[k]
        if quote:
            if ch == "\\":
                k += 2
                continue
            if ch == quote:
                quote = ""
            out.append(" ")
        elif ch == "$":
            out.append("  ")
            k += 3 if line[k + 1 : k + 2] == "\\" else 2
            continue
        elif ch in "\"'":
            quote = ch
            out.append(" ")
        elif ch == "%":
            break
        else:
            out.append(ch)
        k += 1
    return "".join(out)


def _erl_end(lines: list[str], start: int) -> int | None:
    """The row of the `.` ending the form that opens on `start` (Erlang strings do not span
    lines in the code of these projects' style; a string that does is read line by line)."""
    for row in range(start, min(len(lines), start + 2000)):
        if _ERL_STOP.search(_erl_code(lines[row])):
            return row
    return None


def _edoc_question(lines: list[str], first: int, last: int, name: str) -> str:
    paragraph: list[str] = []
    for raw in lines[first : last + 1]:
        text = _EDOC_MARKS.sub("", raw).strip()
        if _EDOC_RULER.fullmatch(text):
            if paragraph:
                break
            continue
        if text.startswith("@doc"):
            text = text[4:].strip()
        elif text.startswith("@"):
            break
        if not text:
            if paragraph:
                break
            continue
        paragraph.append(text)
    words = " ".join(paragraph).split()
    if words and words[0].strip("`'.,:") in (name, *(f"{name}/{n}" for n in range(10))):
        words = words[1:]
    return " ".join(words)


def _erl_definitions(lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    row = 0
    while row < len(lines):
        head = _ERL_CLAUSE.match(lines[row])
        if head is None:
            row += 1
            continue
        end = _erl_end(lines, row)
        if end is None:
            return
        top = row  # a `-spec` form directly above is the function's
        above = row - 1
        while (
            above >= 0 and lines[above].strip() and not _ERL_COMMENT.match(lines[above]) and row - above < 30
        ):
            if _ERL_SPEC.match(lines[above]):
                top = above
                break
            above -= 1
        first = top
        while first > 0 and _ERL_COMMENT.match(lines[first - 1]):
            first -= 1
        if first < top:
            name = head.group(1)
            yield top, end, first, top - 1, _edoc_question(lines, first, top - 1, name), name
        row = end + 1


def definitions(lang: str, lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    if lang == "r":
        yield from _r_definitions(lines)
    elif lang == "erlang":
        yield from _erl_definitions(lines)
    else:
        raise ValueError(f"no scanner for {lang}")
