"""A definitions query says which nodes define what and their names: the one extractor reads a
real parse through it (containers over functions, names by capture or keyword, a `@definition.type`
only over several lines)."""

from __future__ import annotations

import pytest
import tree_sitter

from mcp_pruner_server.pruning.errors import DefinitionsQueryError
from mcp_pruner_server.pruning.languages.registry import LANGUAGES, grammar_of
from mcp_pruner_server.pruning.structure.syntax_definitions import (
    DEFINITION_CAPTURES,
    DefinitionsQuery,
    definitions_query,
)

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
    return DefinitionsQuery(tree_sitter.Query(grammar, source), source), root


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


def test_a_function_captured_below_the_node_is_the_definition_the_statement_binds() -> None:
    grammar = grammar_of("lua")
    assert grammar is not None
    query = definitions_query("lua", grammar, "tree_sitter_lua", True)
    root = tree_sitter.Parser(grammar).parse(b"M.grow = function(w)\n  return w\nend\n").root_node
    assignment = root.named_children[0]
    function = assignment.named_children[1].named_children[0]
    assert function.type == "function_definition"
    assert query.kind(assignment) == ("function", function)
    assert query.name(assignment) == "grow"  # the path's specific pattern comes before the catch-all


def test_every_record_s_definitions_query_compiles_for_its_installed_grammar() -> None:
    with_queries = [lang for lang in LANGUAGES.values() if lang.syntax.definitions is not None]
    assert len(with_queries) >= 4
    for lang in with_queries:
        grammar = grammar_of(lang.name)
        assert grammar is not None, lang.name
        assert lang.grammar is not None, lang.name
        own = lang.syntax.definitions == "ours"
        query = definitions_query(lang.name, grammar, lang.grammar.module, own).query
        assert DEFINITION_CAPTURES & {query.capture_name(k) for k in range(query.capture_count)}, lang.name


def test_a_query_that_does_not_compile_for_the_grammar_names_the_language_and_its_file() -> None:
    other = grammar_of("zig")  # Lua's node types are not Zig's, as a renamed one is not a newer wheel's
    assert other is not None
    with pytest.raises(DefinitionsQueryError, match=r"lua's definitions query \(.*lua\.scm\): "):
        definitions_query("lua", other, "tree_sitter_lua", True)


def test_a_missing_query_file_names_the_language_and_its_file() -> None:
    grammar = grammar_of("go")
    assert grammar is not None
    with pytest.raises(DefinitionsQueryError, match=r"go's definitions query \(.*go\.scm\)"):
        definitions_query("go", grammar, "tree_sitter_go", True)


def test_a_min_rows_setting_that_is_no_number_fails_when_the_query_is_compiled() -> None:
    grammar = grammar_of("solidity")
    assert grammar is not None
    source = '((contract_declaration) @definition.class (#set! min_rows "many"))'
    with pytest.raises(ValueError, match="many"):
        DefinitionsQuery(tree_sitter.Query(grammar, source), source)


def test_a_container_without_a_body_capture_holds_its_members_in_its_body_field() -> None:
    query, root = _query("(contract_declaration) @definition.class")
    contract = root.named_children[0]
    assert query.kind(contract) == ("container", contract.child_by_field_name("body"))


def test_a_definition_without_a_name_capture_or_setting_has_no_name() -> None:
    query, root = _query("(function_definition) @definition.function")
    deposit = _members(root)[-1]
    assert query.kind(deposit) == ("function", deposit)
    assert query.name(deposit) is None
