"""What the model's form of a pruned output costs, in real cl100k tokens, on a fixed text."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from mcp_pruner_server.pipeline.prune_step import tool_output_options
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.model_view import MODEL_MARKER, MODEL_NUMBERED, view_tokens
from mcp_pruner_server.pruning.types import PruneResult
from runner.bench.tokens import count_tokens, tokenizer

REPO = Path(__file__).resolve().parents[3]
FIXED_TEXT = (REPO / "runner" / "demo" / "sample_project" / "shop" / "pricing.py").read_text(encoding="utf-8")
QUESTION = "How is the bulk discount of an order line computed?"
PRUNE_ID = "prn_01M8GY3X9BFA68QXCNFF9SJK2P"  # a real id's length: the canonical marker carries it
# The bounds: a kept line's number at most one token on average, a marker at most 30.
MAX_PREFIX_TOKENS = 1.0
MAX_MARKER_TOKENS = 30
_CANONICAL_NUMBERED = re.compile(r"^\d+│ ")


def _pruned(model_view: bool) -> PruneResult:
    options = replace(tool_output_options(timeout_ms=60_000), path="shop/pricing.py", model_view=model_view)
    return prune(FIXED_TEXT, QUESTION, "code", options, PRUNE_ID)


def _prefix_tokens_per_line(view: str, numbered: re.Pattern[str]) -> float:
    """Tokens the numbers add to the kept lines, per kept line (markers left out of both)."""
    kept = [line for line in view.split("\n") if not line.startswith(("[", "⟦"))]
    bare = [numbered.sub("", line, count=1) for line in kept]
    return (count_tokens("\n".join(kept)) - count_tokens("\n".join(bare))) / len(kept)


def test_the_tokenizer_is_the_real_cl100k() -> None:
    assert tokenizer().exact


def test_a_kept_line_s_number_costs_at_most_one_token_on_average() -> None:
    view = _pruned(model_view=True).pruned_text

    model_cost = _prefix_tokens_per_line(view, MODEL_NUMBERED)
    canonical_cost = _prefix_tokens_per_line(_pruned(model_view=False).pruned_text, _CANONICAL_NUMBERED)

    assert model_cost <= MAX_PREFIX_TOKENS, model_cost
    assert canonical_cost > 2 * model_cost, (canonical_cost, model_cost)  # `N│ ` is what it replaced


def test_a_marker_costs_at_most_30_tokens_and_still_says_which_lines_went() -> None:
    result = _pruned(model_view=True)
    markers = [line for line in result.pruned_text.split("\n") if MODEL_MARKER.match(line)]

    assert markers
    assert max(count_tokens(m) for m in markers) <= MAX_MARKER_TOKENS
    spans = [tuple(map(int, MODEL_MARKER.match(m).groups())) for m in markers]  # type: ignore[union-attr]
    annotated = [(a.original_start_line, a.original_end_line) for a in result.annotations]
    assert spans == annotated


def test_the_model_view_keeps_the_same_lines_as_the_canonical_one_or_more() -> None:
    model = _pruned(model_view=True)
    canonical = _pruned(model_view=False)

    # a cheaper marker replaces runs the canonical one was too dear for: never fewer lines pruned
    assert model.stats.pruned_lines >= canonical.stats.pruned_lines
    assert count_tokens(model.pruned_text) < 0.75 * count_tokens(canonical.pruned_text)


def test_the_view_estimate_is_within_a_fifth_of_the_real_count() -> None:
    view = _pruned(model_view=True).pruned_text

    assert abs(view_tokens(view) - count_tokens(view)) <= 0.2 * count_tokens(view)
