"""What each ranking rule (`pruning/rules.py`) contributes: every task set scored with all rules
on, then with each rule off alone.

    python benchmarks/rule_contributions.py ../shared/eval/dev_code.jsonl /work/sets/real/dev/*.jsonl
    python benchmarks/rule_contributions.py --rules twins_together,fortran.numbers SETS...
    python benchmarks/rule_contributions.py --rules best_lines --without vague_keeps_more SETS...
    python benchmarks/rule_contributions.py --pool --rules hot_lines /work/sets/real/{dev,train}/*.jsonl

The engine runs in process with the harness's options (ratio `--ratio`, `min_keep_lines=0`); a
task's `path`, when it has one, is passed as `read` passes it. A row is one rule; a cell is the
set's `recall / whole (critical) @ kept` with the rule off, followed by the change it makes when
on (`+0.012` = the rule raises recall by 1.2 points). A language's rule (`fortran.numbers`)
is only measured on the tasks in that language (the others cannot change). The last columns
count the tasks whose recall the rule raises and lowers. Files of one name in several folders
(`dev/python.jsonl`, `train/python.jsonl`) are told apart by their folder; `--pool` makes each
folder (a split) one set.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from lang_bench import _harness, _load
from real_questions_bench import engine_kept

from mcp_pruner_server.pruning.rules import RULES, rules_off
from mcp_pruner_server.pruning.structure.languages import language_of
from mcp_pruner_server.pruning.text import split_lines


def _task_scores(
    task: dict[str, Any], ratio: float, nonblank: set[int]
) -> tuple[float, float, float | None, float]:
    kept = engine_kept(task, ratio) & nonblank
    gold = {g - 1 for g in task["gold"]}
    crit = {c - 1 for c in task["critical"]}
    critical = len(kept & crit) / len(crit) if crit else None
    return len(kept & gold) / len(gold), float(gold <= kept), critical, len(kept) / max(1, len(nonblank))


def _summary(rows: list[tuple[float, float, float | None, float]]) -> dict[str, float]:
    out = {
        "recall": statistics.fmean(r[0] for r in rows),
        "whole": statistics.fmean(r[1] for r in rows),
        "kept": statistics.fmean(r[3] for r in rows),
    }
    crit = [r[2] for r in rows if r[2] is not None]
    if crit:
        out["critical"] = statistics.fmean(crit)
    return out


def _cell(off: dict[str, float], on: dict[str, float]) -> str:
    crit = f" ({off['critical']:.3f})" if "critical" in off else ""
    delta = on["recall"] - off["recall"], on["whole"] - off["whole"], on["kept"] - off["kept"]
    return (
        f"{off['recall']:.3f} / {off['whole']:.3f}{crit} @ {off['kept']:.3f} "
        f"→ on {delta[0]:+.3f} / {delta[1]:+.3f} @ {delta[2]:+.3f}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--ratio", type=float, default=0.8)
    ap.add_argument("--rules", help="comma-separated rule names (default: every rule)")
    ap.add_argument(
        "--without", default="", help="comma-separated rules off in every run (isolates the others)"
    )
    ap.add_argument("--pool", action="store_true", help="one set per folder (a split), not per file")
    args = ap.parse_args()
    without = [name for name in args.without.split(",") if name]
    with rules_off(*without):
        names = args.rules.split(",") if args.rules else list(RULES)
        return _run(args.tasks, args.ratio, names, pool=args.pool)


def load_sets(paths: list[str], *, pool: bool) -> dict[str, list[dict[str, Any]]]:
    """The task files' tasks by set name: a file's name (`python`), or `folder/name` where files of
    one name lie in several folders (`dev/python`, `train/python`); with `pool`, one set a folder
    (a split's languages together). Empty files (a small project's split) are left out."""
    stems = [Path(path).stem for path in paths]
    sets: dict[str, list[dict[str, Any]]] = {}
    for path, stem in zip(paths, stems, strict=True):
        tasks = _load(path)
        if not tasks:
            continue
        if pool:
            sets.setdefault(Path(path).parent.name, []).extend(tasks)
        else:
            sets[f"{Path(path).parent.name}/{stem}" if stems.count(stem) > 1 else stem] = tasks
    return sets


def _run(paths: list[str], ratio: float, names: list[str], *, pool: bool) -> int:
    harness = _harness()
    sets = load_sets(paths, pool=pool)
    nonblank: dict[str, set[int]] = {}
    langs: dict[str, str | None] = {}
    base: dict[str, list[tuple[float, float, float | None, float]]] = {}
    for set_name, tasks in sets.items():
        base[set_name] = []
        for t in tasks:
            nonblank[t["id"]] = set(harness._nonblank(t["text"].split("\n")))
            langs[t["id"]] = (
                language_of(t.get("path"), split_lines(t["text"])) if t["source_type"] == "code" else None
            )
            base[set_name].append(_task_scores(t, ratio, nonblank[t["id"]]))
    print(f"ratio {ratio}; all rules on:")
    for set_name, rows in base.items():
        print(
            f"  {set_name} ({len(rows)} tasks): "
            + json.dumps({k: round(v, 3) for k, v in _summary(rows).items()})
        )
    print()
    print("| rule | " + " | ".join(sets) + " | tasks up / down |")
    print("|---|" + "---|" * len(sets) + "---|")
    for name in names:
        lang = name.split(".", 1)[0] if "." in name else None
        cells: list[str] = []
        up = down = 0
        for set_name, tasks in sets.items():
            on_rows: list[tuple[float, float, float | None, float]] = []
            off_rows: list[tuple[float, float, float | None, float]] = []
            for t, on_row in zip(tasks, base[set_name], strict=True):
                if t["source_type"] != "code" or (lang is not None and langs[t["id"]] != lang):
                    continue
                with rules_off(name):
                    off_row = _task_scores(t, ratio, nonblank[t["id"]])
                on_rows.append(on_row)
                off_rows.append(off_row)
                up += on_row[0] > off_row[0] + 1e-9
                down += on_row[0] < off_row[0] - 1e-9
            cells.append(_cell(_summary(off_rows), _summary(on_rows)) if on_rows else "—")
        print(f"| {name} | " + " | ".join(cells) + f" | {up} / {down} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
