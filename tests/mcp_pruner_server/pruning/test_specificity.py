"""A question that does not say which unit it means keeps more lines, and the result says why."""

from __future__ import annotations

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.rules import rules_off
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.specificity import NO_TERMS, VAGUE, question_budget
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult

_OPTIONS = PruneOptions(max_prune_ratio=0.8, min_keep_lines=0, include_markers=False)


def _module() -> str:
    lines: list[str] = []
    for k in range(40):
        lines += [
            f"def handler_{k}(request):",
            f"    value = request.get('field_{k}')",
            f"    return value * {k}",
            "",
        ]
    lines += ["def parse_record(raw):", "    return raw.split(',')"]
    return "\n".join(lines)


def _prune(question: str) -> PruneResult:
    return prune(_module(), question, "code", _OPTIONS, "prn_test")


def test_a_question_naming_nothing_in_the_text_keeps_every_line_and_says_so() -> None:
    result = _prune("Let me first view the current state of the file")
    assert result.stats.kept_lines == result.stats.original_lines
    assert result.stats.extra["budget_reason"] == NO_TERMS
    with rules_off("vague_keeps_more"):
        assert _prune("Let me first view the current state of the file").stats.pruned_lines > 0


def test_a_question_fitting_many_units_alike_keeps_more_than_one_singling_out_a_unit() -> None:
    vague, precise = _prune("which handler gets the request field"), _prune("parse a raw record")
    assert vague.stats.extra["budget_reason"] == VAGUE
    assert "budget_reason" not in precise.stats.extra
    with rules_off("vague_keeps_more"):
        strict = _prune("which handler gets the request field")
    assert vague.stats.kept_lines >= 2 * strict.stats.kept_lines - 1
    assert "budget_reason" not in strict.stats.extra


def test_the_budget_widens_only_when_many_units_score_near_the_best() -> None:
    single = [Unit((0,), 10.0), *(Unit((k,), 1.0) for k in range(1, 20))]
    assert question_budget(single, 0.2).keep_fraction == 0.2
    alike = [Unit((k,), 10.0 - k * 0.1) for k in range(20)]
    assert question_budget(alike, 0.2).keep_fraction == 0.4
    assert question_budget([Unit((0,), 0.0)], 0.2).keep_fraction == 1.0
