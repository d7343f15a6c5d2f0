"""What a parse that failed in places still tells: the definitions inside its error nodes.

tree-sitter recovers from a construct its grammar lacks (a newer C# expression, a macro the
C++ parser cannot see) by wrapping the region in an ERROR node whose children are still the
members it recognised, often a whole class whose braces it could not match and which became
mere tokens. Counting every row of such a node as failed sent whole files to the heuristics
(a C# class with one unparsed lambda, an Abseil header); counted here are the rows of what
it could not place, and the members are walked, inside the container that `class X {`
tokens open. Where the parser gave up inside an error and dropped the text after it (no node
holds it: the rest of a Kotlin class after a `$$"…"` string), that text is parsed again on its
own (`dropped_tail`, `restart_row`). And, before a C++ parse, the export macro of a class
(`class SPDLOG_API logger {`) is blanked: read as the class's name, it made the class a function
of hundreds of lines; before a C, C++ or Objective-C one, a line of one macro alone
(`blank_macro_lines`); before a Kotlin one, syntax newer than its grammar (`blank_newer_kotlin`);
before a Fortran one, its fypp preprocessor's lines (`blank_fypp`); before a Perl one, a `=cut`
that closes no POD (`perl_pod.blank_stray_cuts`). Each language's record names its own
(`Syntax.blanked`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

import tree_sitter

from mcp_pruner_server.pruning.deadline import NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.structure.code_blocks import Block


class ParsedNode(Protocol):
    """What the recovery reads of a parsed node: a `tree_sitter.Node` is one (its tests build the
    exact error trees they need as plain records)."""

    @property
    def type(self) -> str: ...
    @property
    def is_named(self) -> bool: ...
    @property
    def is_missing(self) -> bool: ...
    @property
    def has_error(self) -> bool: ...
    @property
    def child_count(self) -> int: ...
    @property
    def children(self) -> Sequence[ParsedNode]: ...
    @property
    def start_point(self) -> tuple[int, int]: ...
    @property
    def end_point(self) -> tuple[int, int]: ...
    @property
    def text(self) -> bytes | None: ...


# A parsed node of one kind throughout: the walk's `tree_sitter.Node`s come back as such.
N = TypeVar("N", bound=ParsedNode)

# Tokens that open a container when an identifier and `{` follow (`public class PgReader {`).
CONTAINER_KEYWORDS = frozenset({"class", "struct", "interface", "namespace", "record", "trait", "union"})
# Tokens that name it.
_NAME_TOKENS = frozenset({"identifier", "type_identifier", "namespace_identifier", "name"})
# Tokens after which the keyword opened nothing (`template <class T>`, `x = new class …;`).
_NOT_A_HEADER = frozenset({";", "=", "(", ")", ">", ","})
# The `{` of a container lies at most this many lines below its keyword (a base list, Allman).
MAX_HEADER_LINES = 3

# An upper-case word between `class` / `struct` and the name (`class ABSL_MUST_USE_RESULT
# StatusOr`, `struct SPDLOG_API level`): a macro expanding to an attribute. Not a name followed
# by `final`, a base list or a body.
_EXPORT_MACRO = re.compile(
    r"\b(?:class|struct|union)[ \t]+([A-Z_][A-Z0-9_]{2,})[ \t]+(?!final\b)(?=[A-Za-z_])"
)


def failed_rows(root: ParsedNode, *, deadline: Deadline = NO_DEADLINE, most: float = math.inf) -> int:
    """How many lines hold something the parser could not place: the tokens of error nodes
    and missing nodes, not the well-formed definitions and statements an error node holds.
    The count stops once past `most` (the parse is not trusted then: how far past is no matter).

    Raises:
        EngineTimeout: `deadline` passed (a text of errors has a node per few bytes).
    """
    if not root.has_error:
        return 0
    rows: set[int] = set()
    stack = [root]
    for node in deadline.drained(stack):
        if node.is_missing:
            rows.add(int(node.start_point[0]))
        elif node.type == "ERROR":
            for child in deadline.paced(node.children):  # one node may hold a child per byte
                if child.has_error:
                    stack.append(child)
                elif not _recognised(child):
                    rows.update(range(int(child.start_point[0]), int(child.end_point[0]) + 1))
            if len(rows) > most:
                break
        elif node.has_error:
            stack.extend(node.children)
    return len(rows)


def dropped_tail(root: ParsedNode, deadline: Deadline = NO_DEADLINE) -> tuple[int, int] | None:
    """The rows (first, end) of the text a node holds after its last child, which no node holds:
    the parser gave up there, inside an error (the rest of a class after a construct the grammar
    lacks). None if no error drops rows.

    Raises:
        EngineTimeout: `deadline` passed.
    """
    stack = [root] if root.has_error else []
    for node in deadline.drained(stack):
        if node.child_count:
            covered = int(node.children[-1].end_point[0]) + 1
            row, col = node.end_point
            end = int(row) if col == 0 else int(row) + 1
            if covered < end:
                return covered, end
        stack.extend(reversed([c for c in node.children if c.has_error]))
    return None


# At most this many parses of the text a parser dropped after an error (each from where it stopped).
MAX_TAIL_PARSES = 2


def reparse_tails(
    parse: Callable[[bytes], tree_sitter.Tree],
    text: str,
    root: tree_sitter.Node,
    walk: Callable[[tree_sitter.Node], None],
    deadline: Deadline = NO_DEADLINE,
) -> int:
    """Parse again on its own (rows kept, with `parse`) the text the parse `root` dropped after an
    error, and `walk` each new tree's root, so that its definitions are found too; the rows that stay
    unparsed, counted as failed, are returned (blank lines, closers and a comment's inner lines
    where no parse may start are not: they hold no definition).

    Raises:
        EngineTimeout: `deadline` passed.
    """
    failed = 0
    tail = dropped_tail(root, deadline)
    lines = text.split("\n")
    for _ in range(MAX_TAIL_PARSES):
        if tail is None:
            return failed
        start = restart_row(lines, tail[0])
        if start >= tail[1]:
            return failed  # only blank lines, closers or a comment's inner lines were dropped
        rest = "\n" * start + "\n".join(lines[start : tail[1]])
        root = parse(rest.encode("utf-8", "surrogatepass")).root_node
        failed += failed_rows(root, deadline=deadline)
        walk(root)
        tail = dropped_tail(root, deadline)
    return failed if tail is None else failed + sum(1 for line in lines[tail[0] : tail[1]] if line.strip())


# Lines a parse cannot start on: the inside of a block comment (` * …`, ` */`) and closing braces.
_NO_START = re.compile(r"[ \t]*(?:\*|\}|\)|\]|$)")


def restart_row(lines: Sequence[str], row: int) -> int:
    """The first row from `row` on where a parse may start afresh: not a blank line, a closing
    bracket or a block comment's inner line."""
    while row < len(lines) and _NO_START.match(lines[row]):
        row += 1
    return row


