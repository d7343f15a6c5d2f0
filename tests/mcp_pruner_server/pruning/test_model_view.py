"""What the model's form of a pruned output costs, in real cl100k tokens, on a fixed text."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_pruner_server.pipeline.prune_step import tool_output_options
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.model_view import (
    MODEL_MARKER,
    MODEL_NUMBERED,
    numbers_its_own_lines,
    view_tokens,
)
from mcp_pruner_server.pruning.render import build_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult
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


_OWN_NUMBER = re.compile(r"^ *(\d+)\t")
_LINE = st.text(alphabet=st.sampled_from(list("ab 1[]⟦\t│-")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(_LINE, min_size=1, max_size=40), data=st.data())
def test_the_model_view_reads_back_unambiguously(lines: list[str], data: st.DataObject) -> None:
    # whatever the lines hold (digits, brackets, a marker's look), each line of the view is one
    # of: a kept line under its number, a blank kept line, a marker of exactly its block
    keep = data.draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
    text = "\n".join(lines)
    options = PruneOptions(max_prune_ratio=1.0, annotate_lines=True, include_markers=True, model_view=True)
    result = build_result(text, keep, "prn_x", options, backend="heuristic", elapsed_ms=0.0)

    # a text numbering its own lines from 1 (`cat -n`'s `N\t`) is shown under its numbers, not ours
    own = numbers_its_own_lines(lines)
    shown: dict[int, str] = {}
    hidden: list[tuple[int, int]] = []
    next_number = 1  # the number the next line of the view stands for
    for line in result.pruned_text.split("\n"):
        numbered, marker = (_OWN_NUMBER if own else MODEL_NUMBERED).match(line), MODEL_MARKER.match(line)
        if numbered is not None:
            next_number = int(numbered.group(1))
            shown[next_number] = line if own else line[numbered.end() :]
        elif marker is not None:
            start, end = int(marker.group(1)), int(marker.group(2))
            assert start == next_number
            hidden.append((start, end))
            next_number = end
        else:
            assert not line.strip(), line  # a blank kept line, unnumbered: the next number
            shown[next_number] = line
        next_number += 1
    assert hidden == [(a.original_start_line, a.original_end_line) for a in result.annotations]
    assert shown == {n: lines[n - 1] for n in shown}
    covered = sorted([*shown, *(n for start, end in hidden for n in range(start, end + 1))])
    assert covered == list(range(1, len(lines) + 1))
