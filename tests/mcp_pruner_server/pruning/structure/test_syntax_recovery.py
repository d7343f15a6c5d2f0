"""What a parse with errors still tells: the rows it failed on, the classes an error node's tokens
open. The error trees are built exactly as plain records (`syntax_recovery.ParsedNode`), and one
real parse shows a `tree_sitter.Node` is read the same way."""

from __future__ import annotations

from dataclasses import dataclass, field

import tree_sitter

from mcp_pruner_server.pruning.languages.registry import grammar_of
from mcp_pruner_server.pruning.structure.code_blocks import Block
from mcp_pruner_server.pruning.structure.syntax_recovery import failed_rows, scope_members


@dataclass
class Node:
    """The part of a tree-sitter node the recovery reads (`syntax_recovery.ParsedNode`)."""

    type: str
    rows: tuple[int, int]
    is_named: bool = True
    children: list[Node] = field(default_factory=list)
    text: bytes | None = None
    is_missing: bool = False

    @property
    def start_point(self) -> tuple[int, int]:
        return (self.rows[0], 0)

    @property
    def end_point(self) -> tuple[int, int]:
        return (self.rows[1], 1)

    @property
    def child_count(self) -> int:
        return len(self.children)

    @property
    def has_error(self) -> bool:
        return self.type == "ERROR" or self.is_missing or any(c.has_error for c in self.children)


def token(kind: str, row: int) -> Node:
    return Node(kind, (row, row), is_named=False)


def method(first: int, last: int) -> Node:
    return Node("method_declaration", (first, last), children=[Node("identifier", (first, first))])


def unclosed_class() -> Node:
    """`public class Reader {` with two members, whose braces the parser could not match
    (a C# class with one expression its grammar lacks becomes one error node like this)."""
    children = [
        Node("modifier", (0, 0), children=[token("public", 0)]),
        token("class", 0),
        Node("identifier", (0, 0), text=b"Reader"),
        token("{", 1),
        method(2, 10),
        Node("comment", (11, 11)),
        method(12, 19),
        token("}", 20),
    ]
    return Node("compilation_unit", (0, 20), children=[Node("ERROR", (0, 20), children=children)])


def test_only_the_lines_of_what_an_error_node_could_not_place_count_as_failed() -> None:
    assert failed_rows(unclosed_class()) == 3  # `class Reader`, `{`, `}`: not the two methods
    assert failed_rows(method(0, 5)) == 0
    garbage = Node("ERROR", (0, 3), children=[Node("identifier", (r, r)) for r in range(4)])
    assert failed_rows(Node("program", (0, 3), children=[garbage])) == 4  # lone words parse nothing


def test_the_members_of_an_error_node_are_walked_inside_the_class_its_tokens_open() -> None:
    out: list[Block] = []
    error = unclosed_class().children[0]
    visited = [(child.type, parent) for _, child, parent in scope_members(error, error.children, None, out)]
    assert out == [Block(0, 0, 21, True, None, sig_end=2, name="Reader")]
    assert ("method_declaration", 0) in visited
    assert visited.count(("method_declaration", 0)) == 2
    assert ("comment", 0) in visited


def test_a_class_keyword_in_template_parameters_opens_no_container() -> None:
    children = [
        token("template", 0),
        token("<", 0),
        token("class", 0),
        Node("type_identifier", (0, 0), text=b"T"),
        token(">", 0),
        Node("function_definition", (1, 3), children=[Node("identifier", (1, 1))]),
    ]
    out: list[Block] = []
    error = Node("ERROR", (0, 3), children=children)
    visited = [(child.type, parent) for _, child, parent in scope_members(error, children, 7, out)]
    assert out == []
    assert ("function_definition", 7) in visited


def test_counting_failed_rows_stops_once_past_most() -> None:
    garbage = [Node("ERROR", (r, r), children=[Node("identifier", (r, r))]) for r in range(6)]
    program = Node("program", (0, 5), children=garbage)
    assert failed_rows(program) == 6
    assert failed_rows(program, most=2) == 3  # past 2: the parse is not trusted, the rest is not counted


def test_a_real_parse_counts_only_the_line_of_its_error() -> None:
    grammar = grammar_of("java")
    assert grammar is not None
    source = b"class A {\n  void f() {\n    x();\n  }\n  int y = ;\n  void g() {\n  }\n}\n"
    root = tree_sitter.Parser(grammar).parse(source).root_node
    assert failed_rows(root) == 1  # `int y = ;`, not the methods around it
