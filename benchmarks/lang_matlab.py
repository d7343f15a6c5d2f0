"""MATLAB tasks: functions found by the MATLAB grammar (`tree-sitter-matlab`, in the `bench` extra;
the engine has no MATLAB grammar: a `.m` it reads as Objective-C, and a failed parse goes to its
heuristics), their docs by lines.

A MATLAB function's doc is its help text: the `%` comment lines right after its signature, the
first of them the "H1 line" that opens with the function's name in capitals (`%AAA   AAA and
AAA-Lawson …`); a local function without help may have a comment block directly above it
instead. The question is that doc's first paragraph, the leading name dropped; its lines are
blanked in the task. Gold is the function from `function` to its `end` (or its last code line
when it has none), its help's blanked lines not counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lang_docs import last_code_row

EXTENSIONS = {"matlab": (".m",)}
_COMMENT = re.compile(r"\s*%(?![{}])")
_MARK = re.compile(r"^\s*%+\s?")
_RULER = re.compile(r"[-=*%#~_+]{3,}")
# Help sections after the description: `See also`, `Example(s)`, an `Inputs:` list.
_SECTION = re.compile(r"(?i)^(?:see also|examples?|inputs?|outputs?|syntax|usage|notes?|references?)\b.*:?$")


def _name(node: Any) -> str:
    found = next((c for c in node.children if c.type == "identifier"), None)
    return found.text.decode() if found is not None and found.text is not None else ""


def _help_inside(node: Any, lines: list[str]) -> tuple[int, int] | None:
    """Rows of the `%` lines right after the signature (the help text), None if there are none."""
    kids = node.children
    sig = next((k for k, c in enumerate(kids) if c.type == "function_arguments"), None)
    if sig is None:
        sig = next((k for k, c in enumerate(kids) if c.type == "identifier"), None)
    if sig is None or sig + 1 >= len(kids) or kids[sig + 1].type != "comment":
        return None
    first = kids[sig + 1].start_point[0]
    if first <= kids[sig].end_point[0] or not _COMMENT.match(lines[first]):
        return None  # a comment after code on the signature's line
    last = first
    while last + 1 < len(lines) and _COMMENT.match(lines[last + 1]):
        last += 1
    return first, last


def _doc_above(lines: list[str], start: int) -> tuple[int, int] | None:
    first = start
    while first > 0 and _COMMENT.match(lines[first - 1]):
        first -= 1
    return (first, start - 1) if first < start else None


def question(lines: list[str], first: int, last: int, name: str) -> str:
    paragraph: list[str] = []
    for raw in lines[first : last + 1]:
        text = _MARK.sub("", raw).strip()
        if _RULER.fullmatch(text):
            if paragraph:
                break
            continue
        if not text or _SECTION.match(text):
            if paragraph:
                break
            continue
        paragraph.append(text)
    text = " ".join(paragraph)
    # the H1 line's leading name, with its call form if it has one (`FINVERSE(F, X) Compute …`)
    return re.sub(rf"^{re.escape(name)}\b(?:\s*\([^)]*\))?[.,:]?\s*", "", text, flags=re.IGNORECASE).strip()


def definitions(lines: list[str], nodes: Iterator[Any]) -> Iterator[tuple[int, int, int, int, str, str]]:
    """(first gold row, last gold row, first doc row, last doc row, question, name) per documented
    function."""
    for node in nodes:
        if node.type != "function_definition" or node.has_error:
            continue
        start, end = node.start_point[0], last_code_row(node)
        while end > start and (not lines[end].strip() or _COMMENT.match(lines[end])):
            end -= 1
        name = _name(node)
        doc = _help_inside(node, lines) or _doc_above(lines, start)
        if doc is not None:
            yield start, end, doc[0], doc[1], question(lines, doc[0], doc[1], name), name
