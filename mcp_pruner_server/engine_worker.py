"""An engine worker process's side: its `main()`, which `backends/engine_workers.py` starts, and
the calls the server sends it.

Outside `backends/` on purpose: that package imports every backend (httpx among them), and a worker
that imported it took 2.2 s to start on a busy host instead of ~1 s; a worker imports only the
engine and the capture reader.

It lowers its priority, imports the engine, freezes that startup heap, says `READY`, then answers
framed, pickled `(function, args)` requests from its stdin one at a time until the stdin closes
(the server closed its pool, or died). The server's side is `engine_workers.py`.

Once no request has come for `QUIET_BEFORE_STEP_S`, it runs the engine's preparations
(`engine.preparations`: each language's grammar loaded, its definitions query compiled), one step
at a time, so a language's first prune does not pay them (up to 73 ms, F#'s query): not before
`READY`, which the server's start and its first prune wait for, nor during the server's start-up.
A request that comes during a step waits for that step only.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import struct
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import BinaryIO, TypeVar

from mcp_pruner_server.pruning.render import noop_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from tools_exec.capture import CapturedSource

T = TypeVar("T")

READY = b"READY\n"
# A frame: a status (b"C" call, b"R" return, b"E" exception) and the pickle's length, then the pickle.
HEADER = struct.Struct("!cQ")
# Niceness added to an engine worker: when the 2 cores are busy, the event loop (`/healthz`, the
# pipes of running commands) is scheduled before a long prune, which only finishes a bit later.
WORKER_NICENESS = 10
# A worker's cyclic garbage collector: a prune allocates millions of short-lived objects (terms,
# hits, blocks) that reference counting frees, yet every 700 allocations Python's default looks
# for cycles, and each look at the oldest generation walks the whole heap, grammars and modules
# included. Those are frozen after the worker's imports (never collected: they live as long as
# the worker), and the youngest generation is collected every 10,000 allocations. Measured with
# `benchmarks/clock_gaps.py` (CPU of a prune; its longest stretch without a look at the deadline):
# a grep listing of 100k hits 4.2 -> 3.3 s, 197 -> 91 ms; a 15 MB log 3.7 -> 3.4 s, 114 -> 41 ms;
# a 1.9 MB bundle 2.0 -> 1.7 s. Nothing is leaked: cycles are still collected.
WORKER_GC_THRESHOLD = 10_000
# How long no request must come, after `READY` or an answer, before the worker runs its first
# preparation step (the next ones follow at once): longer than the server's start-up, so the steps
# take no CPU from it. Over HTTP the first read waits for the SDK's load, ~1.1 s after the spawn at
# rest, 2.6-3.6 s at load 5-33 (stdio's first read 0.8 s, 1.6-2.4 s): with 0.1 s here the workers
# prepared during that load (HTTP's first read 2.6 -> 3.2 s at load 16-33), with 1 s still under
# load (2.7 -> 3.1 s at load 5-12). The preparations only wait: an agent's turns take seconds.
QUIET_BEFORE_STEP_S = 2.0


def in_worker(call: Callable[..., T], *args: object) -> T:
    """`call(*args)`; an exception gets the worker's traceback as a note (pickling drops it)."""
    try:
        return call(*args)
    except Exception as exc:
        exc.add_note("in the engine worker process:\n" + traceback.format_exc().rstrip())
        raise


def prepare() -> list[Callable[[], None]]:
    """The engine imported, then a lower priority (the imports at it took 8 s on a busy host, a
    call waiting for them), the startup heap frozen (see the constants); returns the engine's
    preparations, for `serve` to run while idle."""
    from mcp_pruner_server.pruning.engine import preparations

    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    gc.collect()
    gc.freeze()
    gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])
    return preparations()


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if len(data) == size else None


def _request_within(requests: BinaryIO, timeout_s: float) -> bool:
    """Whether `requests` has something to read (or its end) within `timeout_s`. Only its file
    descriptor is looked at: the server sends a request only once the last one is answered, so
    nothing of the next waits in `requests`' buffer."""
    readable, _, _ = select.select([requests], [], [], timeout_s)
    return bool(readable)


def serve(
    requests: BinaryIO,
    answers: BinaryIO,
    steps: Sequence[Callable[[], None]] = (),
    *,
    quiet_before_step_s: float = QUIET_BEFORE_STEP_S,
) -> None:
    """Answer requests until `requests` ends (the worker's main loop), running `steps` one by one
    while none waits: the first once none came for `quiet_before_step_s` after `READY` or after an
    answer, the next ones at once."""
    answers.write(READY)
    answers.flush()
    pending = list(reversed(steps))
    quiet_s = quiet_before_step_s
    while True:
        if pending and not _request_within(requests, quiet_s):
            step = pending.pop()
            # A step that fails (a query that does not compile) raises again at that language's
            # first parse, where the call's answer says so; here it must not end the worker.
            with contextlib.suppress(Exception):
                step()
            quiet_s = 0.0
            continue
        quiet_s = quiet_before_step_s
        header = _read_exactly(requests, HEADER.size)
        if header is None:
            return
        _status, length = HEADER.unpack(header)
        payload = _read_exactly(requests, length)
        if payload is None:
            return
        call, args = pickle.loads(payload)
        try:
            status, value = b"R", in_worker(call, *args)
        except Exception as exc:
            status, value = b"E", exc
        try:
            answer = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable answer: said, rather than a dead worker
            status, answer = b"E", pickle.dumps(RuntimeError(f"unpicklable engine answer: {exc!r}"))
        answers.write(HEADER.pack(status, len(answer)) + answer)
        answers.flush()


def main() -> None:
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers
    serve(requests, answers, prepare())


def within(options: PruneOptions, deadline_at: float | None) -> PruneOptions:
    """`options` with `timeout_ms` cut to what remains until `deadline_at` (a `time.monotonic()`
    reading: one clock for every process of the host), none left: 0 (the engine's first look at
    its clock gives up). The server counts the budget from the call, this worker's wait and its
    read of a capture included."""
    if deadline_at is None:
        return options
    remaining_ms = int((deadline_at - time.monotonic()) * 1000.0)
    return replace(options, timeout_ms=max(0, min(options.timeout_ms, remaining_ms)))


def prune_text(
    text: str,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    deadline_at: float | None = None,
) -> PruneResult:
    """`pruning.engine.prune_or_raise` within what remains until `deadline_at` (`within`),
    imported here so that the server, which only names this function in its requests, never
    imports the engine (`prepare` has, in the worker)."""
    from mcp_pruner_server.pruning.engine import prune_or_raise

    return prune_or_raise(text, goal_hint, source_type, within(options, deadline_at), prune_id)


def prune_source(
    source: CapturedSource,
    goal_hint: str,
    source_type: SourceType,
    options: PruneOptions,
    prune_id: str,
    deadline_at: float | None = None,
) -> PruneResult:
    """Read a capture and prune it (runs in a worker process) within what remains until
    `deadline_at`, the read included. An unreadable spool is the `internal_error` no-op; a bug in
    the engine raises (`PrunerService` logs it)."""
    try:
        text = source.read().text
    except OSError:
        return noop_result("", prune_id, ["internal_error"], backend="heuristic", elapsed_ms=0.0)
    result = prune_text(text, goal_hint, source_type, options, prune_id, deadline_at)
    if not result.stats.pruned_lines:
        # nothing pruned: the caller returns what the tool cut, never this text; sending the whole
        # capture back would cost the server the very copy (and pickle) reading it here avoids
        return replace(result, pruned_text="")
    return result
