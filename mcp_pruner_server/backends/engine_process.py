"""The heuristic engine in worker processes, so pruning never holds the server's GIL.

Threads were measured first: with the engine in worker threads, `/healthz` answered in 1 ms
at the median but 50-350 ms at p99 while 20 large prunes ran, on a loaded 2-core machine.
Every step of answering a request (epoll, recv, send) must take the GIL back, and whenever
the OS preempts an engine thread that holds it, the event loop waits for that thread to be
scheduled again. Worker processes (`anyio.to_process`) have their own GIL: the event loop
only ever waits for the CPU.

The workers are started lazily (the first prune pays ~0.2 s), reused, limited to
`ENGINE_PROCESSES`, and exit when their stdin closes, i.e. with the server. If a worker
cannot be started or dies, the prune runs on the thread backend instead, unchanged, and so do
the prunes of the next `RETRY_COOLDOWN_S` seconds; then processes are tried again. The
cooldown doubles with each consecutive failure (up to `MAX_RETRY_COOLDOWN_S`) and a
successful process prune resets it: one crash does not cost the processes for good, and a
machine that cannot spawn them does not pay a failed spawn per prune.
"""

from __future__ import annotations

import contextlib
import gc
import os
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import anyio
import anyio.to_process
import anyio.to_thread
from anyio import BrokenWorkerProcess

from mcp_pruner_server.backends.heuristic import HeuristicBackend, prune_locally
from mcp_pruner_server.logs import log_event
from mcp_pruner_server.pruning.render import noop_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from tools_exec.capture import CapturedSource

# Leave one core to the event loop (and the agent): more engine processes than that only
# make /healthz wait for the CPU. Capped at 4: an agent rarely prunes more at once.
ENGINE_PROCESSES = max(1, min(4, (os.cpu_count() or 2) - 1))
# After a failed spawn or a dead worker: threads for this long, then processes again. Long
# enough that a machine out of processes is not asked again at every prune.
RETRY_COOLDOWN_S = 30.0
# Consecutive failures double the cooldown up to this: a persistent failure costs one failed
# spawn per 10 minutes.
MAX_RETRY_COOLDOWN_S = 600.0


class ProcessHeuristicBackend:
    """The `heuristic` backend, run by `anyio.to_process`; same results, another GIL."""

    name = "heuristic"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._threads = HeuristicBackend()
        self._limiter = anyio.CapacityLimiter(ENGINE_PROCESSES)
        self._clock = clock
        self._failures = 0  # consecutive
        self._threads_until = float("-inf")

    @property
    def uses_processes(self) -> bool:
        """False during the cooldown that follows a failed worker (the thread backend prunes)."""
        return self._clock() >= self._threads_until

    @property
    def failures(self) -> int:
        """Consecutive worker failures since the last successful process prune."""
        return self._failures

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Prune in a worker process; the thread backend while processes are cooling down."""
        if self.uses_processes:
            result = await self._in_worker(prune_locally, text, goal_hint, source_type, options, prune_id)
            if result is not None:
                return result
        return await self._threads.prune(text, goal_hint, source_type, options, prune_id)

    async def _in_worker(self, call: Callable[..., PruneResult], *args: object) -> PruneResult | None:
        """`call(*args)` in a worker process; None when the worker broke (then threads for a while)."""
        try:
            result: PruneResult = await anyio.to_process.run_sync(
                in_worker, call, *args, cancellable=True, limiter=self._limiter
            )
        except (BrokenWorkerProcess, OSError) as exc:
            self._worker_failed(exc)
            return None
        self._failures = 0
        return result

    def _worker_failed(self, exc: BaseException) -> None:
        """Not a pruning failure: the engine itself is fine. Threads for a while."""
        self._failures += 1
        cooldown = min(MAX_RETRY_COOLDOWN_S, RETRY_COOLDOWN_S * 2 ** (self._failures - 1))
        self._threads_until = self._clock() + cooldown
        log_event(
            "pruner.process_unavailable",
            level="warning",
            error=f"{type(exc).__name__}: {exc}",
            failures=self._failures,
            retry_in_s=cooldown,
        )

    async def prune_captured(
        self,
        source: CapturedSource,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
    ) -> PruneResult:
        """Prune a tool's capture that the worker reads itself (its spool by path): the server
        never holds the whole text, nor pickles it. Threads while processes are cooling down."""
        if self.uses_processes:
            result = await self._in_worker(prune_source, source, goal_hint, source_type, options, prune_id)
            if result is not None:
                return result
        return await anyio.to_thread.run_sync(
            prune_source, source, goal_hint, source_type, options, prune_id, abandon_on_cancel=True
        )


def prune_source(
    source: CapturedSource, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
) -> PruneResult:
    """Read a capture and prune it (runs in a worker process or thread). An unreadable spool is
    the `internal_error` no-op; a bug in the engine raises (`PrunerService` logs it)."""
    try:
        text = source.read().text
    except OSError:
        return noop_result("", prune_id, ["internal_error"], backend="heuristic", elapsed_ms=0.0)
    result = prune_locally(text, goal_hint, source_type, options, prune_id)
    if not result.stats.pruned_lines:
        # nothing pruned: the caller returns what the tool cut, never this text; sending the whole
        # capture back would cost the server the very copy (and pickle) reading it here avoids
        return replace(result, pruned_text="")
    return result


# Niceness added to an engine worker: when the 2 cores are busy, the event loop (`/healthz`, the
# pipes of running commands) is scheduled before a long prune, which only finishes a bit later.
WORKER_NICENESS = 10
# A worker's cyclic garbage collector: a prune allocates millions of short-lived objects (terms,
# hits, blocks) that reference counting frees, yet every 700 allocations Python's default looks
# for cycles, and each look at the oldest generation walks the whole heap, grammars and modules
# included. Those are frozen after the first call's imports (never collected: they live as long
# as the worker), and the youngest generation is collected every 10,000 allocations. Measured
# with `benchmarks/clock_gaps.py` (CPU of a prune; its longest stretch without a look at the
# deadline): a grep listing of 100k hits 4.2 -> 3.3 s, 197 -> 91 ms; a 15 MB log 3.7 -> 3.4 s,
# 114 -> 41 ms; a 1.9 MB bundle 2.0 -> 1.7 s. Nothing is leaked: cycles are still collected.
WORKER_GC_THRESHOLD = 10_000
_prepared = False
T = TypeVar("T")


def in_worker(call: Callable[..., T], *args: object) -> T:
    """`call(*args)` in an engine worker process, which it prepares on its first call (a lower
    priority, its garbage collector set for the engine's allocations).

    An exception goes back to the server pickled, without its traceback: the worker's is added
    to it as a note, which the server's log of it prints.
    """
    global _prepared  # one per worker process
    if not _prepared:
        _prepared = True
        # The engine's modules (imported where it runs: `heuristic.prune_locally`) go into the
        # heap frozen below.
        import mcp_pruner_server.pruning.engine  # noqa: F401

        with contextlib.suppress(OSError):
            os.nice(WORKER_NICENESS)
        gc.collect()
        gc.freeze()
        gc.set_threshold(WORKER_GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        return call(*args)
    except Exception as exc:
        exc.add_note("in the engine worker process:\n" + traceback.format_exc().rstrip())
        raise
