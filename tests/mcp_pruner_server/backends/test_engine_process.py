"""The heuristic engine in worker processes: same result as in-process, threads when broken."""

from typing import NoReturn

import pytest

from mcp_pruner_server.backends.engine_process import RETRY_COOLDOWN_S, ProcessHeuristicBackend
from mcp_pruner_server.pruning.engine import prune
from mcp_pruner_server.pruning.types import PruneOptions

pytestmark = pytest.mark.anyio
TEXT = "\n".join([f"INFO step {n} ok" for n in range(400)] + ["ERROR disk full on /var"])
OPTIONS = PruneOptions(max_prune_ratio=0.9, min_keep_lines=5, annotate_lines=True)


async def test_a_worker_process_returns_exactly_the_engine_result() -> None:
    backend = ProcessHeuristicBackend()
    result = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_same")
    assert backend.uses_processes
    expected = prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_same")
    assert result.pruned_text == expected.pruned_text
    assert result.annotations == expected.annotations
    assert result.stats.pruned_lines > 0


async def test_when_worker_processes_cannot_start_it_prunes_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A broken interpreter path is the real way a worker spawn fails (anyio runs sys.executable).
    monkeypatch.setattr("sys.executable", "/nonexistent/python")
    backend = ProcessHeuristicBackend()
    result = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_threads")
    again = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_threads2")
    assert not backend.uses_processes
    assert "ERROR disk full on /var" in result.pruned_text
    assert result.stats.pruned_lines > 0
    assert again.prune_id == "prn_threads2"


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
    assert first.stats.pruned_lines > 0  # the thread backend pruned it
    assert not in_processes(backend)
    assert backend.failures == 1
    clock.now += RETRY_COOLDOWN_S - 1
    assert not in_processes(backend)
    clock.now += 1
    assert in_processes(backend)
    again = await backend.prune(TEXT, "why is the disk full?", "logs", OPTIONS, "prn_2")
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

    from mcp_pruner_server.backends.engine_process import in_worker

    def engine_bug() -> NoReturn:  # in_worker takes an engine call; this one only fails
        raise ZeroDivisionError("a bug in the engine")

    with pytest.raises(ZeroDivisionError) as caught:
        in_worker(engine_bug)
    sent_back = pickle.loads(pickle.dumps(caught.value))  # how anyio returns it to the server
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

    import anyio.to_process

    from mcp_pruner_server.backends.engine_process import WORKER_GC_THRESHOLD, in_worker

    # gc's own functions are the calls: picklable, and they report the worker's collector
    threshold = await anyio.to_process.run_sync(in_worker, gc.get_threshold)
    frozen = await anyio.to_process.run_sync(in_worker, gc.get_freeze_count)
    assert threshold[0] == WORKER_GC_THRESHOLD
    assert frozen > 10_000  # the modules and grammars the worker imported
