"""PowerShell's definitions, found by its own braces: functions, filters, classes and their methods.

PowerShell closes every body with a brace, but writes it in styles indentation does not follow: a
body at column 0 under its `Function X {` (scripts pasted from a console), a line continued by a
backtick, the body's `{` under its header (Allman, DSC's style). Its lexing (`powershell_lex.py`)
finds each body's closing brace; a definition is a `function` / `filter` / `workflow` /
`configuration` (a DSC configuration, run as a function), a `class` with its methods and
constructors, an `enum`, or a script block bound to a variable (`$onExit = {`) or given to the
function drive (`Set-Item function:Get-X {`). Its comments directly above it come with it, as
`code_blocks.find_blocks` takes them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import (
    MAX_SIGNATURE_LINES,
    MODULE_LIKE_LINES,
    Block,
    find_blocks,
)
from mcp_pruner_server.pruning.structure.common import indent_of
from mcp_pruner_server.pruning.structure.powershell import PWSH_COMMENT
from mcp_pruner_server.pruning.structure.powershell_lex import Lexed, brace_closes, lex

# `function Get-Item`, `Filter script:Out-Thing`, `configuration WebServer`, `class Dog : Animal`,
# `enum Color`, and a script block bound to a name, which is a function: to a variable (`$onExit = {`)
# or to the function drive (`${function:Get-X} = {`, `Set-Item function:Get-X -Value {`); the first
# may follow the byte order mark a file saved by Windows tools opens with.
_DEFINITION = re.compile(
    r"^\ufeff?\s*(?:(?P<kw>function|filter|workflow|configuration|class|enum)\s+(?:\w+:)?(?P<name>[\w.-]+)"
    r"|\$(?:\{function:[^}]+\}|(?:\w+:)?\w+)\s*=\s*(?=\{\s*$)"
    r"|(?:Set-Item|New-Item)\s+(?:-Path\s+)?function:[^{]*(?=\{\s*$))",
    re.IGNORECASE,
)
# A class member with a body: a method (`[string] Describe([int] $n) {`, `static [void] Reset()`,
# `hidden Helper()`) or a constructor (`Dog([string] $name) : base($name) {`).
_MEMBER = re.compile(
    r"^\s*(?:(?:static|hidden)\s+)*(?:\[[^\]]*\]\s*)?(?P<name>[A-Za-z_]\w*)\s*\(", re.IGNORECASE
)
_KINDS_HOLDING_MEMBERS = frozenset({"class"})
_KINDS_HOLDING_NOTHING = frozenset({"enum"})
# The definitions that make a long function a module in all but name (`MODULE_LIKE_LINES`).
_DEFINING_KINDS = frozenset({"function", "filter", "workflow", "configuration", "class", "enum"})


def powershell_blocks(lines: Sequence[str], *, deadline: Deadline = NO_DEADLINE) -> list[Block]:
    """Every definition block of a PowerShell text, outer before inner, with its parent index (as
    `code_blocks.find_blocks` returns them). A body whose braces do not close keeps the end
    indentation gives it, and a text that ends inside a string or comment (misread, or cut off)
    is read by indentation alone.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    lexed = lex(lines, deadline=deadline)
    if not lexed.closed:
        return find_blocks(lines, comment=PWSH_COMMENT, deadline=deadline)  # misread: indentation decides
    closes = brace_closes(lexed)
    by_indentation: dict[int, int] | None = None  # found only for a body without its braces
    found: list[tuple[int, int, str]] = []  # (header, end, kind)
    for i, line in deadline.paced(enumerate(lines)):
        if not lexed.starts_in_code[i] or (m := _DEFINITION.match(line)) is None:
            continue
        kind = (m.group("kw") or "scriptblock").lower()  # one bound to a name is a function
        end = _body_end(lexed, closes, i, m.end())
        if end is None:
            if by_indentation is None:
                indented = find_blocks(lines, comment=PWSH_COMMENT, deadline=deadline)
                by_indentation = {b.header: b.end for b in indented}
            end = by_indentation.get(i)
        if end is None or end - i < 2:
            continue
        found.append((i, end, kind))
        if kind in _KINDS_HOLDING_MEMBERS:
            found.extend(_members(lines, lexed, closes, i, end))
    found.sort(key=lambda f: (f[0], -f[1]))
    return _nested(lines, found)


def _body_end(lexed: Lexed, closes: dict[tuple[int, int], int], header: int, after: int) -> int | None:
    """Exclusive end of the body opened by the first `{` after column `after` of `header`, on its
    line or below it past blank, comment and parameter lines; None if there is none or it is open."""
    depth = 0  # open parentheses of a parameter list (`function F(\n  $a,\n  $b\n) {`)
    for j in range(header, min(len(lexed.code), header + MAX_SIGNATURE_LINES)):
        start = after if j == header else 0
        opening = next((col for col, brace in lexed.braces[j] if brace == "{" and col >= start), None)
        text = lexed.code[j][start:] if opening is None else lexed.code[j][start:opening]
        before = depth
        depth += text.count("(") - text.count(")")
        if opening is not None and depth <= 0:
            closing = closes.get((j, opening))
            return None if closing is None else closing + 1
        if j > header and before <= 0 and text.strip():
            return None  # code before any brace: no body
    return None


def _members(
    lines: Sequence[str], lexed: Lexed, closes: dict[tuple[int, int], int], header: int, end: int
) -> list[tuple[int, int, str]]:
    """A class's methods and constructors: the members one brace inside its body."""
    out: list[tuple[int, int, str]] = []
    depth = 0
    inside = False  # past the class's own `{`
    for j in range(header, end):
        if inside and depth == 1 and lexed.starts_in_code[j] and (m := _MEMBER.match(lines[j])):
            closing = _body_end(lexed, closes, j, m.end())
            if closing is not None and closing - j >= 2:
                out.append((j, closing, "method"))
        for _, brace in lexed.braces[j]:
            depth += 1 if brace == "{" else -1
            inside = True
    return out


def _start(lines: Sequence[str], header: int) -> int:
    """The first line of the comments directly above `header` (as `find_blocks` takes them)."""
    base = indent_of(lines[header])
    start = header
    while start > 0 and lines[start - 1].strip():
        prev = lines[start - 1]
        if not (PWSH_COMMENT.match(prev) and indent_of(prev) in (base, base + 1)):
            break
        start -= 1
    return start


def _nested(lines: Sequence[str], found: Sequence[tuple[int, int, str]]) -> list[Block]:
    """The blocks with their parents; a class is a container, and so is a function or script
    block long enough to hold units (`MODULE_LIKE_LINES`) that defines functions."""
    blocks: list[Block] = []
    kinds: list[str] = []
    stack: list[int] = []
    for header, end, kind in found:
        while stack and blocks[stack[-1]].end <= header:
            stack.pop()
        parent = stack[-1] if stack else None
        if parent is not None and (kinds[parent] in _KINDS_HOLDING_NOTHING or end > blocks[parent].end):
            continue  # nothing is defined inside an enum, and a definition ends inside its parent
        blocks.append(Block(_start(lines, header), header, end, kind in _KINDS_HOLDING_MEMBERS, parent))
        kinds.append(kind)
        stack.append(len(blocks) - 1)
    holders = {b.parent for b, kind in zip(blocks, kinds, strict=True) if kind in _DEFINING_KINDS}
    return [
        Block(b.start, b.header, b.end, True, b.parent)
        if k in holders and b.end - b.header >= MODULE_LIKE_LINES and not b.container
        else b
        for k, b in enumerate(blocks)
    ]
