"""Definitions read from a grammar's query: one extractor for every language that has one.

A language's definitions query (`Syntax.definitions`: its grammar wheel's own `queries/tags.scm`,
or ours, `pruning/languages/queries/<name>.scm`) says in tree-sitter's query language which nodes
define what, with the capture names of the tags queries (https://tree-sitter.github.io/tree-sitter/4-code-navigation.html):

- `@definition.function`, `@definition.method`, `@definition.macro`: a function-like unit, the
  captured node (the node asked about, or the function a statement binds: Lua's
  `M.f = function … end` is the `function_definition` under the assignment);
- `@definition.class`, `@definition.module`, `@definition.interface`: a container, whose members
  are in its `@body` capture (else its `body` field, else the node itself);
- `@definition.type`: a declaration that is a unit only over several lines (a one-line `struct`
  or `event` is left to the chunks, as a one-line value is): the captured node, the rows those
  of the node asked about (F#'s `member val X = … with get, set` is its `property_or_ident`);
- `@name`: the name it defines, or `(#set! name "constructor")` where the language names it by
  its keyword;
- `(#set! min_rows "30")` on a container's pattern: a container only when its last row is that
  many rows below its first (a long type holds chunks; a short one is a unit, by another pattern).

Patterns are matched at the node the walk asks about (rooted there: `set_max_start_depth(0)`),
so a pattern must start at the definition itself: a wheel's pattern rooted above it (Solidity's
methods as `(contract_declaration (_ (function_definition) @definition.method))`, F#'s `let`s
under `file`) is not seen, and such a language's query is ours. Several patterns may match one node: a
container's capture wins over a function's, and the name is the first pattern's (in the file's
order) that captures one, so a file can list specific shapes before a catch-all without a name.
Captures of other names (`@reference.call`, `@_keyword` for a predicate) are ignored.

A query says all of a language's definitions (`Syntax.kind` and `.name`), or, with
`Syntax.adds_to_shared`, only the shapes of its own the shared node tables miss (asked after them,
as `Syntax.own_kind`; the names it captures win over the shared reading's, `Syntax.own_name`).
A query that does not compile for the installed grammar (a node type or field renamed by a newer
wheel) raises `DefinitionsQueryError` naming the language and the file, the first time the
language is parsed; `tests/.../test_syntax_definitions.py` compiles every record's.
"""

from __future__ import annotations

import functools
import importlib.resources
import threading
from dataclasses import dataclass
from importlib.resources.abc import Traversable

import tree_sitter
from tree_sitter import Node

from mcp_pruner_server.pruning.errors import DefinitionsQueryError
from mcp_pruner_server.pruning.structure.query_roots import query_roots
from mcp_pruner_server.pruning.structure.syntax_grammars import name_text
from mcp_pruner_server.pruning.structure.syntax_spans import body_of, last_code_row

FUNCTION_CAPTURES = frozenset({"definition.function", "definition.method", "definition.macro"})
CONTAINER_CAPTURES = frozenset({"definition.class", "definition.module", "definition.interface"})
MULTI_LINE_CAPTURES = frozenset({"definition.type"})
DEFINITION_CAPTURES = FUNCTION_CAPTURES | CONTAINER_CAPTURES | MULTI_LINE_CAPTURES
# Where a wheel keeps its tags query (`tree_sitter_x/queries/tags.scm`).
WHEEL_QUERY = "queries/tags.scm"


@dataclass(frozen=True, slots=True)
class Definition:
    """A match of a definitions query: its pattern, its captures, and what it says the node is."""

    pattern: int
    captures: dict[str, list[Node]]
    container: bool
    function: Node | None  # the function-like unit captured
    multi_line: Node | None  # the unit captured if the node spans several lines

    @staticmethod
    def of(pattern: int, captures: dict[str, list[Node]]) -> Definition:
        container = function = multi_line = None
        for capture, nodes in captures.items():
            if capture in CONTAINER_CAPTURES:
                container = True
            elif capture in FUNCTION_CAPTURES and function is None:
                function = nodes[0]
            elif capture in MULTI_LINE_CAPTURES:
                multi_line = nodes[0]
        return Definition(pattern, captures, container is True, function, multi_line)


