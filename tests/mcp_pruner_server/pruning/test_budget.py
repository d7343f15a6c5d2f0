"""The absolute budget (`max_kept_lines` / `max_kept_tokens`) and large logs through the engine."""

from __future__ import annotations

import sys
from pathlib import Path

from mcp_pruner_server.pruning import engine
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.render import required_keep
from mcp_pruner_server.pruning.types import PruneOptions

sys.path.insert(0, str(Path(__file__).parents[3] / "benchmarks"))
from build_log import FAILURE_LINE, QUESTION, build_log

_NO_LIMIT_MS = 60_000  # the suite's own timeout bounds the test; this one must not fire first


def test_the_budget_caps_the_floor_the_ratio_asks_for_but_never_min_keep_lines() -> None:
    assert required_keep(10_000, PruneOptions(max_prune_ratio=0.9)) == 1000
    assert required_keep(10_000, PruneOptions(max_prune_ratio=0.9, max_kept_lines=300)) == 300
    assert (
        required_keep(10_000, PruneOptions(max_prune_ratio=0.9, min_keep_lines=500, max_kept_lines=300))
        == 500
    )
    assert required_keep(100, PruneOptions(max_prune_ratio=0.5, max_kept_lines=300)) == 50


def test_an_invalid_budget_is_a_no_op_with_constraints_unmet() -> None:
    result = prune("a\nb\nc", "a", "logs", PruneOptions(max_kept_lines=0), "prn_t")
    assert result.warnings == ("constraints_unmet",)
    assert result.pruned_text == "a\nb\nc"


def test_a_large_log_keeps_its_final_failure_within_the_budget() -> None:
    text = build_log(engine.BULK_MIN_LINES + 5_000)  # the sparse path
    options = PruneOptions(
        max_prune_ratio=0.9,
        min_keep_lines=20,
        timeout_ms=_NO_LIMIT_MS,
        annotate_lines=True,
        max_kept_lines=300,
        max_kept_tokens=8000,
    )
    result = prune(text, QUESTION, "logs", options, "prn_t")
    assert FAILURE_LINE in result.pruned_text
    assert "Traceback (most recent call last):" in result.pruned_text
    assert 20 <= result.stats.kept_lines <= 300
    assert len(result.pruned_text) < 8000 * 4 + 300 * 16  # tokens of kept lines, plus prefixes and markers


def test_the_token_budget_binds_before_the_line_budget_on_long_lines() -> None:
    lines = [f"INFO step {i} " + "x" * 400 for i in range(2000)] + ["ERROR payment failed"]
    options = PruneOptions(
        max_prune_ratio=0.9, timeout_ms=_NO_LIMIT_MS, max_kept_lines=300, max_kept_tokens=2000
    )
    result = prune("\n".join(lines), QUESTION, "logs", options, "prn_t")
    assert "ERROR payment failed" in result.pruned_text
    assert result.stats.kept_lines <= 2000 * 4 // 400 + 1


def test_a_budget_that_cuts_nothing_leaves_the_ratio_to_hold() -> None:
    helpers = "".join(f"def helper_{k}(x):\n    return x + {k}\n\n" for k in range(40))
    text = f"import os\n\n{helpers}def parse_record(raw):\n    fields = raw.split(',')\n    return fields\n"
    options = PruneOptions(
        max_prune_ratio=0.9, include_markers=False, max_kept_lines=300, max_kept_tokens=8000
    )
    result = prune(text, "parse_record fields", "code", options, "prn_t")
    assert result.stats.original_lines == 125
    assert result.stats.pruned_ratio <= 0.9  # it was 113 of 125: the kept lines became the budget
