"""A question pointing at a line, by its number or by the code it quotes, keeps that line."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.pointers import numbered_lines, quoted_lines
from mcp_pruner_server.pruning.rules import rules_off
from mcp_pruner_server.pruning.types import PruneOptions

_OPTIONS = PruneOptions(max_prune_ratio=0.9, min_keep_lines=0, include_markers=False)


def _module(functions: int) -> list[str]:
    lines: list[str] = []
    for k in range(functions):
        lines += [
            f"def handler_{k}(request, sentinels):",
            f"    value = request.get('field_{k}')",
            "    if value in sentinels:",
            "        return None",
            f"    return value * {k}",
            "",
        ]
    return lines


def _kept(text: str, question: str) -> str:
    with rules_off("vague_keeps_more"):  # these questions fit every handler alike: pruned as hard
        return prune(text, question, "code", _OPTIONS, "prn_test").pruned_text


def test_a_line_the_question_names_by_number_is_kept_with_its_neighbourhood() -> None:
    lines = _module(60)  # 360 lines
    text = "\n".join(lines)
    question = "Let me navigate to line 200 to see the check"
    assert lines[199] in _kept(text, question).split("\n")
    with rules_off("line_numbers"):
        assert lines[199] not in _kept(text, question).split("\n")


def test_line_numbers_are_read_in_the_forms_agents_write_them() -> None:
    assert {197, 202} <= numbered_lines("navigate to line 198", 400)
    assert set(range(39, 60)) <= numbered_lines("look at lines 40-60", 400)
    assert {197} <= numbered_lines("see L198", 400)
    assert {197} <= numbered_lines("in views.py:198 the loop", 400)
    # an `nl -ba` view starting at line 101: its line 198 is the text's 98th
    assert 97 in numbered_lines("line 198", 400, first=101)
    assert not numbered_lines("the deadline is near", 400)


def test_code_quoted_in_the_question_keeps_the_line_holding_it() -> None:
    lines = _module(60)
    lines[200] = "    if value.new in sentinels:"
    text = "\n".join(lines)
    question = "Why does `value.new in sentinels` reject the default?"
    assert lines[200] in _kept(text, question).split("\n")
    with rules_off("quoted_code"):
        assert lines[200] not in _kept(text, question).split("\n")


def test_quoted_code_found_on_many_lines_points_at_none() -> None:
    lines = _module(20)
    assert not quoted_lines("why `value in sentinels`", lines)  # on 20 lines
    assert quoted_lines("the `open_url()` helper", ["def open_url(url, wait):", "    pass"]) == {0, 1}
