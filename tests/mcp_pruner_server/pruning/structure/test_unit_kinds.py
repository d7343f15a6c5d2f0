"""Definitions named by a stop word the question writes as code."""

from __future__ import annotations

from mcp_pruner_server.pruning.structure.unit_kinds import named_by_code_words


def test_a_stop_word_written_as_code_names_the_definitions_called_so() -> None:
    names = ["only", "Config::new", "does", "value", None]
    assert named_by_code_words("Returns the value of the -only attribute.", names) == {0: "only"}
    assert named_by_code_words("The new() routine; the ->does method.", names) == {1: "new", 2: "does"}
    assert named_by_code_words("Dict-style `value` on headers", names) == {3: "value"}
    # prose: the same words, not written as code
    assert named_by_code_words("Returns the only value, a non-new one. Only then.", names) == {}
