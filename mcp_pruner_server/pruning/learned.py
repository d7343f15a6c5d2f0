"""A learned scorer of code units: a logistic regression over what the engine already computed.

The heuristic ranking (`structure/code.py`) gives each unit a score; this module reads that score
next to a dozen other facts about the unit (its rank, its best lines, how many of the question's
words it holds, its size and place in the file: `FEATURES`) and replaces the score by the
probability that the unit holds a line the question needs. The weights are data
(`learned_units.json`), fitted by `benchmarks/train_learned_units.py` on real commit questions;
evaluating them is a dot product per unit in pure Python (no numpy at run time).

It runs only where the rule `learned_units` is on (`rules.py`; off by default: see
docs/evaluation.md for the figures that decided it). A unit the heuristics scored 0 stays at 0:
the selector never ranks it, and the question's budget (`specificity.py`) was set on those
scores before this runs.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources

from mcp_pruner_server.pruning.scoring import LineHits
from mcp_pruner_server.pruning.select import Unit

WEIGHTS_FILE = "learned_units.json"

# The facts about a unit the model reads, in the order of its weights (names are the file's keys).
FEATURES = (
    "score_rel",  # its heuristic score over the best unit's
    "rank_inv",  # 1 / (1 + its rank by heuristic score)
    "peak_rel",  # its best lines' scores (`Unit.peak`) over the best unit's peak
    "peak_rank_inv",  # 1 / (1 + its rank by peak)
    "line_max_rel",  # its best line's score over the best line's in the text
    "density",  # mean line score over its lines, relative to the best line's
    "hit_fraction",  # the fraction of its lines holding a question term
    "coverage",  # of the question's words found in the text, the fraction it holds
    "log_size",  # log(1 + its line count)
    "size_share",  # its line count over the text's
    "position",  # where it starts, 0 (first line) to 1 (last)
    "nested",  # 1 when it has a context (an enclosing class or function), else 0
)


@dataclass(frozen=True)
class Model:
    """A logistic regression: one weight per `FEATURES` name and an intercept."""

    weights: tuple[float, ...]
    intercept: float

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> Model:
        """The model of a weights file's JSON object (`{"weights": {name: w}, "intercept": b}`).

        Raises:
            ValueError: a feature's weight is missing or a value is not a number.
        """
        weights = data.get("weights")
        intercept = data.get("intercept")
        if not isinstance(weights, Mapping) or not isinstance(intercept, int | float):
            raise ValueError("a learned model needs `weights` (an object) and `intercept` (a number)")
        missing = [name for name in FEATURES if not isinstance(weights.get(name), int | float)]
        if missing:
            raise ValueError(f"a learned model lacks the weights of {', '.join(missing)}")
        return cls(tuple(float(weights[name]) for name in FEATURES), float(intercept))

    def probability(self, features: Sequence[float]) -> float:
        """The probability the unit with these `features` holds a needed line."""
        z = self.intercept + sum(w * x for w, x in zip(self.weights, features, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


@functools.cache
def shipped_model() -> Model:
    """The model in the package's `learned_units.json`."""
    text = resources.files("mcp_pruner_server.pruning").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return Model.from_mapping(json.loads(text))


def _inverse_ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda k: (-values[k], k))
    out = [0.0] * len(values)
    for rank, k in enumerate(order):
        out[k] = 1.0 / (1.0 + rank)
    return out


def unit_features(
    units: Sequence[Unit], line_scores: Sequence[float], lh: LineHits, query: Mapping[str, float]
) -> list[list[float]]:
    """Each unit's `FEATURES`, from the units `code_units` scored and the lines' scores and hits."""
    n = max(1, len(line_scores))
    best = max((u.score for u in units), default=0.0) or 1.0
    best_peak = max((u.peak for u in units), default=0.0) or 1.0
    best_line = max(line_scores, default=0.0) or 1.0
    words = {t for t, w in query.items() if w >= 1.0}  # the question's own words, not synonyms
    in_text = {t for i in lh.hit_lines for t in lh.hits[i] if t in words}
    ranks = _inverse_ranks([u.score for u in units])
    peak_ranks = _inverse_ranks([u.peak for u in units])
    rows: list[list[float]] = []
    for k, unit in enumerate(units):
        size = max(1, len(unit.lines))
        scores = [line_scores[i] for i in unit.lines]
        held = {t for i in unit.lines for t in lh.hits[i] if t in in_text}
        rows.append(
            [
                unit.score / best,
                ranks[k],
                unit.peak / best_peak,
                peak_ranks[k],
                max(scores, default=0.0) / best_line,
                sum(scores) / size / best_line,
                sum(1 for i in unit.lines if lh.hits[i]) / size,
                len(held) / len(in_text) if in_text else 0.0,
                math.log1p(len(unit.lines)),
                len(unit.lines) / n,
                (unit.lines[0] if unit.lines else 0) / n,
                1.0 if unit.context else 0.0,
            ]
        )
    return rows


def learned_units(
    units: Sequence[Unit],
    line_scores: Sequence[float],
    lh: LineHits,
    query: Mapping[str, float],
    model: Model | None = None,
) -> list[Unit]:
    """`units` rescored by `model` (the shipped one by default); those scoring 0 stay at 0."""
    model = model or shipped_model()
    rows = unit_features(units, line_scores, lh, query)
    return [
        replace(unit, score=model.probability(row)) if unit.score > 0 else unit
        for unit, row in zip(units, rows, strict=True)
    ]
