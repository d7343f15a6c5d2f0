"""The engine's cooperative clock: costly loops notice a passed deadline as they go."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from mcp_pruner_server.pruning.deadline import CHECK_EVERY, NO_DEADLINE, Deadline
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.errors import EngineTimeout
from mcp_pruner_server.pruning.scoring import line_terms
from mcp_pruner_server.pruning.types import PruneOptions


def _ticking_clock() -> itertools.count[int]:
    return itertools.count(1)  # each read of the clock is one second later


def test_paced_looks_at_the_clock_before_the_first_item_and_every_check_every_items() -> None:
    ticks = _ticking_clock()
    deadline = Deadline(at=2.5, timeout_ms=2500, clock=lambda: next(ticks))  # reads 1 and 2 pass, 3 fails
    seen: list[int] = []
    with pytest.raises(EngineTimeout):
        seen.extend(deadline.paced(range(10 * CHECK_EVERY)))
    assert len(seen) == 2 * CHECK_EVERY


def test_no_deadline_never_stops_a_loop() -> None:
    assert sum(1 for _ in NO_DEADLINE.paced(range(5 * CHECK_EVERY))) == 5 * CHECK_EVERY
    NO_DEADLINE.check()


def test_a_deadline_passed_during_tokenising_stops_it_there() -> None:
    ticks = _ticking_clock()
    deadline = Deadline(at=1.5, timeout_ms=1500, clock=lambda: next(ticks))
    lines = [f"value_{k} = compute(k)" for k in range(3 * CHECK_EVERY)]
    with pytest.raises(EngineTimeout):
        line_terms(lines, deadline=deadline)


def test_a_small_timeout_on_a_large_log_gives_the_noop_result_with_the_timeout_warning() -> None:
    # ~6 MB: before the loops looked at the clock, the first stage alone ran ~1 s past 50 ms; how
    # soon after the deadline the result comes now: benchmarks/bench_engine_bounds.py.
    log = "\n".join(
        f"2024-01-01 12:00:{k % 60:02d} INFO [worker-{k % 17}] request id={k} path=/api/v1/items/{k} ok"
        for k in range(70_000)
    )
    for source_type in ("code", "logs", "docs"):
        result = prune(log, "why does request 1234 fail", source_type, PruneOptions(timeout_ms=50), "prn_t")
        assert (result.pruned_text == log, result.warnings, result.stats.used_fallback) == (
            True,
            ("timeout",),
            True,
        )


def test_paced_each_gives_the_items_one_at_a_time_and_looks_at_the_clock_every_check_every() -> None:
    ticks = _ticking_clock()
    deadline = Deadline(at=2.5, timeout_ms=2500, clock=lambda: next(ticks))
    made: list[int] = []

    def items() -> Iterator[int]:
        for k in itertools.count():
            made.append(k)
            yield k

    seen: list[int] = []

    def loop() -> None:
        for item in deadline.paced_each(items()):
            assert made[-1] == item  # nothing read ahead: the loop's work comes before the next item
            seen.append(item)

    with pytest.raises(EngineTimeout):
        loop()
    assert len(seen) == 2 * CHECK_EVERY


def test_drained_pops_what_the_loop_pushes_and_looks_at_the_clock_every_check_every_pops() -> None:
    ticks = _ticking_clock()
    deadline = Deadline(at=2.5, timeout_ms=2500, clock=lambda: next(ticks))
    stack = [0]
    popped: list[int] = []

    def loop() -> None:
        for depth in deadline.drained(stack):
            popped.append(depth)
            stack.append(depth + 1)  # a tree deeper than any deadline

    with pytest.raises(EngineTimeout):
        loop()
    assert len(popped) == 2 * CHECK_EVERY
    assert list(NO_DEADLINE.drained([1, 2, 3])) == [3, 2, 1]


def test_a_deadline_passed_while_cutting_time_stamps_stops_it_there() -> None:
    # a regex match a line: ~1.3 s on a 60 MB log, before this looked at the clock
    from mcp_pruner_server.pruning.timestamps import without_timestamps

    ticks = _ticking_clock()
    deadline = Deadline(at=1.5, timeout_ms=1500, clock=lambda: next(ticks))
    lines = [f"2026-11-28 12:00:00 INFO request {k} ok" for k in range(3 * CHECK_EVERY)]
    assert without_timestamps(lines) is not None
    with pytest.raises(EngineTimeout):
        without_timestamps(lines, deadline=deadline)
