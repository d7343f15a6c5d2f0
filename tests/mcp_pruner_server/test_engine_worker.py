"""The engine worker's loop (`engine_worker.serve`) over real pipes, run in a thread of the test."""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import BinaryIO

from mcp_pruner_server.engine_worker import HEADER, READY, serve

# Bounds every wait on the thread: a hang fails the test instead of holding the suite.
WAIT_S = 5.0
# The worker's quiet before a step, shortened: the tests wait for it.
QUIET_S = 0.05

_happened: list[str] = []


def _called(what: str) -> str:
    """The request the test sends: runs in the worker's loop, as a prune would."""
    _happened.append(what)
    return what


@contextmanager
def _serving(steps: list[Callable[[], None]]) -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """`serve` in a thread; yields (its requests' write end, its answers' read end) after `READY`."""
    requests_in, requests_out = os.pipe()
    answers_in, answers_out = os.pipe()
    with (
        open(requests_in, "rb") as requests,
        open(requests_out, "wb") as to_worker,
        open(answers_in, "rb") as from_worker,
        open(answers_out, "wb") as answers,
    ):
        thread = threading.Thread(
            target=serve,
            args=(requests, answers, steps),
            kwargs={"quiet_before_step_s": QUIET_S},
            daemon=True,
        )
        thread.start()
        assert from_worker.read(len(READY)) == READY
        try:
            yield to_worker, from_worker
        finally:
            to_worker.close()  # the worker's stdin ends: `serve` returns
            thread.join(WAIT_S)
    assert not thread.is_alive()


def _send(to_worker: BinaryIO, what: str) -> None:
    request = pickle.dumps((_called, (what,)))
    to_worker.write(HEADER.pack(b"C", len(request)) + request)
    to_worker.flush()


def _answer(from_worker: BinaryIO) -> object:
    status, length = HEADER.unpack(from_worker.read(HEADER.size))
    assert status == b"R"
    return pickle.loads(from_worker.read(length))


def _ask(to_worker: BinaryIO, from_worker: BinaryIO, what: str) -> object:
    _send(to_worker, what)
    return _answer(from_worker)


def test_a_worker_runs_its_preparations_while_no_request_comes() -> None:
    _happened.clear()
    done = threading.Event()

    def last_step() -> None:
        _happened.append("step 2")
        done.set()

    steps = [lambda: _happened.append("step 1"), last_step]
    with _serving(steps):
        assert done.wait(WAIT_S)
    assert _happened == ["step 1", "step 2"]


def test_a_request_that_comes_during_a_step_is_answered_before_the_next_step() -> None:
    _happened.clear()
    step_running, step_may_end = threading.Event(), threading.Event()

    def first_step() -> None:
        step_running.set()
        step_may_end.wait(WAIT_S)
        _happened.append("step 1")

    with _serving([first_step, lambda: _happened.append("step 2")]) as (to_worker, from_worker):
        assert step_running.wait(WAIT_S)
        _send(to_worker, "call")  # in the pipe before the step ends
        step_may_end.set()
        assert _answer(from_worker) == "call"
    assert _happened[:2] == ["step 1", "call"]


def test_a_step_that_raises_leaves_the_worker_answering() -> None:
    _happened.clear()

    def broken_step() -> None:
        raise ValueError("a query that does not compile")

    with _serving([broken_step]) as (to_worker, from_worker):
        assert _ask(to_worker, from_worker, "call") == "call"
    assert _happened == ["call"]
