"""The engine's worst cases against baselines measured in the same run (not timed tests).

The tests check what these inputs produce; this script checks how long they take:

- unclosed braces: `find_blocks` on 3,000 and 6,000 `function f(x) {` lines that never close
  (each becomes a block by indentation), next to as many one-line functions that do. Each header
  used to scan to the end of the file for its `}` (3,000 lines took ~16 s). Target: twice the
  lines <= 3x the time (linear ~2, quadratic ~4), and 3,000 lines <= 3 s.
- minified line: `find_blocks` on a file holding one 2 MB line, vs a Python loop reading that line
  character by character (what looking for its braces cost: ~0.5 s). Target: ratio <= 0.1.
- deadline: `prune` of a ~6 MB log with `timeout_ms=50`, vs the same prune with no deadline
  worth the name. Before the loops looked at the clock, the first stage alone ran ~1 s past
  50 ms. Target: median <= 50 + 400 ms, for each source type.

Usage: .venv/bin/python benchmarks/bench_engine_bounds.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial

from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.structure.code_blocks import MAX_BRACE_LINE_CHARS, find_blocks
from mcp_pruner_server.pruning.types import SOURCE_TYPES, PruneOptions

UNCLOSED_LINES = 3000
BRACES_TARGET_GROWTH = 3.0
BRACES_TARGET_MS = 3000.0
MINIFIED_TARGET_RATIO = 0.1
DEADLINE_MS = 50
DEADLINE_TARGET_MS = DEADLINE_MS + 400  # one look at the clock every CHECK_EVERY lines, plus the no-op
LOG_LINES = 70_000  # ~6 MB
QUESTION = "why does request 1234 fail"


def median_ms(runs: int, call: Callable[[], object]) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def unclosed(n: int) -> list[str]:
    return [f"function step{k}(x) {{" for k in range(n)]


def closed(n: int) -> list[str]:
    return [f"function step{k}(x) {{ return x; }}" for k in range(n)]


def count_braces(line: str) -> int:
    """The baseline: reading a line character by character, as brace matching did."""
    return sum(1 for ch in line if ch in "{}")


def bench_braces(runs: int) -> bool:
    print(
        f"find_blocks, unclosed braces (target: {UNCLOSED_LINES} lines <= {BRACES_TARGET_MS:.0f} ms, "
        f"twice the lines <= x{BRACES_TARGET_GROWTH} the time)"
    )
    print(f"  {'lines':>6} {'closed ms':>10} {'unclosed ms':>12}")
    medians: dict[int, float] = {}
    for n in (UNCLOSED_LINES, 2 * UNCLOSED_LINES):
        base = median_ms(runs, partial(find_blocks, closed(n)))
        medians[n] = median_ms(runs, partial(find_blocks, unclosed(n)))
        print(f"  {n:>6} {base:>10.1f} {medians[n]:>12.1f}")
    growth = medians[2 * UNCLOSED_LINES] / medians[UNCLOSED_LINES]
    print(f"  twice the lines: x{growth:.2f} the time (linear ~2, quadratic ~4)")
    return medians[UNCLOSED_LINES] <= BRACES_TARGET_MS and growth <= BRACES_TARGET_GROWTH


def bench_minified(runs: int) -> bool:
    minified = "  " + "var a={b:1};" * 170_000
    assert len(minified) > MAX_BRACE_LINE_CHARS
    around = ["function outer() {", "}", "function after() {", "  return 2;", "}"]
    with_long = [around[0], minified, *around[1:]]
    base = median_ms(runs, partial(count_braces, minified))
    long = median_ms(runs, partial(find_blocks, with_long))
    ratio = long / base
    print(f"find_blocks, one {len(minified) / 1e6:.1f} MB line (target: ratio <= {MINIFIED_TARGET_RATIO})")
    print(f"  reading it char by char {base:.1f} ms, find_blocks {long:.3f} ms, ratio {ratio:.4f}")
    return ratio <= MINIFIED_TARGET_RATIO


def bench_deadline(runs: int) -> bool:
    log = "\n".join(
        f"2024-01-01 12:00:{k % 60:02d} INFO [worker-{k % 17}] request id={k} path=/api/v1/items/{k} ok"
        for k in range(LOG_LINES)
    )
    print(
        f"prune of a {len(log) / 1e6:.1f} MB log with timeout_ms={DEADLINE_MS} "
        f"(target: median <= {DEADLINE_TARGET_MS} ms)"
    )
    print(f"  {'source':<6} {'no deadline ms':>15} {'timeout_ms=50 ms':>17}")
    ok = True
    unbounded = PruneOptions(timeout_ms=10**9)
    bounded = PruneOptions(timeout_ms=DEADLINE_MS)
    for source_type in SOURCE_TYPES:
        result = prune(log, QUESTION, source_type, bounded, "prn_b")
        assert result.warnings == ("timeout",), result.warnings  # what is measured is the timeout
        base = median_ms(max(1, runs // 5), partial(prune, log, QUESTION, source_type, unbounded, "prn_b"))
        cut = median_ms(runs, partial(prune, log, QUESTION, source_type, bounded, "prn_b"))
        ok &= cut <= DEADLINE_TARGET_MS
        print(f"  {source_type:<6} {base:>15.0f} {cut:>17.0f}")
    return ok


def main(runs: int) -> int:
    results = [bench_braces(runs), bench_minified(runs), bench_deadline(runs)]
    print("all targets met" if all(results) else "a target was missed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    sys.exit(main(parser.parse_args().runs))
