"""The node types a query's pattern can start at, read from its source: a node's type, any of
alternatives, a group's first element (and the next while it is optional), or any node."""

from __future__ import annotations

import contextlib
import importlib
from types import ModuleType

import tree_sitter

from mcp_pruner_server.pruning.languages.registry import LANGUAGES, grammar_of
from mcp_pruner_server.pruning.structure.query_roots import root_types
from mcp_pruner_server.pruning.structure.syntax_definitions import DEFINITION_CAPTURES, definitions_query
from tests.mcp_pruner_server.pruning.structure import test_syntax_units_per_language as per_language


def test_a_node_pattern_starts_at_its_type_whatever_its_children_and_captures() -> None:
    assert root_types(
        '(call target: (identifier) @k (do_block) @body (#eq? @k "def")) @definition.module'
    ) == frozenset({"call"})


def test_alternatives_start_at_any_of_their_types() -> None:
    assert root_types("[(function) (bind)] @definition.function") == frozenset({"function", "bind"})
    assert root_types("[(a (b)) [(c) (d)]] @x") == frozenset({"a", "c", "d"})


def test_a_group_starts_at_its_first_element_and_the_next_while_it_is_optional() -> None:
    assert root_types('((derived_type) @definition.class (#set! min_rows "30"))') == frozenset(
        {"derived_type"}
    )
    assert root_types("((comment)? @doc . (module_definition) @definition.module)") == frozenset(
        {"comment", "module_definition"}
    )


def test_a_wildcard_or_an_anonymous_node_may_start_anywhere() -> None:
    assert root_types("(_ (identifier)) @x") is None
    assert root_types('["fn" (function)] @x') is None


def _texts(name: str) -> str:
    """A language's sample texts: its tests' (`languages/test_<name>.py`, the units-per-language
    test's `<NAME>`), every module-level string of them."""
    modules: list[ModuleType] = [per_language]
    with contextlib.suppress(ModuleNotFoundError):  # a language tested only there
        modules.append(importlib.import_module(f"tests.mcp_pruner_server.pruning.languages.test_{name}"))
    return "\n".join(
        value
        for module in modules
        for key, value in vars(module).items()
        if isinstance(value, str) and key.isupper() and (module is not per_language or key == name.upper())
    )


def test_every_node_a_record_s_query_matches_at_has_one_of_its_root_types() -> None:
    for lang in LANGUAGES.values():
        if lang.syntax.definitions is None:
            continue
        name, text = lang.name, _texts(lang.name)
        grammar = grammar_of(name)
        assert grammar is not None
        assert lang.grammar is not None
        query = definitions_query(name, grammar, lang.grammar.module, lang.syntax.definitions == "ours")
        assert query.roots is not None, name  # every node of another type is answered without a cursor
        cursor = tree_sitter.QueryCursor(query.query)
        cursor.set_max_start_depth(0)
        matched = {
            node.type
            for node in _nodes(tree_sitter.Parser(grammar).parse(text.encode()).root_node)
            if any(DEFINITION_CAPTURES & captures.keys() for _, captures in cursor.matches(node))
        }
        assert matched, name  # its tests' texts have definitions
        assert matched <= query.roots, (name, matched - query.roots)


def _nodes(root: tree_sitter.Node) -> list[tree_sitter.Node]:
    found = [root]
    for child in root.children:
        found += _nodes(child)
    return found
