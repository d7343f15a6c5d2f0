"""`run_bulk`: bulk jobs run in a worker thread, one after another per event loop."""

from __future__ import annotations

import threading

import anyio
import anyio.from_thread
import pytest

from tools_exec.bulk import run_bulk

pytestmark = pytest.mark.anyio


async def test_a_bulk_job_runs_in_a_worker_thread() -> None:
    with anyio.fail_after(5):
        name = await run_bulk(lambda: threading.current_thread().name)
    assert name != threading.current_thread().name


async def test_a_second_bulk_job_waits_until_the_first_is_done() -> None:
    first_started, second_started = anyio.Event(), anyio.Event()
    first_may_end = threading.Event()
    order: list[str] = []

    def first() -> None:
        order.append("first started")
        anyio.from_thread.run_sync(first_started.set)
        first_may_end.wait(timeout=5)
        order.append("first ended")

    def second() -> None:
        order.append("second started")
        anyio.from_thread.run_sync(second_started.set)

    with anyio.fail_after(5):
        async with anyio.create_task_group() as group:
            group.start_soon(run_bulk, first)
            await first_started.wait()  # the first job holds the bulk thread
            group.start_soon(run_bulk, second)
            # a free worker thread would start the second job at once: give it the chance
            with anyio.move_on_after(0.2):
                await second_started.wait()
            first_may_end.set()
    assert order == ["first started", "first ended", "second started"]