def _recognised(node: ParsedNode) -> bool:
    # a lone identifier or punctuation is what is left of a failed construct; a comment or
    # a node of several tokens (a method, a field, a statement) parsed whole
    return bool(node.is_named) and ("comment" in node.type or node.child_count > 0)


def scope_members(
    scope: ParsedNode, siblings: Sequence[N], parent: int | None, out: list[Block]
) -> Iterator[tuple[int, N, int | None]]:
    """(index, child, enclosing block) for each child of `scope` (`siblings`, its named children
    or, for an error node, all): `parent`, or inside an error node the container that `class X {`
    tokens open (added to `out` as met, up to its `}` token, else to the node's end)."""
    if scope.type != "ERROR":
        for index, child in enumerate(siblings):
            yield index, child, parent
        return
    opened: list[int] = []  # the containers opened here, innermost last
    keyword_row: int | None = None
    name: str | None = None
    for index, child in enumerate(siblings):
        t = child.type
        row = int(child.start_point[0])
        if t in CONTAINER_KEYWORDS and not child.is_named:
            keyword_row, name = row, None
        elif keyword_row is not None and t == "{" and row - keyword_row <= MAX_HEADER_LINES:
            owner = opened[-1] if opened else parent
            end = int(scope.end_point[0]) + 1
            out.append(Block(keyword_row, keyword_row, end, True, owner, sig_end=row + 1, name=name))
            opened.append(len(out) - 1)
            keyword_row = None
        elif t == "}" and opened:
            k = opened.pop()
            out[k] = replace(out[k], end=max(out[k].sig_end or 0, row + 1))
        elif keyword_row is not None and t in _NAME_TOKENS and name is None:
            text = child.text
            name = text.decode("utf-8", "replace") if text is not None else None
        elif t in _NOT_A_HEADER:
            keyword_row = None
        elif child.is_named:
            yield index, child, opened[-1] if opened else parent


