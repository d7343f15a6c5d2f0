"""The ranking's rules as a table: every rule named, each switched off on its own."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning.languages.registry import LANGUAGES
from mcp_pruner_server.pruning.rules import RULES, hook_rule, on, rules_off
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.structure.code import code_units

_STACK = [
    "class Stack:",
    "    def top(self):",
    "        # the item on top of the stack, read only",
    "        return self.items[-1]",
    "",
    "    def top_mut(self):",
    "        return self.items",
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
    question = "The item on top of the stack, read only"
    top, twin = _scores(question)
    assert twin >= 0.5 * top  # the near-twin is raised towards the one the question describes
    with rules_off("twins_together"):
        assert not on("twins_together")
        _, twin_off = _scores(question)
    assert twin_off < twin
    assert on("twins_together")
    assert _scores(question) == [top, twin]
