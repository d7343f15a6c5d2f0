"""Visual Basic's procedures (VB.NET, VBA, VB6), found by a scan of their own: blocks as a parser's.

A VB procedure closes with a keyword line at its head's indentation (`End Sub`, `End Function`,
`End Property` …), which the language-independent heuristics, reading blocks by indentation and
brackets, left out of it; `Sub` and `Property` were no header to them at all. Here a `Function`,
`Sub`, `Property`, `Operator` or custom `Event` runs from its head to the `End` line of its kind
at its own indentation (or, in code not indented so, the first `End` of its kind); a declaration
without a body (`MustOverride`, `Declare`, an interface's member) or written on one line
(`Sub Reset() : n = 0 : End Sub`) is its head's lines. The `'` comments (`'''` XML docs) and
attribute lines (`<Extension>`, several on a line or over lines continued by ` _` or `,`) directly
above are its doc, weighed as a parser's (`LEAD_WEIGHT` a line); attributes on the head's own line
(`<Extension()> Public Function`, as much VB code writes them) are read past. Its name is known.
A type or namespace starts at its head, its doc and attributes left to the chunks as a parser's
container's are (`syntax.py`): its head is its members' context, kept with the one that wins, and
a class doc of forty lines kept so filled the budget the member needed.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block

_MODIFIERS = (
    r"(?:(?:Public|Private|Protected|Friend|Shared|Overrides|Overridable|NotOverridable|MustOverride|"
    r"Overloads|Shadows|Static|Async|Iterator|Partial|ReadOnly|WriteOnly|Default|Narrowing|Widening|"
    r"Custom|Declare(?:\s+(?:Ansi|Unicode|Auto|PtrSafe))?)\s+)*"
)
# An operator is named by a word (`CType`, `Not`, `IsTrue`) or by its symbols (`+`, `<>`, `&`); a
# VBA or VB6 property by its accessor, then its name (`Property Get Name()`, `Property Let Name(…)`).
_HEAD = re.compile(
    r"(\s*)" + _MODIFIERS + r"(Function|Sub|Property|Operator|Event)\s+((?:Get|Let|Set)\s+(?=[A-Za-z_\[]))?"
    r"(\[?\w+\]?|[-+*/\\^&=<>]+)",
    re.IGNORECASE,
)
_NO_BODY = re.compile(r"\s*(?:\w+\s+)*?(?:MustOverride|Declare)\b", re.IGNORECASE)
# An `Event` has a body only when `Custom`; a `Property` on one line (`Property X As T`) has none.
_CUSTOM = re.compile(r"\s*(?:\w+\s+)*?Custom\s+Event\b", re.IGNORECASE)
# A type or namespace holding members: its members' context, as a parser's class is.
_CONTAINER = re.compile(
    r"(\s*)(?:(?:Public|Private|Protected|Friend|Partial|Shadows|MustInherit|NotInheritable|Shared)\s+)*"
    r"(Class|Module|Structure|Interface|Namespace)\s+(\w+)",
    re.IGNORECASE,
)
# The words a head or a container's line may open with: any other line is neither, untried.
_OPENING_WORDS = frozenset(
    w.lower()
    for w in re.findall(
        r"[A-Za-z]+", _MODIFIERS + "Function Sub Property Operator Event MustInherit NotInheritable"
    )
) | {"class", "module", "structure", "interface", "namespace"}
_COMMENT = re.compile(r"\s*(?:'|REM\b)", re.IGNORECASE)
# A line of attributes alone (`<Extension>`, `<Extension> <DebuggerStepThrough>`, ` _` continued).
_ATTRIBUTE = re.compile(r"\s*(?:<[A-Za-z][^<>]*>\s*)+_?\s*$")
# The last line of attributes written over several lines (`<DllImport("u.dll"),` / ` CLSCompliant(False)>`).
_ATTRIBUTES_CLOSE = re.compile(r"\s*[A-Za-z][\w.]*(?:\(.*\))?\s*>\s*_?\s*$")
# Attributes written on the head's own line, before its modifiers (`<Extension()> Public Function`).
_LEADING_ATTRIBUTES = re.compile(r"(?:<[A-Za-z][^<>]*>\s*)+")
# A procedure on one line, its statements after `:` (`Sub Reset() : n = 0 : End Sub`).
_ONE_LINE_END = re.compile(r":\s*End\s+(?:Sub|Function|Property|Operator|Event)\s*(?:'.*)?$", re.IGNORECASE)
# An `End` line: its indentation and the kind of block it closes.
_END_LINE = re.compile(r"(\s*)End\s+(\w+)", re.IGNORECASE)
# How many lines one procedure may span before the scan gives up on its `End`.
MAX_PROCEDURE_LINES = 5_000


def _leads_into_next(line: str) -> bool:
    """Whether `line` is a comment or attributes of what follows, or a statement going on below
    (ending in ` _` or `,`: `<A(), _` over several lines)."""
    code = line.rstrip()
    attribute = _ATTRIBUTE.match(line) or _ATTRIBUTES_CLOSE.match(line)
    return bool(_COMMENT.match(line) or attribute or (code.endswith((" _", ",")) and code.strip()))


def _lead_start(lines: Sequence[str], row: int, floor: int) -> int:
    """The first line of the comments and attributes directly above `row`, also a line the head
    continues, never above `floor` (the line after the block before: thousands of `Sub f(a,`,
    each continuing into the next, made each head's lead all the lines above it)."""
    start = row
    while start > floor and _leads_into_next(lines[start - 1]):
        start -= 1
    return start


def _without_attributes(line: str) -> str:
    """`line` with the attributes that open it left out, its indentation kept."""
    body = line.lstrip()
    if not body.startswith("<"):
        return line
    found = _LEADING_ATTRIBUTES.match(body)
    return line[: len(line) - len(body)] + body[found.end() :] if found else line


def _signature_end(lines: Sequence[str], head: int) -> int:
    """Exclusive end of the head: past its ` _` continuations and unclosed parentheses."""
    depth = 0
    for j in range(head, min(len(lines), head + 100)):
        code = lines[j].split("'", 1)[0]
        depth += code.count("(") - code.count(")")
        if depth <= 0 and not code.rstrip().endswith((" _", ",")):
            return j + 1
    return head + 1


class _Ends:
    """Where the `End <kind>` lines are, by kind and by kind and indentation: one pass over the
    text, then each head's `End` is a bisection, not a scan (on thousands of heads left open, a
    scan from each to the next `End` was quadratic: ~2 s on 8,000 lines)."""

    def __init__(self, lines: Sequence[str], deadline: Deadline) -> None:
        self.of_kind: dict[str, list[int]] = {}
        self.of_kind_at: dict[tuple[str, str], list[int]] = {}
        for j, line in deadline.paced(enumerate(lines)):
            if line.lstrip()[:3].lower() != "end":
                continue
            found = _END_LINE.match(line)
            if found is not None:
                kind = found.group(2).lower()
                self.of_kind.setdefault(kind, []).append(j)
                self.of_kind_at.setdefault((kind, found.group(1)), []).append(j)

    def after(self, head: int, indent: str, kind: str) -> int | None:
        """Exclusive end of the block opened at `head`: the line after its `End <kind>` at its
        indentation, else after the first `End <kind>` (a lambda's, deeper; or, in code not
        indented so, the block's own); None if none is within `MAX_PROCEDURE_LINES`."""
        limit = head + MAX_PROCEDURE_LINES
        for rows in (self.of_kind_at.get((kind.lower(), indent), ()), self.of_kind.get(kind.lower(), ())):
            k = bisect.bisect_right(rows, head)
            if k < len(rows) and rows[k] < limit:
                return rows[k] + 1
        return None


def _has_body(lines: Sequence[str], head: int, sig_end: int, kind: str, accessor: bool) -> bool:
    line = _without_attributes(lines[head])
    if _NO_BODY.match(line):
        return False
    if accessor:  # VBA's `Property Get Name()`: one accessor's body, to its `End Property`
        return True
    if kind.lower() == "event":
        return bool(_CUSTOM.match(line))
    if kind.lower() == "property":  # an auto-property: the next line at its indentation is no `Get`
        following = next(  # an accessor may have attributes of its own (`<MethodImpl(…)>` above `Get`)
            (
                x
                for x in lines[sig_end : sig_end + 50]
                if x.strip() and not _COMMENT.match(x) and not _ATTRIBUTE.match(x)
            ),
            "",
        )
        return bool(
            re.match(r"\s*(?:(?:Public|Private|Protected|Friend)\s+)*(?:Get|Set)\b", following, re.IGNORECASE)
        )
    return True


def vbnet_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every procedure, with the comments and attributes directly above, in the class, module,
    structure, interface or namespace holding it; one inside another (a multi-line lambda's
    `Function(x)` has no name, so is none) is part of it."""
    out: list[Block] = []
    ends = _Ends(lines, deadline)
    floor = 0  # the first line the next block's lead may start on: past the last block's head
    inside_until = 0
    open_containers: list[tuple[int, str]] = []  # (index in `out`, kind), innermost last
    for row in deadline.paced(range(len(lines))):
        line = _without_attributes(lines[row])
        words = line.split(None, 1)
        if not words or words[0].lower() not in _OPENING_WORDS:
            continue
        while open_containers and out[open_containers[-1][0]].end <= row:
            open_containers.pop()
        if row >= inside_until and (box := _CONTAINER.match(line)) is not None:
            box_end = ends.after(row, box.group(1), box.group(2))
            if box_end is not None:
                parent = open_containers[-1][0] if open_containers else None
                out.append(Block(row, row, box_end, True, parent, sig_end=row + 1, name=box.group(3)))
                floor = row + 1
                open_containers.append((len(out) - 1, box.group(2).lower()))
            continue
        if row < inside_until:
            continue
        head = _HEAD.match(line)
        if head is None:
            continue
        kind = head.group(2)
        sig_end = _signature_end(lines, row)
        end = None
        in_interface = bool(open_containers) and open_containers[-1][1] == "interface"
        accessor = head.group(3) is not None  # VBA's `Property Get`
        one_line = _ONE_LINE_END.search(line) is not None
        if not in_interface and not one_line and _has_body(lines, row, sig_end, kind, accessor):
            end = ends.after(row, head.group(1), kind)
        if end is None:
            end = sig_end
        start = _lead_start(lines, row, floor)
        name: str | None = head.group(4).strip("[]")
        if name is not None and name.lower() == "new":
            name = "new"  # a constructor, `Sub New`: named as Ruby's and Perl's are (VB ignores case)
        elif name is not None and not name[0].isalnum() and name[0] != "_":
            name = None  # `Operator +`: no word to share with a question or another unit's name
        parent = open_containers[-1][0] if open_containers else None
        out.append(Block(start, row, end, False, parent, sig_end=sig_end, name=name))
        inside_until = floor = end
    return out
