"""Tasks in languages the engine read by its heuristics when their sets were first built: F#,
Solidity, Groovy, Fortran, PowerShell, Common Lisp (their grammars the builder's only, in the
`bench` extra; the engine now parses F# and Fortran with the same grammars, so their gold spans
are the engine's own units).

Their doc comments are found by lines, not nodes: F#'s grammar puts the `///` above a function
inside the definition before it, so a line scan is the one rule for all six. A doc is the run
of comment lines directly above the definition (attribute lines between them and it belong to
the definition), or, in PowerShell and Common Lisp, the help block or docstring that opens the
body: the question is either's first paragraph, and its lines are blanked in the task.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lang_docs import XML_END, XML_REF, XML_TAG, last_code_row, last_row

EXTENSIONS = {
    "fsharp": (".fs",),
    "solidity": (".sol",),
    "groovy": (".groovy",),
    "fortran": (".f90", ".F90"),
    "powershell": (".ps1", ".psm1"),
    "commonlisp": (".lisp",),
}
FUNCTIONS = {
    "fsharp": {"function_or_value_defn", "member_defn"},  # a `let` with parameters only
    "solidity": {"function_definition", "constructor_definition", "modifier_definition"},
    "groovy": {"method_declaration", "constructor_declaration", "function_definition"},
    "fortran": {"subroutine", "function"},
    "powershell": {"function_statement"},
    "commonlisp": {"defun"},  # `defun`, `defmacro`, `defmethod` (`_LISP_DEFS`)
}
_LISP_DEFS = {b"defun", b"defmacro", b"defmethod"}
# A doc comment's lines, and how its first line opens where the language has a doc mark (a plain
# `//` above an F# `let` or a Groovy method is a note, not its documentation).
_DOC_LINE = {
    "fsharp": re.compile(r"\s*///"),
    "solidity": re.compile(r"\s*(?:///|/\*|\*)"),
    "groovy": re.compile(r"\s*(?:/\*|\*)"),
    "fortran": re.compile(r"\s*!"),
    "powershell": re.compile(r"\s*#"),
    "commonlisp": re.compile(r"\s*;"),
}
_DOC_OPEN = {
    "fsharp": re.compile(r"\s*///"),
    "solidity": re.compile(r"\s*(?:///|/\*\*)"),
    "groovy": re.compile(r"\s*/\*\*"),
}
# A comment line, in any of the six: one can end a definition's node (F#'s grammar gives the
# next definition's `///` to the one before) but never its code.
_COMMENT_LINE = re.compile(r"\s*(?://|/\*|\*|\(\*|!|#|;)")
# Lines between a doc and its definition that are the definition's: attributes, annotations.
_ATTRIBUTE = {
    "fsharp": re.compile(r"\s*\[<"),
    "groovy": re.compile(r"\s*@\w"),
}
_MARKS = re.compile(r"^\s*(?:///?|/\*\*?|\*/|\*+|!>|!!|!+|<#|#>|#+|;+|\")\s?")
_END_MARKS = re.compile(r"\s*(?:\*/|#>|\")\s*$")
# A ruler, also one with a tag in it (`!! ------[SAW1710]-`).
_RULER = re.compile(r"[-=*#~_+!;]{3,}(?:\[[^\]]*\][-=*#~_+!;]*)?")
# Javadoc's inline tags: `{@code x}`, `{@link Type#member}` are their text.
_INLINE_TAG = re.compile(r"\{@(?:code|link|linkplain|literal)\s+([^}]*)\}")
# NatSpec's and Doxygen's description tags lead prose; their other tags end it.
_LEAD_TAG = re.compile(r"^[@\\](?:notice|dev|brief|details)\s+")
_SKIP_TAG = re.compile(r"^@(?:title|author|custom:\S+)\b")
# Doxygen's other commands written with a backslash end the prose as an `@` tag does (`\param rho
# …` lists the arguments by name: a question holding them named its procedure's signature).
_END_TAG = re.compile(
    r"^\\(?:param|tparam|returns?|retval|par|author|date|note|warning|todo|see|sa|ingroup|version|"
    r"exception|throws?|pre|post|bug|deprecated)\b"
)
# PowerShell's help keywords: `.SYNOPSIS` / `.DESCRIPTION` lead prose, the others end it.
_HELP_KEYWORD = re.compile(r"^\.([A-Z]+)\b")


def _is_definition(node: Any, lang: str) -> bool:
    if lang == "fsharp" and node.type == "function_or_value_defn":
        return any(c.type == "function_declaration_left" for c in node.named_children)
    if lang == "groovy":
        return not node.has_error  # the grammar misreads some Groovy: its nodes' ends are unsure
    if lang == "commonlisp":
        head = node.named_children[0] if node.named_children else None
        keyword = head.named_children[0] if head is not None and head.named_children else None
        return keyword is not None and keyword.text in _LISP_DEFS
    return True


def _name(node: Any, lines: list[str], lang: str) -> str:
    rows = range(node.start_point[0], min(node.end_point[0], node.start_point[0] + 10) + 1)
    attribute = _ATTRIBUTE.get(lang)
    header = next((lines[r] for r in rows if attribute is None or not attribute.match(lines[r])), "")
    pattern = {
        "fsharp": r"\s*(?:static\s+)?(?:let|member|override|default|abstract)\s+"
        r"(?:inline\s+|rec\s+|private\s+|internal\s+|public\s+|static\s+)*(?:\w+\.)?([\w']+)",
        "solidity": r"\s*(?:function|modifier)\s+(\w+)",
        "groovy": r".*?(\w+)\s*\(",
        "fortran": r".*?\b(?:subroutine|function)\s+(\w+)",
        "powershell": r"\s*(?i:function|filter)\s+(?:\w+:)?([\w-]+)",
        "commonlisp": r"\s*\(def\w+\s+\(?(?:setf\s+)?([^\s()]+)",
    }[lang]
    found = re.match(pattern, header, re.IGNORECASE if lang == "fortran" else 0)
    return found.group(1) if found else ""


def _doc_above(lines: list[str], start: int, lang: str) -> tuple[int, int, int] | None:
    """(first doc row, last doc row, first attribute row) of the doc directly above `start`."""
    row = start
    attribute = _ATTRIBUTE.get(lang)
    while attribute is not None and row > 0 and attribute.match(lines[row - 1]):
        row -= 1
    first_attr, last = row, row - 1
    if lang == "powershell" and last >= 0 and lines[last].rstrip().endswith("#>"):
        rows_up = range(last, max(-1, last - 200), -1)
        top = next((k for k in rows_up if lines[k].lstrip().startswith("<#")), None)
        return None if top is None else (top, last, first_attr)
    doc_line = _DOC_LINE[lang]
    first = last + 1
    while first > 0 and doc_line.match(lines[first - 1]):
        first -= 1
    if first > last:
        return None
    opening = _DOC_OPEN.get(lang)
    if opening is not None and not opening.match(lines[first]):
        return None
    return first, last, first_attr


def _doc_inside(node: Any, lines: list[str], lang: str) -> tuple[int, int] | None:
    """Rows of a PowerShell help block or a Lisp docstring opening the body, on lines of its own."""
    if lang == "powershell":
        kids = [c for c in node.named_children if c.type != "function_name"]
        doc = next((c for c in kids[:2] if c.type == "comment" and (c.text or b"").startswith(b"<#")), None)
    elif lang == "commonlisp":
        kids = node.named_children
        doc = kids[1] if len(kids) > 2 and kids[1].type == "str_lit" else None
    else:
        return None
    if doc is None:
        return None
    first, last = doc.start_point[0], last_row(doc)
    own_lines = not lines[first][: doc.start_point[1]].strip() and not lines[last][doc.end_point[1] :].strip()
    return (first, last) if own_lines and first > node.start_point[0] else None


def question(lines: list[str], first: int, last: int, name: str) -> str:
    """The doc's first paragraph, its marks, markup and tags stripped, a leading name dropped."""
    paragraph: list[str] = []
    ruled = False
    for raw in lines[first : last + 1]:
        text = _END_MARKS.sub("", _MARKS.sub("", raw)).strip()
        if _RULER.fullmatch(text):
            ruled = bool(paragraph)
            continue
        if ruled:
            paragraph, ruled = [], False
        keyword = _HELP_KEYWORD.match(text)
        if keyword is not None:
            if paragraph or keyword.group(1) not in ("SYNOPSIS", "DESCRIPTION"):
                break
            continue
        if XML_END.match(text):
            break
        text = _LEAD_TAG.sub("", XML_TAG.sub("", XML_REF.sub(r"\1", _INLINE_TAG.sub(r"\1", text)))).strip()
        if _SKIP_TAG.match(text):
            continue
        if not text:
            if paragraph:
                break
            continue
        if text.startswith("@") or _END_TAG.match(text):
            break
        paragraph.append(text)
    words = " ".join(paragraph).split()
    if words and words[0].strip(".,:`") in (name, f"{name}()"):
        words = words[1:]
    return " ".join(words)


def definitions(
    lang: str, lines: list[str], definition_nodes: Iterator[Any]
) -> Iterator[tuple[int, int, int, int, str, str]]:
    """(first gold row, last gold row, first doc row, last doc row, question, name) per
    documented definition."""
    for node in definition_nodes:
        if node.type not in FUNCTIONS[lang] or not _is_definition(node, lang):
            continue
        start, end = node.start_point[0], last_code_row(node)
        while end > start and (not lines[end].strip() or _COMMENT_LINE.match(lines[end])):
            end -= 1
        name = _name(node, lines, lang)
        inside = _doc_inside(node, lines, lang)
        if inside is not None:
            yield start, end, inside[0], inside[1], question(lines, *inside, name), name
            continue
        above = _doc_above(lines, start, lang)
        if above is not None:
            first, last, first_attr = above
            yield first_attr, end, first, last, question(lines, first, last, name), name
