"""A definitions query says which nodes define what and their names: the one extractor reads a
real parse through it (containers over functions, names by capture or keyword, a `@definition.type`
only over several lines)."""

from __future__ import annotations

import tree_sitter

from mcp_pruner_server.pruning.languages.registry import grammar_of
from mcp_pruner_server.pruning.structure.syntax_definitions import DefinitionsQuery, definitions_query

SOLIDITY = b"""\
contract Vault {
    event Paid(uint256 amount);
    struct Entry {
        uint256 amount;
    }
    constructor() {}
    function() payable { }
    function deposit(uint256 amount) public { }
}
"""


def _query(source: str) -> tuple[DefinitionsQuery, tree_sitter.Node]:
    grammar = grammar_of("solidity")
    assert grammar is not None
    root = tree_sitter.Parser(grammar).parse(SOLIDITY).root_node
    return DefinitionsQuery(tree_sitter.Query(grammar, source)), root


def _members(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    body = root.named_children[0].child_by_field_name("body")
    assert body is not None
    return body.named_children


def test_a_container_capture_gives_its_body_as_the_members_node() -> None:
    query, root = _query("(contract_declaration body: (_) @body) @definition.class")
    contract = root.named_children[0]
    assert query.kind(contract) == ("container", contract.child_by_field_name("body"))


def test_a_container_capture_wins_over_a_function_capture_of_the_same_node() -> None:
    query, root = _query(
        "(contract_declaration) @definition.function\n"
        "(contract_declaration body: (_) @body) @definition.class"
    )
    kind = query.kind(root.named_children[0])
    assert kind is not None
    assert kind[0] == "container"


def test_a_type_is_a_unit_only_over_several_lines() -> None:
    query, root = _query("[(event_definition) (struct_declaration)] @definition.type")
    event, struct = _members(root)[:2]
    assert query.kind(event) is None
    assert query.kind(struct) == ("function", struct)


def test_the_name_is_the_first_pattern_that_names_it_by_capture_or_setting() -> None:
    query, root = _query(
        '((constructor_definition) @definition.function (#set! name "constructor"))\n'
        '((fallback_receive_definition . "function") @definition.function (#set! name "fallback"))\n'
        "(function_definition name: (_) @name) @definition.function\n"
        "(function_definition) @definition.function"
    )
    members = _members(root)
    assert [query.name(m) for m in members[2:]] == ["constructor", "fallback", "deposit"]


def test_patterns_rooted_below_the_node_asked_about_do_not_make_it_a_definition() -> None:
    query, root = _query("(function_definition) @definition.function")
    assert query.kind(root.named_children[0]) is None  # the contract holds one, it is none


def test_a_wheel_tags_query_serves_where_its_patterns_start_at_the_definition() -> None:
    grammar = grammar_of("elixir")
    assert grammar is not None
    query = definitions_query("elixir", grammar, "tree_sitter_elixir", False)
    source = b"defmodule Acme.Vault do\n  def deposit(amount) when amount > 0, do: amount\nend\n"
    module = tree_sitter.Parser(grammar).parse(source).root_node.named_children[0]
    function = module.named_children[-1].named_children[0]  # in the module's `do` block
    assert query.kind(function) == ("function", function)
    assert query.name(function) == "deposit"  # not `def`, the `@reference.call` of the same call
    assert query.name(module) == "Acme.Vault"
