"""The ranking's rules as a table: every rule named, each switched off on its own."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.languages.registry import LANGUAGES
from mcp_pruner_server.pruning.rules import RULES, hook_rule, on, rules_off
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units

_STACK = [
    "class Stack:",
    "    def size(self):",
    "        # the stack's items, empty or not",
    "        return len(self.items)",
    "",
    "    def is_empty(self):",
    "        return not self.items",
]


def test_every_language_rule_is_named_in_the_table() -> None:
    lines = ["subroutine gf_unpack6(a)", "end subroutine"]
    for lang, hooks in ((name, record.hooks) for name, record in LANGUAGES.items()):
        prepared = hooks.prepare(lines, {"section": 1.0}) if hooks.prepare is not None else ()
        for hook in (*hooks.name_hits, *prepared, *hooks.reorders):
            assert hook_rule(lang, hook) in RULES, hook_rule(lang, hook)


def test_a_rule_not_in_the_table_is_refused() -> None:
    with pytest.raises(KeyError):
        on("no_such_rule")
    with pytest.raises(KeyError), rules_off("no_such_rule"):
        pass


def _scores(question: str) -> list[float]:
    query = query_weights(question)
    lh = line_hits(line_terms(_STACK), query)
    units = code_units(_STACK, lh, query, window_scores(query, lh), question=question)
    return [u.score for u in units if u.lines[0] in (1, 5)]


def test_a_rule_switched_off_stops_applying_inside_the_block_only() -> None:
    question = "Returns true if the stack is empty"
    size, is_empty = _scores(question)
    assert is_empty > size  # the predicate is raised for a yes/no question
    with rules_off("predicates_first"):
        assert not on("predicates_first")
        _, empty_off = _scores(question)
    assert empty_off < is_empty
    assert on("predicates_first")
    assert _scores(question) == [size, is_empty]
