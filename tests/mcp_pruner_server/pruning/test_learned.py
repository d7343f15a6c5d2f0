"""The learned unit scorer: its features, its weights as data, and the switch that runs it."""

from __future__ import annotations

import pytest

from mcp_pruner_server.pruning import learned
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.learned import FEATURES, Model, learned_units, shipped_model, unit_features
from mcp_pruner_server.pruning.rules import on, rules_on
from mcp_pruner_server.pruning.scoring import line_hits, line_terms, query_weights, window_scores
from mcp_pruner_server.pruning.select import Unit
from mcp_pruner_server.pruning.types import PruneOptions

_LINES = [
    "def parse_record(raw):",
    "    return raw.split(',')",
    "",
    "def write_record(out, record):",
    "    out.write(','.join(record))",
    "",
    "def unrelated():",
    "    return 0",
]
_UNITS = [Unit((0, 1), 4.0, peak=2.0), Unit((3, 4), 2.0, peak=1.0), Unit((6, 7), 0.0)]


def _only(feature: str, weight: float, intercept: float = 0.0) -> Model:
    return Model(tuple(weight if name == feature else 0.0 for name in FEATURES), intercept)


def test_the_shipped_model_weighs_every_feature() -> None:
    model = shipped_model()
    assert len(model.weights) == len(FEATURES)
    assert 0.0 < model.probability([0.0] * len(FEATURES)) < 1.0


def test_a_model_missing_a_feature_is_refused_by_name() -> None:
    weights = dict.fromkeys(FEATURES[1:], 1.0)
    with pytest.raises(ValueError, match=FEATURES[0]):
        Model.from_mapping({"weights": weights, "intercept": 0.0})


def test_features_describe_each_unit_relative_to_the_best_one() -> None:
    query = query_weights("parse a raw record")
    lh = line_hits(line_terms(_LINES), query)
    rows = unit_features(_UNITS, window_scores(query, lh), lh, query)
    named = [dict(zip(FEATURES, row, strict=True)) for row in rows]
    assert [r["score_rel"] for r in named] == [1.0, 0.5, 0.0]
    assert [r["rank_inv"] for r in named] == [1.0, 0.5, 1 / 3]
    assert named[0]["coverage"] == 1.0  # it holds every question word the text holds
    assert named[2]["hit_fraction"] == 0.0
    assert named[0]["position"] == 0.0 < named[1]["position"] < named[2]["position"]


def test_the_model_reorders_the_units_it_scores_and_leaves_a_zero_at_zero() -> None:
    query = query_weights("parse a raw record")
    lh = line_hits(line_terms(_LINES), query)
    later_first = _only("position", 10.0)  # a model that prefers units further down the file
    rescored = learned_units(_UNITS, window_scores(query, lh), lh, query, later_first)
    assert rescored[1].score > rescored[0].score
    assert rescored[2].score == 0.0  # the heuristics found nothing in it: it stays unranked
    assert [u.lines for u in rescored] == [u.lines for u in _UNITS]


def test_the_engine_runs_the_model_only_where_the_rule_is_switched_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    filler = [line for k in range(12) for line in (f"def helper_{k}(x):", f"    return x + {k}", "")]
    # the question's words at the head (the heuristics' pick) and in a smaller unit at the end
    text = "\n".join([*_LINES, "", *filler, "def parse_raw(raw):", "    return raw.strip()"])
    options = PruneOptions(max_prune_ratio=0.95, min_keep_lines=0, include_markers=False)
    # a model that wants units at the end of the file only
    monkeypatch.setattr(learned, "shipped_model", lambda: _only("position", 10.0, -5.0))
    question = "parse a raw record"
    assert not on("learned_units")
    heuristic = prune(text, question, "code", options, "prn_test").pruned_text
    with rules_on("learned_units"):
        assert on("learned_units")
        rescored = prune(text, question, "code", options, "prn_test").pruned_text
    assert heuristic.startswith("def parse_record(raw):")
    assert "parse_record" not in rescored
    assert rescored.endswith("def parse_raw(raw):\n    return raw.strip()")
    assert prune(text, question, "code", options, "prn_test").pruned_text == heuristic