class DefinitionsQuery:
    """A compiled definitions query: `kind` and `name` of a node, as `Syntax.kind` and `.name`.

    Raises:
        ValueError: a pattern's `min_rows` setting is no whole number.
    """

    def __init__(self, query: tree_sitter.Query, source: str, *, code_rows: bool = False) -> None:
        self.query = query
        # The node types its patterns start at: any other is no definition, known without a cursor
        # (None: a pattern may start at any node).
        self.roots = query_roots(query, source)
        # "Over several lines" counts lines of code: a grammar that gives a definition the comments
        # after it (`Syntax.trailing_comments`: F#'s `///` doc of the next) would make it longer.
        self._code_rows = code_rows
        settings = [query.pattern_settings(k) for k in range(query.pattern_count)]
        self._min_rows = [int(s.get("min_rows") or 0) for s in settings]  # checked here, not at a call
        self._names = [s.get("name") for s in settings]
        # Per thread: a cursor (made once: ~40 % of a match's cost), and the last node asked about
        # with its matches (the walk asks its `kind`, then its `name`).
        self._local = threading.local()

    def _matches(self, node: Node) -> list[Definition]:
        if self.roots is not None and node.type not in self.roots:
            return []
        local = self._local
        last: tuple[Node, list[Definition]] | None = getattr(local, "last", None)
        if last is not None and last[0] == node:
            return last[1]
        cursor: tree_sitter.QueryCursor | None = getattr(local, "cursor", None)
        if cursor is None:
            cursor = local.cursor = tree_sitter.QueryCursor(self.query)
            cursor.set_max_start_depth(0)  # only patterns rooted at `node`, not at its descendants
        found = [Definition.of(pattern, captures) for pattern, captures in cursor.matches(node)]
        found = [d for d in found if d.container or d.function is not None or d.multi_line is not None]
        if len(found) > 1:
            found.sort(key=lambda d: d.pattern)  # the file's order
        local.last = (node, found)
        return found

    def kind(self, node: Node) -> tuple[str, Node] | None:
        """("function" | "container", the node holding its members) for a definition, else None."""
        found = self._matches(node)
        for d in found:
            if d.container:
                least = self._min_rows[d.pattern]
                if least and node.end_point.row - node.start_point.row < least:
                    continue  # a container only when it is long (Fortran's derived types)
                body = d.captures.get("body")
                return "container", body[0] if body else (body_of(node) or node)
        for d in found:
            if d.function is not None:
                return "function", d.function
        multi_line = next((d.multi_line for d in found if d.multi_line is not None), None)
        if multi_line is None:
            return None
        last = last_code_row(node) if self._code_rows else node.end_point.row
        return ("function", multi_line) if last > node.start_point.row else None

    def name(self, node: Node) -> str | None:
        """The name the definition `node` binds: its first `@name` capture or `name` setting."""
        for d in self._matches(node):
            named = self._names[d.pattern]
            if named is not None:
                return named
            if "name" in d.captures:
                return name_text(d.captures["name"][0])
        return None


def query_file(language_name: str, wheel: str, own: bool) -> Traversable:
    """Where the query is: ours (`languages/queries/<name>.scm`) or the wheel's tags query."""
    if own:
        ours = importlib.resources.files("mcp_pruner_server.pruning.languages") / "queries"
        return ours / f"{language_name}.scm"
    return importlib.resources.files(wheel) / WHEEL_QUERY


@functools.cache
def definitions_query(
    language_name: str, grammar: tree_sitter.Language, wheel: str, own: bool, code_rows: bool = False
) -> DefinitionsQuery:
    """The compiled definitions query of a language (compiled once per process).

    Raises:
        DefinitionsQueryError: the query is missing or does not compile for the installed grammar.
    """
    where = query_file(language_name, wheel, own)
    try:
        source = where.read_text(encoding="utf-8")
        return DefinitionsQuery(tree_sitter.Query(grammar, source), source, code_rows=code_rows)
    except (OSError, ValueError) as error:  # `tree_sitter.QueryError` is a `ValueError`
        raise DefinitionsQueryError(f"{language_name}'s definitions query ({where}): {error}") from error
