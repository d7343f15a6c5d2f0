"""Tasks in Clojure, Visual Basic .NET and Pascal (Delphi, Free Pascal), languages first measured
in session 8: their definitions found by lines, by a scanner of the builder's own, independent of
the engine's (Clojure and VB.NET have no tree-sitter wheel on PyPI; Pascal's is not used, so the
engine's units are judged against a reading it did not make).

Clojure: a top-level `(defn`, `(defn-` or `(defmacro` at column 0, to the `)` that closes it
(strings, regexes, `\\c` characters and `;` comments skipped). Its doc is its docstring, on lines
of its own after the name (`(defn f "doc" [x]` on one line is skipped: blanking it would blank
the head); the question is the docstring's first paragraph.

VB.NET: a `Function`, `Sub`, `Property` or `Operator` with a body, from its head (attribute lines
`<…>` above it counted in) to the `End Function` / `End Sub` … at its head's indentation (Visual
Studio indents every VB file so). Its doc is the run of `'''` XML doc lines directly above; the
question is the `<summary>`'s first paragraph, its tags and `<see cref>` names as text.

Pascal: a routine (`procedure`, `function`, `constructor`, `destructor`, `operator`, `class …`)
at column 0 after `implementation`, to the `end;` that closes its body (`begin`, `asm`, `case`,
`try`, `record` opened, `end` closed, comments and strings skipped; a nested routine's body is
its own). Its doc is the comment directly above the head: a run of `//` lines or one `{ … }` /
`(* … *)` block (a `{$…}` directive is none, nor code commented out: `:=`, `begin`, `end;`); the
question is its first paragraph.

`definitions(lang, lines)` yields what `lang_others.definitions` yields:
(first gold row, last gold row, first doc row, last doc row, question, name).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lang_docs import XML_END, XML_REF, XML_TAG

EXTENSIONS = {
    "clojure": (".clj", ".cljc", ".cljs"),
    "vbnet": (".vb",),
    "pascal": (".pas", ".pp"),
}
_RULER = re.compile(r"[-=*#~_+/{}();]{3,}")
# A note to the maintainers in any case (`lang_sets.py` drops upper-case ones): not a description.
_NOTE = re.compile(r"(?:todo|fixme|xxx|hack|note)\b", re.IGNORECASE)


def _first_paragraph(texts: list[str], name: str) -> str:
    paragraph: list[str] = []
    for text in texts:
        text = text.strip()
        if _RULER.fullmatch(text):
            if paragraph:
                break
            continue
        if not text:
            if paragraph:
                break
            continue
        paragraph.append(text)
    words = " ".join(paragraph).split()
    if words and _NOTE.match(words[0]):
        return ""
    if words and words[0].strip(".,:`'") in (name, f"{name}()"):
        words = words[1:]
    return " ".join(words)


# --- Clojure ---------------------------------------------------------------------------------
_CLJ_DEF = re.compile(r"\((defn-?|defmacro)\s+(?:\^(?::[\w-]+|\{[^}]*\}|[\w.]+)\s+)*([^\s()\[\]{}\"]+)")


def _clj_end(lines: list[str], start: int) -> int | None:
    """The row of the `)` closing the form opened at column 0 of `start`."""
    depth, in_string = 0, False
    for row in range(start, min(len(lines), start + 3000)):
        line, k = lines[row], 0
        while k < len(line):
            ch = line[k]
            if in_string:
                if ch == "\\":
                    k += 2
                    continue
                if ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "\\":
                k += 2  # a character literal: `\(`, `\"`, `\;`
                continue
            elif ch == ";":
                break
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    return row
            k += 1
    return None


def _clj_docstring(lines: list[str], start: int, end: int) -> tuple[int, int] | None:
    """Rows of the docstring after the name, when it opens and closes on lines of its own."""
    row = start + 1
    while row <= end and re.match(r"\s*\^", lines[row]):  # metadata on a line of its own
        row += 1
    if row > end or not lines[row].lstrip().startswith('"'):
        return None
    body = lines[row].lstrip()[1:]
    for last in range(row, min(end, row + 200) + 1):
        text = body if last == row else lines[last]
        closing = re.search(r'(?<!\\)(?:\\\\)*"', text)
        if closing is not None:
            return (row, last) if not text[closing.end() :].strip() else None
    return None


def _clj_definitions(lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    row = 0
    while row < len(lines):
        head = _CLJ_DEF.match(lines[row])
        if head is None:
            row += 1
            continue
        end = _clj_end(lines, row)
        if end is None:
            return
        doc = _clj_docstring(lines, row, end)
        if doc is not None:
            texts = [re.sub(r'^\s*"|"\s*$', "", lines[r]) for r in range(doc[0], doc[1] + 1)]
            texts = [re.sub(r"`([^`]*)`", r"\1", t) for t in texts]
            name = head.group(2)
            yield row, end, doc[0], doc[1], _first_paragraph(texts, name), name
        row = end + 1


# --- Visual Basic .NET -----------------------------------------------------------------------
_VB_MODIFIERS = (
    r"(?:(?:Public|Private|Protected|Friend|Shared|Overrides|Overridable|NotOverridable|Overloads|"
    r"Shadows|Static|Async|Iterator|Partial|ReadOnly|WriteOnly|Default|Narrowing|Widening)\s+)*"
)
_VB_HEAD = re.compile(
    r"(\s*)" + _VB_MODIFIERS + r"(Function|Sub|Property|Operator)\s+(\[?\w+\]?)", re.IGNORECASE
)
_VB_NO_BODY = re.compile(r"\s*(?:\w+\s+)*?(?:MustOverride|Declare)\b", re.IGNORECASE)
_VB_ATTRIBUTE = re.compile(r"\s*<[A-Z][\w.]*(?:\(.*\))?>\s*_?\s*$")
_VB_DOC = re.compile(r"\s*'''")


def _vb_end(lines: list[str], start: int, indent: str, kind: str) -> int | None:
    closing = re.compile(re.escape(indent) + r"End\s+" + kind + r"\b", re.IGNORECASE)
    for row in range(start + 1, min(len(lines), start + 2000)):
        line = lines[row]
        if closing.match(line):
            return row
        stripped = line.strip()
        outdented = stripped and len(line) - len(line.lstrip()) <= len(indent)
        continued = lines[row - 1].rstrip().endswith((" _", ",", "("))
        if outdented and not stripped.startswith(("'", "#", ")")) and not continued:
            return None  # a declaration without a body: the next member, or `End Class`
    return None


def _vb_definitions(lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    for row, line in enumerate(lines):
        head = _VB_HEAD.match(line)
        if head is None or _VB_NO_BODY.match(line):
            continue
        end = _vb_end(lines, row, head.group(1), head.group(2))
        if end is None:
            continue
        top = row
        while top > 0 and _VB_ATTRIBUTE.match(lines[top - 1]):
            top -= 1
        first = top
        while first > 0 and _VB_DOC.match(lines[first - 1]):
            first -= 1
        if first == top:
            continue
        texts = []
        for raw in lines[first:top]:
            text = re.sub(r"^\s*'''\s?", "", raw).strip()
            if XML_END.match(text):
                break
            texts.append(XML_TAG.sub("", XML_REF.sub(r"\1", text)))
        name = head.group(3).strip("[]")
        yield top, end, first, top - 1, _first_paragraph(texts, name), name


# --- Pascal ----------------------------------------------------------------------------------
_PAS_HEAD = re.compile(
    r"(?:class\s+)?(?:procedure|function|constructor|destructor|operator)\s+([\w.]+(?:<[^>]*>)?[\w.]*)",
    re.IGNORECASE,
)
_PAS_IMPLEMENTATION = re.compile(r"implementation\b", re.IGNORECASE)
_PAS_TOKEN = re.compile(r"//|\{|\(\*|'|[A-Za-z_]\w*|[:=(;]")
_PAS_OPENERS = {"begin", "asm", "case", "try", "record"}
_PAS_CODE = re.compile(r":=|\bbegin\b|\bend;", re.IGNORECASE)  # code commented out, not a doc
_PAS_ROUTINES = {"procedure", "function", "constructor", "destructor"}


def _pas_end(lines: list[str], start: int) -> int | None:
    """The row of the `end` closing the body of the routine whose head is on `start`."""
    opened: list[str] = []
    nested, previous, comment = 0, "", ""
    for row in range(start, min(len(lines), start + 4000)):
        line, k = lines[row], 0
        if row == start:
            k = _PAS_HEAD.match(line).end()  # type: ignore[union-attr]
        while k < len(line):
            if comment:
                close = line.find(comment, k)
                if close < 0:
                    break
                k, comment = close + len(comment), ""
                continue
            token = _PAS_TOKEN.search(line, k)
            if token is None:
                break
            word, k = token.group(0), token.end()
            if word == "//":
                break
            if word in ("{", "(*"):
                comment = "}" if word == "{" else "*)"
                continue
            if word == "'":
                close = line.find("'", k)
                k = len(line) if close < 0 else close + 1
                continue
            lower = word.lower()
            if lower in _PAS_OPENERS and not (lower == "case" and opened[-1:] == ["record"]):
                opened.append(lower)  # a variant record's `case` shares the record's `end`
            elif lower == "end" and opened:
                closed = opened.pop()
                if not opened and closed in ("begin", "asm"):
                    if nested == 0:
                        return row
                    nested -= 1
            elif lower in _PAS_ROUTINES and not opened and previous not in (":", "=", "("):
                nested += 1  # a nested routine; a procedural type follows `:`, `=` or `(`
            previous = lower
    return None


def _pas_doc(lines: list[str], head: int) -> tuple[int, int] | None:
    last = head - 1
    if last < 0:
        return None
    text = lines[last].strip()
    if text.startswith("//"):
        first = last
        while first > 0 and lines[first - 1].strip().startswith("//"):
            first -= 1
        return first, last
    for opening, closing in (("{", "}"), ("(*", "*)")):
        if text.endswith(closing) and not text.startswith("{$") and not text.startswith("(*$"):
            for first in range(last, max(-1, last - 200), -1):
                if lines[first].lstrip().startswith(opening):
                    return None if lines[first].lstrip().startswith(opening + "$") else (first, last)
                if lines[first].strip() and first < last and closing in lines[first]:
                    return None
            return None
    return None


def _pas_definitions(lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    begun = next((r for r, line in enumerate(lines) if _PAS_IMPLEMENTATION.match(line)), None)
    if begun is None:
        return
    row = begun + 1
    while row < len(lines):
        head = _PAS_HEAD.match(lines[row])
        if head is None or re.search(r"\bforward\s*;|\bexternal\b", lines[row], re.IGNORECASE):
            row += 1
            continue
        end = _pas_end(lines, row)
        if end is None:
            row += 1
            continue
        doc = _pas_doc(lines, row)
        if doc is not None:
            texts = [
                re.sub(r"^\s*(?://+|\{|\(\*)|(?:\}|\*\))\s*$", "", lines[r]).strip("*").strip()
                for r in range(doc[0], doc[1] + 1)
            ]
            name = head.group(1).rsplit(".", 1)[-1]
            query = _first_paragraph(texts, name)
            if not _PAS_CODE.search(query):
                yield row, end, doc[0], doc[1], query, name
        row = end + 1


def definitions(lang: str, lines: list[str]) -> Iterator[tuple[int, int, int, int, str, str]]:
    if lang == "clojure":
        yield from _clj_definitions(lines)
    elif lang == "vbnet":
        yield from _vb_definitions(lines)
    elif lang == "pascal":
        yield from _pas_definitions(lines)
    else:
        raise ValueError(f"no scanner for {lang}")
