"""Fit the learned unit scorer (`pruning/learned.py`) and measure it against the heuristics.

    # leave-one-repository-out on dev: each repository's tasks scored by a model fitted without it
    python benchmarks/train_learned_units.py --cv /work/sets/real/dev/*.jsonl
    # fit on train, score on dev (the protocol: never on the untouched or fresh splits)
    python benchmarks/train_learned_units.py --train /work/sets/real/train/*.jsonl \\
        --eval /work/sets/real/dev/*.jsonl --out mcp_pruner_server/pruning/learned_units.json

The engine runs in process as `real_questions_bench.py` runs it. Each task's units and their
`learned.FEATURES` are recorded where the engine would rescore them (its `learned_units` hook),
so the model learns from exactly what it will see; a unit's label is whether it holds a line the
commit changed. The fit is a logistic regression (Newton's method, an L2 penalty on the
standardised features), each task weighing the same (its positive units together weigh 1, its
negative ones 1). A table row is one language group at one ratio: the heuristics' and the model's
`recall / whole (critical) @ kept`, and bm25block at the model's kept count.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
from lang_bench import _load
from numpy.typing import NDArray
from real_questions_bench import RATIOS, engine_kept, score

from mcp_pruner_server.pruning import engine
from mcp_pruner_server.pruning.learned import FEATURES, Model, learned_units, unit_features
from mcp_pruner_server.pruning.rules import rules_on
from mcp_pruner_server.pruning.scoring import LineHits
from mcp_pruner_server.pruning.select import Unit

Task = dict[str, Any]
# The L2 penalty on the standardised weights (a light one: a dozen features, thousands of units).
L2 = 1.0
NEWTON_STEPS = 30


def repository(task: Task) -> str:
    """The repository a commit task comes from (`commit:owner/name@sha:path`)."""
    return str(task["id"]).removeprefix("commit:").split("@", 1)[0]


def recorded(task: Task) -> tuple[list[list[float]], list[float]]:
    """The features of every unit the engine rescores on `task`, and whether each holds gold."""
    rows: list[list[float]] = []
    labels: list[float] = []
    gold = {g - 1 for g in task["gold"]}

    def record(
        units: Sequence[Unit], line_scores: Sequence[float], lh: LineHits, query: dict[str, float]
    ) -> Sequence[Unit]:
        for unit, row in zip(units, unit_features(units, line_scores, lh, query), strict=True):
            if unit.score > 0:  # the model only rescores these
                rows.append(row)
                labels.append(float(any(i in gold for i in unit.lines)))
        return units

    with rules_on("learned_units"), mock.patch.object(engine, "learned_units", record):
        engine_kept(task, 0.8)
    return rows, labels


def fit(samples: Sequence[tuple[list[list[float]], list[float]]]) -> Model:
    """A logistic regression over the tasks' recorded units, each task weighing the same."""
    xs: list[list[float]] = []
    ys: list[float] = []
    ws: list[float] = []
    for rows, labels in samples:
        pos = sum(labels)
        neg = len(labels) - pos
        if not pos or not neg:
            continue  # a task whose units are all alike teaches no ranking
        for row, label in zip(rows, labels, strict=True):
            xs.append(row)
            ys.append(label)
            ws.append(1.0 / pos if label else 1.0 / neg)
    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    w = np.asarray(ws, dtype=float)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    beta = _newton(z, y, w)
    weights = beta[:-1] / scale
    intercept = float(beta[-1] - np.sum(beta[:-1] * mean / scale))
    return Model(tuple(float(v) for v in weights), intercept)


