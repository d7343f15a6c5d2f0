"""The heuristic engine in worker processes: same result as in-process, fail-open when no worker answers."""

import os
import signal
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import NoReturn

import anyio
import psutil
import pytest

from mcp_pruner_server.backends import engine_process, engine_workers
from mcp_pruner_server.backends.engine_process import RETRY_COOLDOWN_S, ProcessHeuristicBackend
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult

pytestmark = pytest.mark.anyio
TEXT = "\n".join([f"INFO step {n} ok" for n in range(400)] + ["ERROR disk full on /var"])
OPTIONS = PruneOptions(max_prune_ratio=0.9, min_keep_lines=5, annotate_lines=True)


@pytest.fixture(autouse=True)
def no_worker_left_running() -> Iterator[None]:
    """Each test ends the workers it started (`aclose`): a worker left running outlives the
    test's event loop, and its process object, never waited for, warned "subprocess … is still
    running" at the end of the suite once the worker died."""
    before = {child.pid for child in psutil.Process().children()}
    yield
    left = [child for child in psutil.Process().children() if child.pid not in before]
    assert not [child.cmdline() for child in left if child.status() != psutil.STATUS_ZOMBIE]


async def test_a_worker_process_returns_exactly_the_engine_result() -> None:
    backend = ProcessHeuristicBackend()
    await backend.warm()  # as the server does at its start: the budget counts from the call
    try:
        result = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_same")
    finally:
        await backend.aclose()
    assert backend.uses_processes
    expected = prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_same")
    assert result.pruned_text == expected.pruned_text
    assert result.annotations == expected.annotations
    assert result.stats.pruned_lines > 0