# A line holding one upper-case macro alone (`ABSL_NAMESPACE_BEGIN`, `__BEGIN_DECLS`,
# `NLOHMANN_JSON_NAMESPACE_BEGIN`) expands to what the parser cannot see: read as a return
# type, it turns the `namespace x {` after it into one function of a thousand lines (in
# Objective-C, `NS_ASSUME_NONNULL_BEGIN` swallows the `@implementation` after it). Such lines
# are blanked (same length: rows and columns stay) before a C, C++ or Objective-C parse.
MACRO_LINE = re.compile(r"^[ \t]*[A-Z_][A-Z0-9_]{2,}[ \t]*$", re.MULTILINE)


def blank_macro_lines(text: str) -> str:
    """`text` with its lines of one upper-case macro alone blanked (rows and columns stay)."""
    return MACRO_LINE.sub(lambda m: " " * len(m.group()), text)


# fypp, the preprocessor of many Fortran projects (`#:if`, `#:for`, `#:include`, `#! comment`,
# `@:ASSERT(…)`, `$:x`): its lines are no Fortran, and the grammar's errors on them hid whole
# modules. They are blanked before the parse; the lines they enclose stay code.
_FYPP_LINE = re.compile(r"^[ \t]*(?:#[:!]|@:|\$:).*$", re.MULTILINE)


def blank_fypp(text: str) -> str:
    """`text` with its fypp lines blanked (rows and columns stay)."""
    return _FYPP_LINE.sub(lambda m: " " * len(m.group()), text)


def blank_export_macros(text: str) -> str:
    """`text` with each class's export macro blanked (spaces: rows and columns stay)."""
    return _EXPORT_MACRO.sub(lambda m: m.group().replace(m.group(1), " " * len(m.group(1))), text)


# Kotlin syntax newer than the grammar (it reads the rest of the file as one error, or drops the rest
# of the class): a `when` branch's guard (`is Int if x > 0 ->`, Kotlin 2.1) and a declaration's
# context parameters or receivers (`context(scope: Raise<E>)` on its own line). Blanked before the
# parse, they only hide a condition and a context, never a definition.
_KOTLIN_BRANCH = re.compile(r"[ \t]*!?(?:is|in)[ \t]")
_KOTLIN_CONTEXT = re.compile(r"^[ \t]*context\([^\n]*\)[ \t]*$", re.MULTILINE)


def blank_newer_kotlin(text: str) -> str:
    """`text` with Kotlin's `when` guards and `context(…)` lines blanked (rows and columns stay)."""
    if "context(" in text:
        text = _KOTLIN_CONTEXT.sub(lambda m: " " * len(m.group()), text)
    if " if " in text:
        text = "\n".join(_blank_guard(line) for line in text.split("\n"))
    return text


def _blank_guard(line: str) -> str:
    """A `when` branch's line with its guard blanked: from ` if ` to the branch's own (first) `->`.

    Found with `str.find`, not a regex: a lazy pattern spanning the line was quadratic on a long one."""
    if not _KOTLIN_BRANCH.match(line):
        return line
    arrow = line.find("->")
    guard = line.find(" if ", 0, arrow)
    if arrow < 0 or guard < 0:
        return line
    end = len(line[:arrow].rstrip())
    return line[:guard] + " " * (end - guard) + line[end:]


def blank_c_macros(text: str) -> str:
    """C's and C++'s macro lines and export macros blanked (rows and columns stay), as above."""
    return blank_export_macros(blank_macro_lines(text))