def _newton(z: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64]) -> NDArray[np.float64]:
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], L2)
    penalty[-1] = 0.0  # the intercept is not shrunk
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ beta, -60, 60)))
        grad = z.T @ (w * (p - y)) + penalty * beta
        hess = (z * (w * p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


@contextmanager
def using(model: Model) -> Iterator[None]:
    """The engine rescoring its code units with `model` inside the `with` block."""

    def rescore(
        units: Sequence[Unit], line_scores: Sequence[float], lh: LineHits, query: dict[str, float]
    ) -> list[Unit]:
        return learned_units(units, line_scores, lh, query, model)

    with rules_on("learned_units"), mock.patch.object(engine, "learned_units", rescore):
        yield


def _cell(m: dict[str, float], with_kept: bool = True) -> str:
    crit = f" ({m['critical']:.3f})" if "critical" in m else ""
    return f"{m['recall']:.3f} / {m['whole']:.3f}{crit}" + (f" @ {m['kept']:.3f}" if with_kept else "")


def compare(
    sets: dict[str, list[Task]], model_of: Callable[[Task], Model], ratios: Sequence[float]
) -> dict[str, dict[str, Any]]:
    """Per set and ratio: the heuristics' figures and the model's (each task by `model_of`)."""
    print("| set | ratio | tasks | heuristics | learned | bm25block at learned's kept |")
    print("|---|---|---|---|---|---|")
    out: dict[str, dict[str, Any]] = {}
    for name, tasks in sets.items():
        for ratio in ratios:
            base = score(tasks, ratio)

            def kept(task: Task, r: float) -> set[int]:
                with using(model_of(task)):
                    return engine_kept(task, r)

            learned = score(tasks, ratio, kept)
            out.setdefault(name, {})[str(ratio)] = {"heuristics": base, "learned": learned}
            print(
                f"| {name} | {ratio} | {base['tasks']} | {_cell(base['pruner'])} | "
                f"{_cell(learned['pruner'])} | {_cell(learned['bm25block'], False)} |"
            )
            sys.stdout.flush()
    return out


def _summary(results: dict[str, dict[str, Any]], ratios: Sequence[float]) -> None:
    for ratio in ratios:
        rows = [r[str(ratio)] for r in results.values()]

        def delta(row: dict[str, Any], metric: str) -> float:
            return float(row["learned"]["pruner"][metric] - row["heuristics"]["pruner"][metric])

        recall = [delta(row, "recall") for row in rows]
        kept = [delta(row, "kept") for row in rows]
        better = sum(1 for d in recall if d > 0)
        print(
            f"ratio {ratio}: recall {statistics.fmean(recall):+.4f} on average "
            f"(kept {statistics.fmean(kept):+.4f}), better in {better} of {len(rows)} sets"
        )


def _write(model: Model, path: str, trained_on: Sequence[str]) -> None:
    data = {
        "about": "learned unit scorer (pruning/learned.py), fitted by benchmarks/train_learned_units.py",
        "trained_on": [Path(p).as_posix() for p in trained_on],
        "weights": dict(zip(FEATURES, (round(w, 6) for w in model.weights), strict=True)),
        "intercept": round(model.intercept, 6),
    }
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cv", nargs="+", default=[], help="sets to cross-validate on, one repository out")
    ap.add_argument("--train", nargs="+", default=[], help="sets to fit on")
    ap.add_argument("--eval", nargs="+", default=[], help="sets to score the fitted model on")
    ap.add_argument("--out", help="write the fitted model (--train) here")
    ap.add_argument("--ratios", type=float, nargs="+", default=list(RATIOS))
    args = ap.parse_args()
    if args.cv:
        sets = {Path(p).stem: _load(p) for p in args.cv}
        tasks = [t for ts in sets.values() for t in ts]
        samples = {str(t["id"]): recorded(t) for t in tasks}
        repos = sorted({repository(t) for t in tasks})
        folds = {repo: fit([samples[str(t["id"])] for t in tasks if repository(t) != repo]) for repo in repos}
        print(f"{len(repos)} repositories, {len(tasks)} tasks")
        _summary(compare(sets, lambda t: folds[repository(t)], args.ratios), args.ratios)
    if args.train:
        train = [t for p in args.train for t in _load(p)]
        model = fit([recorded(t) for t in train])
        print(json.dumps(dict(zip(FEATURES, (round(w, 4) for w in model.weights), strict=True))))
        if args.out:
            _write(model, args.out, args.train)
        if args.eval:
            evals = {Path(p).stem: _load(p) for p in args.eval}
            _summary(compare(evals, lambda t: model, args.ratios), args.ratios)
    return 0


if __name__ == "__main__":
    sys.exit(main())
