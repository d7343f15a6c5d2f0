"""The engine's worker pool: one budget for a call, the wait for a worker included."""

from __future__ import annotations

import gc
import time

import anyio
import pytest

from mcp_pruner_server.backends.engine_workers import EnginePool, WorkerNotReady
from mcp_pruner_server.engine_worker import prune_text, within
from mcp_pruner_server.pruning.types import PruneOptions

pytestmark = pytest.mark.anyio
# A bound on answering that a busy 2-core host keeps (the calls' budgets are far below it).
ANSWERED_S = 5.0


def freeze_count() -> int:
    """A call the workers can run (a module-level function pickles by name)."""
    return gc.get_freeze_count()


async def test_a_call_waiting_for_a_busy_worker_gives_up_at_its_deadline_not_after_the_busy_call() -> None:
    pool = EnginePool(1)
    try:
        await pool.warm()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(pool.run, 60, time.sleep, 30)  # holds the one worker
            with anyio.fail_after(ANSWERED_S):
                while not pool.busy_pids:  # noqa: ASYNC110  (the pool has no event for this)
                    await anyio.sleep(0.01)
            started = time.monotonic()
            with anyio.fail_after(ANSWERED_S), pytest.raises(WorkerNotReady):
                await pool.run(0.3, freeze_count)
            waited = time.monotonic() - started
            busy = pool.busy_pids
            tasks.cancel_scope.cancel()  # the sleeping call's worker is killed
    finally:
        await pool.aclose()
    assert 0.3 <= waited < ANSWERED_S
    assert busy  # the long call still ran: the short one gave up waiting, killed nothing


async def test_a_call_whose_budget_ends_before_a_worker_starts_leaves_that_worker_to_the_next() -> None:
    # A worker's imports take 0.8 s on an idle host: a 50 ms budget is over first.
    pool = EnginePool(1)
    try:
        with anyio.fail_after(ANSWERED_S), pytest.raises(WorkerNotReady):
            await pool.run(0.05, freeze_count)
        starting = pool.idle_pids
        assert await pool.run(30, freeze_count) > 0
        answered_by = pool.idle_pids
    finally:
        await pool.aclose()
    assert len(starting) == 1
    assert answered_by == starting  # the worker the first call waited for answered the next one


def test_the_engine_in_a_worker_is_given_what_remains_of_the_budget_none_left_none_spent() -> None:
    options = PruneOptions(timeout_ms=2000)
    assert within(options, None) == options
    assert 1000 < within(options, time.monotonic() + 1.5).timeout_ms <= 1500
    assert within(options, time.monotonic() + 60).timeout_ms == 2000  # never more than asked
    assert within(options, time.monotonic() - 1).timeout_ms == 0
    text = "\n".join(f"INFO step {n} ok" for n in range(2000)) + "\nERROR disk full"
    spent = prune_text(text, "why is the disk full?", "logs", options, "prn_spent", time.monotonic() - 1)
    assert spent.warnings == ("timeout",)
    assert spent.stats.pruned_lines == 0
