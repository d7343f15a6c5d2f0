"""The longest CPU time between two looks at the engine's clock: how far past a deadline it can run.

    .venv/bin/python benchmarks/clock_gaps.py [NAME[@SOURCE_TYPE] …]

Each input of `bench_odd_inputs.py` whose name holds NAME (all of them without one; `@logs` prunes it
as another source type, `grep@logs` as the grep tool hands a listing over) is pruned with no
deadline in reach, three times, and every look at the clock (`Deadline.passed`) is recorded with
the lines that asked. For each pair of consecutive places, its longest gap in CPU time (median of
the runs) is printed, the longest first: a deadline passing right after the first place is noticed
at the second. CPU time, not wall time: on a shared machine the wall time measures the load (the
overshoots `bench_odd_inputs.py` prints move with it), the CPU time the engine's own work (the
cyclic garbage collector's pauses included: they fall in the engine's loops).
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from pathlib import Path
from types import FrameType

sys.path.insert(0, str(Path(__file__).parent))
from bench_odd_inputs import INPUTS, QUESTION

from mcp_pruner_server.pruning import deadline as deadline_module
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.syntax import clear_parse_cache
from mcp_pruner_server.pruning.types import PruneOptions, SourceType

RUNS = 3
SHOWN = 6  # gaps printed per input
# The clock's own frames and the comprehensions that run inside them say nothing of the place.
_PLUMBING = frozenset(
    {"check", "paced", "paced_each", "drained", "passed", "<listcomp>", "<setcomp>", "<genexpr>"}
)

looks: list[tuple[float, str]] = []
_passed = deadline_module.Deadline.passed


def _recorded(self: deadline_module.Deadline) -> bool:
    frame: FrameType | None = sys._getframe(1)
    where: list[str] = []
    while frame is not None and len(where) < 2:
        if frame.f_code.co_name not in _PLUMBING:
            where.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno}:{frame.f_code.co_name}")
        frame = frame.f_back
    looks.append((time.process_time(), " < ".join(where)))
    return _passed(self)


def gaps(text: str, source_type: SourceType, path: str | None) -> tuple[float, list[tuple[float, str]]]:
    """The median CPU time of a prune, and per pair of places the median of its longest gaps."""
    totals: list[float] = []
    runs: list[dict[str, float]] = []
    for _ in range(RUNS):
        clear_parse_cache()
        looks.clear()
        looks.append((time.process_time(), "start"))
        prune(text, QUESTION, source_type, PruneOptions(timeout_ms=600_000, path=path), "prn_gaps")
        looks.append((time.process_time(), "end"))
        totals.append((looks[-1][0] - looks[0][0]) * 1000)
        worst: dict[str, float] = {}
        for (at, here), (then, there) in itertools.pairwise(looks):
            key = f"{here}  ->  {there}"
            worst[key] = max(worst.get(key, 0.0), (then - at) * 1000)
        runs.append(worst)
    keys = set().union(*runs)
    ranked = sorted(((statistics.median(r.get(k, 0.0) for r in runs), k) for k in keys), reverse=True)
    return statistics.median(totals), ranked


def main(wanted: list[str]) -> int:
    deadline_module.Deadline.passed = _recorded  # type: ignore[method-assign]
    for arg in wanted or list(INPUTS):
        name, _, forced = arg.partition("@")
        for title, (build, source_type, path) in INPUTS.items():
            if name not in title:
                continue
            kind: SourceType = forced if forced in ("code", "logs", "docs") else source_type  # type: ignore[assignment]
            total, ranked = gaps(build(), kind, path)
            print(f"== {title} as {kind}: {total:.0f} ms CPU (median of {RUNS})")
            for gap, key in ranked[:SHOWN]:
                print(f"  {gap:7.1f} ms  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