async def test_a_first_prune_during_the_warm_up_waits_for_the_same_workers_start() -> None:
    # stdio warms the workers after its handshake while the agent's first call arrives: both wait
    # for one worker's READY, which only one of them may read
    backend = ProcessHeuristicBackend()
    results: list[PruneResult] = []

    async def first_call() -> None:
        results.append(await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_first"))

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(backend.warm)
            await anyio.wait_all_tasks_blocked()  # the warm-up now waits for its workers' READY
            await first_call()
    finally:
        await backend.aclose()
    (result,) = results
    assert result.stats.pruned_lines > 0
    assert not result.warnings


async def test_a_prune_while_the_workers_still_start_is_pruned_its_budget_counting_the_pruning() -> None:
    # A worker's start (its engine imports, 0.8 s on an idle 2-core host) is longer than this
    # budget: charged to it, the server's first prunes came back unpruned (`timeout`) under load.
    backend = ProcessHeuristicBackend()
    options = replace(OPTIONS, timeout_ms=500)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(backend.warm)  # as the server does at its start
            await anyio.wait_all_tasks_blocked()  # its workers are spawned and importing
            result = await backend.prune(TEXT, "why is the disk full?", "logs", options, "prn_first")
    finally:
        await backend.aclose()
    assert not result.warnings
    assert result.stats.pruned_lines > 0


async def test_a_worker_that_never_starts_costs_a_prune_its_start_allowance_then_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A real worker process that never says READY (a hung import): the prune waits for it up to
    # the allowance, then its budget runs out waiting, and it answers the text unpruned.
    monkeypatch.setattr(engine_workers, "_WORKER_MAIN", "import time; time.sleep(60)")
    monkeypatch.setattr(engine_process, "WORKER_START_ALLOWANCE_S", 0.5)
    backend = ProcessHeuristicBackend()
    options = replace(OPTIONS, timeout_ms=300)
    bound_s = 0.5 + 0.3 + engine_process.KILL_GRACE_S
    try:
        started = time.monotonic()
        with anyio.fail_after(bound_s + 5):  # 5 s: a busy host's scheduling, far below the 30 s start timeout
            result = await backend.prune(TEXT, "why is the disk full?", "logs", options, "prn_hung")
        waited = time.monotonic() - started
    finally:
        await backend.aclose()
    assert result.pruned_text == TEXT
    assert result.warnings == ("timeout",)
    assert waited >= bound_s - 0.05  # the allowance and the budget, each spent


async def test_when_worker_processes_cannot_start_it_answers_unpruned_never_in_the_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A broken interpreter path is the real way a worker spawn fails (the pool runs sys.executable).
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    backend = ProcessHeuristicBackend()
    result = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_none")
    again = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_none2")
    assert not backend.uses_processes
    assert result.pruned_text == TEXT
    assert result.stats.pruned_lines == 0
    assert "internal_error" in result.warnings
    assert again.prune_id == "prn_none2"
    assert backend.failures == 1  # the second prune did not try to spawn again


def in_processes(backend: ProcessHeuristicBackend) -> bool:
    # A call, not the property: mypy keeps a property narrowed by `assert not` across clock changes.
    return backend.uses_processes


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_after_a_worker_failure_processes_are_tried_again_after_the_cooldown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeClock()
    backend = ProcessHeuristicBackend(clock=clock)
    with monkeypatch.context() as broken:
        broken.setattr("sys.executable", "/nonexistent/python")  # the real way a spawn fails
        first = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_1")
    assert first.stats.pruned_lines == 0  # fail-open: nothing pruned in the server
    assert not in_processes(backend)
    assert backend.failures == 1
    clock.now += RETRY_COOLDOWN_S - 1
    assert not in_processes(backend)
    clock.now += 1
    assert in_processes(backend)
    try:
        again = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_2")
    finally:
        await backend.aclose()
    assert again.pruned_text == prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_2").pruned_text
    assert in_processes(backend)
    assert backend.failures == 0


async def test_consecutive_worker_failures_double_the_cooldown(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    backend = ProcessHeuristicBackend(clock=clock)
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    await backend.prune(TEXT, "disk", "logs", OPTIONS, "prn_1")
    clock.now += RETRY_COOLDOWN_S
    await backend.prune(TEXT, "disk", "logs", OPTIONS, "prn_2")
    assert backend.failures == 2
    clock.now += RETRY_COOLDOWN_S
    assert not backend.uses_processes
    clock.now += RETRY_COOLDOWN_S
    assert backend.uses_processes


def test_an_exception_in_a_worker_keeps_the_worker_traceback_as_a_note_across_pickling() -> None:
    import pickle
    import traceback

    from mcp_pruner_server.engine_worker import in_worker

    def engine_bug() -> NoReturn:  # in_worker takes an engine call; this one only fails
        raise ZeroDivisionError("a bug in the engine")

    with pytest.raises(ZeroDivisionError) as caught:
        in_worker(engine_bug)
    sent_back = pickle.loads(pickle.dumps(caught.value))  # how the worker returns it to the server
    printed = "".join(traceback.format_exception(sent_back))
    assert "in engine_bug" in printed
    assert "in the engine worker process" in printed


async def test_create_backend_runs_the_heuristic_engine_in_processes_only_when_asked() -> None:
    import httpx

    from mcp_pruner_server.backends import HeuristicBackend, create_backend
    from mcp_pruner_server.pruning_config import PruningConfig

    async with httpx.AsyncClient() as client:
        server = create_backend(PruningConfig(), client, engine_processes=True)
        embedded = create_backend(PruningConfig(), client)
        # an `http` backend without an endpoint prunes locally, in threads as before
        no_endpoint = create_backend(PruningConfig(backend="http"), client, engine_processes=True)
    assert isinstance(server, ProcessHeuristicBackend)
    assert type(embedded) is HeuristicBackend
    assert type(no_endpoint) is HeuristicBackend


async def test_a_worker_freezes_its_startup_heap_and_collects_young_objects_less_often() -> None:
    import gc

    from mcp_pruner_server.backends.engine_workers import EnginePool
    from mcp_pruner_server.engine_worker import WORKER_GC_THRESHOLD

    pool = EnginePool(1)
    try:
        # gc's own functions are the calls: picklable, and they report the worker's collector
        threshold = await pool.run(30, gc.get_threshold)
        frozen = await pool.run(30, gc.get_freeze_count)
    finally:
        await pool.aclose()
    assert threshold[0] == WORKER_GC_THRESHOLD
    assert frozen > 10_000  # the modules and grammars the worker imported


async def _busy_worker(backend: ProcessHeuristicBackend) -> int:
    """The pid of the worker running the backend's call, once there is one."""
    with anyio.fail_after(30):
        while not backend.pool.busy_pids:  # noqa: ASYNC110  (the pool has no event for this, nor needs one)
            await anyio.sleep(0.01)
    return backend.pool.busy_pids[0]


async def test_a_worker_killed_mid_prune_answers_unpruned_and_a_new_worker_prunes_the_next_call() -> None:
    # What the OOM killer does: SIGKILL the worker while it prunes a large log.
    backend = ProcessHeuristicBackend()
    big = "\n".join(f"INFO step {n} of the job ran fine on node-{n % 7}" for n in range(400_000))
    slow = PruneOptions(max_prune_ratio=0.9, timeout_ms=60_000)
    outcome: list[PruneResult] = []
    answered = anyio.Event()
    try:
        async with anyio.create_task_group() as tasks:

            async def prune_big() -> None:
                outcome.append(await backend.prune(big, "why did step 7 fail", "logs", slow, "prn_big"))
                answered.set()

            tasks.start_soon(prune_big)
            victim = await _busy_worker(backend)
            with anyio.fail_after(5):  # answered at once, not after the 60 s budget
                os.kill(victim, signal.SIGKILL)
                await answered.wait()
        await backend.warm()  # the successor, started at once, is ready
        after = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_after")
        workers = backend.pool.idle_pids
    finally:
        await backend.aclose()
    assert outcome[0].stats.pruned_lines == 0
    assert outcome[0].pruned_text == big
    assert "internal_error" in outcome[0].warnings
    assert after.stats.pruned_lines > 0  # a new worker pruned it
    assert workers  # ... a process, not the victim
    assert victim not in workers


async def test_a_call_past_its_hard_deadline_is_killed_and_answered_without_holding_a_small_one() -> None:
    # A call that never looks at the clock (the engine inside one regex search): `time.sleep`.
    import time

    from mcp_pruner_server.backends.engine_workers import EnginePool, WorkerOverran

    pool = EnginePool(2)
    overran: list[float] = []
    try:
        async with anyio.create_task_group() as warm:  # both workers started: the deadline counts
            warm.start_soon(pool.run, 30, gc_count)  # from the call, not a worker's imports
            warm.start_soon(pool.run, 30, gc_count)
        async with anyio.create_task_group() as tasks:

            async def runaway() -> None:
                started = time.monotonic()
                with pytest.raises(WorkerOverran):
                    await pool.run(1.0, time.sleep, 60)
                overran.append(time.monotonic() - started)

            tasks.start_soon(runaway)
            with anyio.fail_after(5):
                while not pool.busy_pids:  # noqa: ASYNC110  (the pool has no event for this)
                    await anyio.sleep(0.01)
            with anyio.fail_after(1.0):  # the small call is not held behind the runaway
                assert await pool.run(30, gc_count) > 0
        pids = pool.idle_pids
        assert await pool.run(30, gc_count) > 0  # a replacement answers the next call
    finally:
        await pool.aclose()
    assert 1.0 <= overran[0] < 1.5
    assert len(pids) == 2


def gc_count() -> int:
    import gc

    return gc.get_freeze_count()
