"""Why the engine loses the gold lines of real questions (issue 33): each lost line in a category.

    python benchmarks/real_question_misses.py /work/sets/real/dev/*.jsonl              # ratio 0.8
    python benchmarks/real_question_misses.py --ratio 0.9 --show 5 SETS...             # with examples

The engine runs in process, as `real_questions_bench.py` runs it; the units it ranked and the lines
it kept are read back from its `choose` call. A gold line it did not keep is, first match wins:

- `import`: in a top-level import statement;
- `no_unit`: in no unit's lines (a container's fields or comments when its members are units,
  lines the block finder left out);
- `module_level`: in a chunk of top-level code (no definition: tables, registrations, `main`);
- `unit_partly_kept`: in a definition some of whose lines were kept (a window, the hot lines);
- `unit_ranked_N`: in a definition of which nothing was kept, ranked N-th by score (`1`, `2-3`,
  `4-10`, `>10`); `unit_unscored` when the question's words are nowhere in it.

A task counts once in `tasks` per category it lost lines in; `lines` is the share of all lost gold
lines. Also printed: the share of lost lines that share no word with the question (line score 0),
and that are in a unit larger than the budget's floor.
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lang_bench import _harness, _load
from real_questions_bench import engine_kept

from mcp_pruner_server.pruning import engine
from mcp_pruner_server.pruning.deadline import NO_DEADLINE
from mcp_pruner_server.pruning.languages.registry import by_name, hooks_of
from mcp_pruner_server.pruning.select import Unit, choose
from mcp_pruner_server.pruning.structure.code import code_units
from mcp_pruner_server.pruning.structure.code_blocks import Block, find_blocks, import_lines

Task = dict[str, Any]


class _Seen:
    """What the engine's last `choose` call was given and returned."""

    def __init__(self) -> None:
        self.units: Sequence[Unit] = ()
        self.floor = 0
        self.line_scores: Sequence[float] = ()
        self.keep: Sequence[bool] = ()
        self.blocks: Sequence[Block] = ()


def _watch() -> _Seen:
    seen = _Seen()

    def watched(
        n: int, units: Sequence[Unit], must: Any, floor: int, line_scores: Sequence[float], *a: Any, **k: Any
    ) -> list[bool]:
        keep = choose(n, units, must, floor, line_scores, *a, **k)
        seen.units, seen.floor, seen.line_scores, seen.keep = units, floor, line_scores, keep
        return keep

    def watched_units(lines: Sequence[str], *a: Any, **k: Any) -> list[Unit]:
        blocks = k.get("blocks")
        if blocks is None:  # found inside `code_units`, as it finds them
            finder = hooks_of(k.get("lang")).block_finder
            blocks = (
                finder(lines, deadline=NO_DEADLINE)
                if finder
                else find_blocks(lines, comment=by_name(k.get("lang")).comment)
            )
        seen.blocks = blocks
        return code_units(lines, *a, **k)

    # the engine's names for them, replaced for the run (it exports neither)
    setattr(engine, "choose", watched)  # noqa: B010
    setattr(engine, "code_units", watched_units)  # noqa: B010
    return seen


def _rank_band(rank: int) -> str:
    return "1" if rank == 1 else "2-3" if rank <= 3 else "4-10" if rank <= 10 else ">10"


def categorize(task: Task, seen: _Seen, kept: set[int]) -> list[tuple[int, str]]:
    """Each lost gold line (0-based) of `task` with its category (module docstring)."""
    lines = task["text"].split("\n")
    gold = {g - 1 for g in task["gold"]} & set(_harness()._nonblank(lines))
    lost = sorted(gold - kept)
    in_import = {i for s, e in import_lines(lines) for i in range(s, e)}
    ranked = sorted(range(len(seen.units)), key=lambda k: -seen.units[k].score)
    rank_of = {k: r + 1 for r, k in enumerate(ranked)}
    unit_of: dict[int, int] = {}
    for u, owner in enumerate(seen.units):
        for i in owner.lines:
            unit_of.setdefault(i, u)
    out: list[tuple[int, str]] = []
    for i in lost:
        if i in in_import:
            out.append((i, "import"))
            continue
        if i not in unit_of:
            out.append((i, "no_unit"))
            continue
        k = unit_of[i]
        unit = seen.units[k]
        if not any(b.start <= i < b.end for b in seen.blocks):
            out.append((i, "module_level"))
        elif any(j in kept for j in unit.lines):
            out.append((i, "unit_partly_kept"))
        elif unit.score <= 0:
            out.append((i, "unit_unscored"))
        else:
            out.append((i, f"unit_ranked_{_rank_band(rank_of[k])}"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+")
    ap.add_argument("--ratio", type=float, default=0.8)
    ap.add_argument("--show", type=int, default=0, help="print this many example tasks per category")
    args = ap.parse_args()
    harness = _harness()
    seen = _watch()
    lines_by: collections.Counter[str] = collections.Counter()
    tasks_by: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    unscored = big = lost_total = missed_tasks = total = 0
    for path in args.tasks:
        for task in _load(path):
            total += 1
            lines = task["text"].split("\n")
            nonblank = set(harness._nonblank(lines))
            kept = engine_kept(task, args.ratio) & nonblank
            lost = categorize(task, seen, kept)
            if not lost:
                continue
            missed_tasks += 1
            lost_total += len(lost)
            unit_len = {i: len(u.lines) for u in seen.units for i in u.lines}
            for i, cat in lost:
                lines_by[cat] += 1
                unscored += seen.line_scores[i] <= 0 if seen.line_scores else 0
                big += unit_len.get(i, 0) > seen.floor
            for cat in {c for _, c in lost}:
                tasks_by[cat] += 1
                if len(examples[cat]) < args.show:
                    first = next(i for i, c in lost if c == cat)
                    examples[cat].append(
                        f"{Path(path).stem} {task['id']} line {first + 1}: {lines[first].strip()[:80]!r}"
                        f" | q: {task['goal_hint'].splitlines()[0][:90]!r}"
                    )
    print(f"ratio {args.ratio}: {missed_tasks} of {total} tasks lost gold lines, {lost_total} lines")
    print("| category | tasks | lines |")
    print("|---|---|---|")
    for cat, n in lines_by.most_common():
        print(f"| {cat} | {tasks_by[cat]} | {n / lost_total:.3f} |")
    print(f"lost lines sharing no word with the question: {unscored / max(1, lost_total):.3f}")
    print(f"lost lines in a unit larger than the floor: {big / max(1, lost_total):.3f}")
    for cat, rows in examples.items() if args.show else ():
        print(f"\n{cat}:")
        for row in rows:
            print("  " + row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
