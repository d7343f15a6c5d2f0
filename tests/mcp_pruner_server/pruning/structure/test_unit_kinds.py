"""Predicates and the questions asking for one."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.unit_kinds import asks_yes_no, is_predicate


def test_predicates_are_named_is_has_can_or_end_in_a_question_mark() -> None:
    for name in ("is_root", "isNoScope", "IsValid", "hasNext", "_isValid", "List.empty?", "containsKey"):
        assert is_predicate(name), name
    for other in ("island", "issue", "hash", "canonical", "parent", None):
        assert not is_predicate(other), other


def test_a_question_asks_whether_in_several_wordings() -> None:
    asking = ("Returns `true` if the number is odd", "Checks whether x", "Determines if it ran", "false when")
    for question in asking:
        assert asks_yes_no(question), question
    assert not asks_yes_no("This is true.")
    assert not asks_yes_no("Return the parent of this matcher.")
