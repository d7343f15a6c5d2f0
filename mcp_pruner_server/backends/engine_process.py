"""The heuristic engine in worker processes, so pruning never holds the server's GIL.

Threads were measured first: with the engine in worker threads, `/healthz` answered in 1 ms
at the median but 50-350 ms at p99 while 20 large prunes ran, on a loaded 2-core machine.
Every step of answering a request (epoll, recv, send) must take the GIL back, and whenever
the OS preempts an engine thread that holds it, the event loop waits for that thread to be
scheduled again. Worker processes have their own GIL: the event loop only ever waits for the CPU.

The workers (`engine_workers.py`) are started with the server (`warm`) or at the first prune,
reused, limited to `ENGINE_PROCESSES`, and exit when their stdin closes, i.e. with the server. A
call first waits for a worker that is still starting (up to `WORKER_START_ALLOWANCE_S`: the first
prunes after the server's start came back raw under load, their budget spent on the workers'
imports); then it has one budget, `timeout_ms`, whatever it spends waiting for a free worker
and reading a capture back in the worker: the engine is given what remains of it (its
deadline is a point on the host's monotonic clock, which both processes read) and gives up by
itself between two steps of its loops; a call still waiting for a worker, or a worker still running
(inside one regex search, one C call), `KILL_GRACE_S` past the budget is answered fail-open
(`timeout`), the worker killed and replaced. A worker
that dies under a call (the OOM killer) is replaced too, its call answered fail-open
(`internal_error`). The prune never moves into the server's process: a dead worker once made the
server prune in its threads for 30 s, and one long line then stalled `/healthz` 1.5 s. When no
worker can be started at all, prunes answer fail-open for `RETRY_COOLDOWN_S` (doubling with each
consecutive failure up to `MAX_RETRY_COOLDOWN_S`), then a start is tried again: a machine that
cannot spawn them does not pay a failed spawn per prune.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from mcp_pruner_server.backends.engine_workers import (
    EnginePool,
    WorkerDied,
    WorkerFailed,
    WorkerNotReady,
    WorkerOverran,
    WorkerUnavailable,
)
from mcp_pruner_server.engine_worker import in_worker, prune_source, prune_text
from mcp_pruner_server.logs import log_event
from mcp_pruner_server.pruning.render import noop_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from tools_exec.capture import CapturedSource

# One core is left to the event loop (and the agent), but never fewer than two workers: a prune
# that runs to its hard deadline then does not hold an unrelated small one behind it. Capped at
# 4: an agent rarely prunes more at once. The workers run at a lower priority (`WORKER_NICENESS`).
ENGINE_PROCESSES = max(2, min(4, (os.cpu_count() or 2) - 1))
# Past its `timeout_ms`, how long a call may run before its worker is killed (or, still waiting
# for a worker, is given up): the engine looks at its clock every ~15 ms of work and then builds
# its no-op; a call still running is inside one step that will not look. Killing and reaping the
# worker and starting its replacement took 0.05-0.15 s on a loaded 2-core host: a killed call is
# answered within `timeout_ms` + ~0.4 s.
KILL_GRACE_S = 0.25
# How long a prune waits for a worker still starting (the server's first prunes: its workers
# import the engine, 0.8 s on an idle 2-core host, 2.4 s on a busy one) before its budget
# (`timeout_ms`) starts: the budget counts the pruning, not the start. A start still not done by
# then is charged to the budget, so a prune is answered within this + `timeout_ms` + `KILL_GRACE_S`.
WORKER_START_ALLOWANCE_S = 5.0
# After a worker could not be started: fail-open for this long, then a start is tried again. Long
# enough that a machine out of processes is not asked again at every prune.
RETRY_COOLDOWN_S = 30.0
# Consecutive failures double the cooldown up to this: a persistent failure costs one failed
# spawn per 10 minutes.
MAX_RETRY_COOLDOWN_S = 600.0


class ProcessHeuristicBackend:
    """The `heuristic` backend in killable worker processes; same results, another GIL."""

    name = "heuristic"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._pool = EnginePool(ENGINE_PROCESSES)
        self._clock = clock
        self._failures = 0  # consecutive failed starts
        self._unavailable_until = float("-inf")

    @property
    def uses_processes(self) -> bool:
        """False during the cooldown that follows a failed start (prunes answer fail-open)."""
        return self._clock() >= self._unavailable_until

    @property
    def failures(self) -> int:
        """Consecutive failed worker starts since the last prune a worker answered."""
        return self._failures

    @property
    def pool(self) -> EnginePool:
        return self._pool

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Prune in a worker process; the unchanged text when no worker answered in time."""
        return await self._in_worker(text, options, prune_id, prune_text, text, goal_hint, source_type)

    async def prune_captured(
        self,
        source: CapturedSource,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
    ) -> PruneResult:
        """Prune a tool's capture that the worker reads itself (its spool by path): the server
        never holds the whole text, nor pickles it. A no-op with an empty text when no worker
        answered (the caller returns what the tool cut)."""
        return await self._in_worker("", options, prune_id, prune_source, source, goal_hint, source_type)

    async def warm(self) -> None:
        """Start the workers ahead of the first prune (a failed start: fail-open for a while)."""
        if not self.uses_processes:
            return
        try:
            await self._pool.warm()
        except WorkerUnavailable as exc:
            self._start_failed(exc)

    async def until_started(self) -> None:
        """Wait for a worker still starting when none is ready, until `WORKER_START_ALLOWANCE_S`
        after its spawn (at once otherwise): a prune's budget then starts, and counts the pruning,
        not the start.

        Raises:
            WorkerUnavailable: the worker could not be started.
        """
        if self.uses_processes:
            await self._pool.until_started(WORKER_START_ALLOWANCE_S)

    async def aclose(self) -> None:
        """Stop the idle workers."""
        await self._pool.aclose()

    async def _in_worker(
        self, text: str, options: PruneOptions, prune_id: str, call: Callable[..., PruneResult], *args: object
    ) -> PruneResult:
        """`call(*args, options, prune_id)` in a worker; fail-open (`text` unchanged) when none answered."""
        started = self._clock()
        if not self.uses_processes:
            return self._fail_open(text, prune_id, "internal_error", started)
        try:
            await self.until_started()
        except WorkerUnavailable as exc:
            self._start_failed(exc)
            return self._fail_open(text, prune_id, "internal_error", started)
        budget_s = options.timeout_ms / 1000.0
        deadline_at = time.monotonic() + budget_s  # the worker's engine is given what remains of it
        try:
            result: PruneResult = await self._pool.run(
                budget_s + KILL_GRACE_S, in_worker, call, *args, options, prune_id, deadline_at
            )
        except WorkerOverran as exc:
            log_event("pruner.worker_killed", level="warning", prune_id=prune_id, error=str(exc))
            return self._fail_open(text, prune_id, "timeout", started)
        except WorkerNotReady as exc:
            log_event("pruner.worker_not_ready", level="warning", prune_id=prune_id, error=str(exc))
            return self._fail_open(text, prune_id, "timeout", started)
        except WorkerDied as exc:
            log_event("pruner.worker_died", level="warning", prune_id=prune_id, error=str(exc))
            return self._fail_open(text, prune_id, "internal_error", started)
        except WorkerUnavailable as exc:
            self._start_failed(exc)
            return self._fail_open(text, prune_id, "internal_error", started)
        self._failures = 0
        return result

    def _fail_open(self, text: str, prune_id: str, warning: str, started: float) -> PruneResult:
        elapsed_ms = (self._clock() - started) * 1000.0
        return noop_result(text, prune_id, [warning], backend=self.name, elapsed_ms=elapsed_ms)

    def _start_failed(self, exc: WorkerFailed) -> None:
        """No worker could be started: fail-open for a while, then try again."""
        self._failures += 1
        cooldown = min(MAX_RETRY_COOLDOWN_S, RETRY_COOLDOWN_S * 2 ** (self._failures - 1))
        self._unavailable_until = self._clock() + cooldown
        log_event(
            "pruner.process_unavailable",
            level="warning",
            error=f"{type(exc).__name__}: {exc}",
            failures=self._failures,
            retry_in_s=cooldown,
        )
