"""A Perl sub's question from its POD (`lang_sets.py --perl-doc pod`).

A `#` comment above a Perl sub is as often a note to the maintainers ("hack for old perls") as
a description, so, as with Java's `/**` and Rust's `///`, the question comes from the sub's
documentation only: the one `=head2` / `=head3` / `=head4` / `=item` entry in the file that
names the sub (`=head2 new`, `=item $obj->method( %args )`, `=item C<< $mech->get( $uri ) >>`),
wherever the POD is (above the sub, in the top POD, after `__END__`), or a POD block without
any heading directly above it. The question is the entry's first prose paragraph (verbatim,
indented, paragraphs are code samples), or its `Function:` line in BioPerl's `Title : / Usage : /
Function :` form; the entry's rows are blanked in the task, with its block's `=cut` when the entry
opened the block (a `=cut` closing nothing opens POD down to the next one, in Perl as in its grammar).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from lang_docs import last_row

_COMMAND = re.compile(r"=([a-z]+\d?)\b\s*(.*)")
_ENTRIES = ("head2", "head3", "head4", "item")
# `$obj->name`, `Class->name`, `Class::name`, `&name`, then the name.
_ENTRY_NAME = re.compile(r"\s*(?:[$\w:]+\s*->\s*|[\w:]*::|&)?(\w+)")
_INNER_CODE = re.compile(r"[A-Z]<([^<>]*)>")
_DOUBLE_CODE = re.compile(r"[A-Z]<<+\s+(.*?)\s+>>+")
_ESCAPES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}
# BioPerl's entry: ` Title   : new` / ` Usage   : …` / ` Function: what it does` / ` Returns : …`.
_FIELD = re.compile(r"\s*([A-Z][a-z]+)\s*:\s*(.*)")
_DESCRIBING_FIELDS = ("Function", "Purpose", "Description")


def _plain(text: str) -> str:
    """POD text without its formatting codes: `C<x>` is `x`, `L<text|target>` is `text`."""
    text = _DOUBLE_CODE.sub(r"\1", text)
    for _ in range(10):
        inner = _INNER_CODE.sub(lambda m: _code_text(m.group(0)[0], m.group(1)), text)
        if inner == text:
            break
        text = inner
    return text


def _code_text(code: str, body: str) -> str:
    if code == "E":
        return _ESCAPES.get(body, "")
    if code == "L":
        return body.split("|")[0] if "|" in body else body.split("/")[-1].strip('"')
    return "" if code in "XZ" else body


def _entries(pods: list[Any], lines: list[str]) -> Iterator[tuple[str, int, int]]:
    """(named sub, heading row, last row) of each entry of the POD blocks `pods`."""
    for pod in pods:
        first, last = pod.start_point[0], last_row(pod)
        commands = [r for r in range(first, last + 1) if _COMMAND.match(lines[r])]
        for k, row in enumerate(commands):
            found = _COMMAND.match(lines[row])
            assert found is not None
            if found.group(1) not in _ENTRIES:
                continue
            name = _ENTRY_NAME.match(_plain(found.group(2)))
            end = commands[k + 1] - 1 if k + 1 < len(commands) else last
            if row == first and end + 1 <= last and lines[end + 1].startswith("=cut"):
                end += 1  # the entry opened the block: its `=cut` goes too, or it would open POD
            if name is not None:
                yield name.group(1), row, end


def pod_index(root: Any, lines: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Each name an entry documents, and the (heading row, last row) of its entries."""
    pods = [c for c in root.named_children if c.type == "pod"]
    index: dict[str, list[tuple[int, int]]] = {}
    for name, first, last in _entries(pods, lines):
        index.setdefault(name, []).append((first, last))
    return index


def _question(body: list[str]) -> str:
    """The first prose paragraph of an entry's body, or its BioPerl `Function:` field."""
    for k, line in enumerate(body):
        field = _FIELD.match(line)
        if field is not None and field.group(1) in _DESCRIBING_FIELDS:
            text = [field.group(2)]
            for more in body[k + 1 :]:
                if not more.strip() or _FIELD.match(more):
                    break
                text.append(more.strip().lstrip(":").strip())  # `         : more`
            return _plain(" ".join(text))
    paragraph: list[str] = []
    for line in [*body, ""]:
        if line.strip():
            paragraph.append(line)
        elif paragraph:
            if not paragraph[0][:1].isspace() and not paragraph[0].startswith("="):
                return _plain(" ".join(p.strip() for p in paragraph))
            paragraph = []
    return ""


def pod_doc(
    node: Any, lines: list[str], name: str, index: dict[str, list[tuple[int, int]]]
) -> tuple[int, int, str] | None:
    """(first doc row, last doc row, question) of the POD documenting the sub `node`."""
    entries = index.get(name, [])
    if len(entries) == 1:
        first, last = entries[0]
        return first, last, _without_name(_question(lines[first + 1 : last + 1]), name)
    if entries:
        return None  # two entries name it (two classes' methods): which one is unsure
    above = node.prev_named_sibling
    if above is None or above.type != "pod":
        return None
    first, last = above.start_point[0], last_row(above)
    if any(lines[r].strip() for r in range(last + 1, node.start_point[0])):
        return None
    if any(_COMMAND.match(lines[r]) and lines[r][1:5] in ("head", "item") for r in range(first, last + 1)):
        return None  # a heading that names no sub: a section's introduction, not this sub's doc
    body = [line for line in lines[first : last + 1] if not _COMMAND.match(line)]
    return first, last, _without_name(_question(body), name)


def _without_name(question: str, name: str) -> str:
    """The question without a leading name of the sub (`new` creates …): it names the target."""
    words = question.split()
    if words and words[0].strip(".,:`") in (name, f"{name}()"):
        words = words[1:]
    return " ".join(words)
