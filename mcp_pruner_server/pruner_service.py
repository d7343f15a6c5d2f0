"""The fail-open pruning service: id, recovery, backend, fallback (docs/tools.md#fail-open).

`PrunerService.prune(...)` is what the server's tools call; it NEVER raises and always
returns a `PruneOutcome`:

- `result`: the `PruneResult` to show (docs/tools.md#prune_text-result via `result.to_dict()`).
- `backend`: the backend that produced `result` (`heuristic` after a fallback).
- `fallback`: True when the selected backend failed, or nothing could be pruned
  (`result.stats.used_fallback`).
- `error_code`: `timeout | http_error | invalid_response` when the SELECTED backend failed
  (→ `PruningMetadata.error.code`, `reason=pruner_error`), `internal_error` when the service
  itself hit a bug; also `timeout` / `internal_error` when the local engine gave up (its
  no-op carries that warning: it ran out of `timeout_ms` or hit a bug). None otherwise,
  including when the engine declined to prune (no-op with a warning such as
  `constraints_unmet`, `input_too_large`).
- `error_message`: a human sentence for `PruningMetadata.error.message`.
- `recoverable`: the original text is in the recovery store under `result.prune_id`.

Steps: a fresh `prune_id` (`prn_` + time-sortable random id); the ORIGINAL text is stored
first, always — a no-op's prune_id must recover too; past `MCP_PRUNER_MAX_INPUT_CHARS`
characters (tool outputs are held to `JEEVES_MCP_PRUNER_MAX_PRUNE_INPUT_BYTES` before they
get here) → no-op `input_too_large`; then the selected backend; any `BackendError` → the
heuristic engine's result with `used_fallback=true`, the error's warning codes first (e.g.
`deepinfra_error`, `deepinfra_http_error`) and its stats (`deepinfra_http_status`,
`fallback_from`); any other exception → no-op `internal_error`.
A text too large for the recovery store adds the `recovery_unavailable` warning.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import anyio
import anyio.to_thread

from mcp_pruner_server import SERVER_NAME, __version__
from mcp_pruner_server.backends import (
    Backend,
    HeuristicBackend,
    ProcessHeuristicBackend,
    create_backend,
    is_remote,
)
from mcp_pruner_server.backends.base import CaptureReader
from mcp_pruner_server.backends.engine_workers import WorkerUnavailable
from mcp_pruner_server.errors import BackendError
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.pruning.render import noop_result
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveredText, RecoveryStore, new_prune_id
from tools_exec.capture import CapturedSource

if TYPE_CHECKING:
    import httpx

PrunerErrorCode = Literal["timeout", "http_error", "invalid_response", "internal_error"]

CAPABILITIES = ("prune_text", "recover_text", "annotations", "markers")
# A tool capture up to this size is read back into the server and stored for recovery (the
# store holds 64 MiB in all); a larger one is read by the engine's worker from its spool.
RECOVERABLE_CAPTURE_BYTES = 16 << 20
# Captures read back into the server at once: each costs its size, twice while it is decoded.
READ_BACK_SLOTS = 2
# Remote pruners are few; a handful of pooled keep-alive connections serves 20 concurrent prunes.
MAX_CONNECTIONS = 20
MAX_KEEPALIVE_CONNECTIONS = 10
# `warm()`'s made-up read: enough code for the engine's whole path (parse, score, select, render).
WARM_UP_PATH = "warm_up.py"
WARM_UP_QUESTION = "Where is the total computed?"
WARM_UP_TEXT = (
    "\n".join(f"def step_{n}(value):\n    return value + {n}\n" for n in range(20))
    + "\ndef total(values):\n    return sum(values)\n"
)


def _pooled_client(config: PruningConfig) -> httpx.AsyncClient:
    import httpx

    return httpx.AsyncClient(
        limits=httpx.Limits(
            max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_KEEPALIVE_CONNECTIONS
        ),
        # The backends bound every call with anyio.fail_after; these are only a floor.
        timeout=httpx.Timeout(max(config.timeout_ms, config.deepinfra_timeout_ms) / 1000.0),
    )


@dataclass(frozen=True)
class PruneOutcome:
    """What one `prune` call produced, and whether the selected backend failed (see module doc)."""

    result: PruneResult
    backend: str
    fallback: bool
    error_code: PrunerErrorCode | None = None
    error_message: str | None = None
    recoverable: bool = True

    @property
    def applied(self) -> bool:
        """Some line was pruned."""
        return self.result.stats.pruned_lines > 0


class PrunerService:
    """Prunes fail-open through the configured backend and keeps every original recoverable."""

    def __init__(
        self,
        config: PruningConfig,
        store: RecoveryStore,
        backend: Backend | None = None,
        *,
        client: httpx.AsyncClient | None = None,
        clock: Callable[[], float] = time.monotonic,
        engine_processes: bool = False,
    ) -> None:
        """`backend` overrides the one `config.backend` names (tests, embedding);
        `engine_processes` runs the heuristic engine in worker processes (`create_backend`).

        The pooled `httpx.AsyncClient` of a remote backend is created here unless given;
        `aclose()` closes the one created here.
        """
        self._config = config
        self._store = store
        self._clock = clock
        # Only a remote backend needs the pooled client: httpx is not even imported otherwise.
        self._owns_client = client is None and backend is None and is_remote(config)
        self._client = _pooled_client(config) if self._owns_client else client
        self._read_back = anyio.CapacityLimiter(READ_BACK_SLOTS)
        self._backend = backend or create_backend(config, self._client, engine_processes=engine_processes)
        # The fallback after a remote backend's failure: in the engine's worker processes too when
        # the server has them (never a prune in a thread of the server: it holds the GIL).
        self._heuristic: Backend
        if isinstance(self._backend, ProcessHeuristicBackend):
            self._heuristic = self._backend
        else:
            self._heuristic = ProcessHeuristicBackend() if engine_processes else HeuristicBackend()
        self._started_at = datetime.now(UTC)

    @property
    def config(self) -> PruningConfig:
        return self._config

    @property
    def backend_name(self) -> str:
        return self._backend.name

    @property
    def store(self) -> RecoveryStore:
        return self._store

    async def prune(
        self,
        text: str,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        *,
        store_unapplied: bool = True,
        max_input_bytes: int | None = None,
    ) -> PruneOutcome:
        """Prune `text` for `goal_hint`; never raises (docs/tools.md#fail-open).

        `store_unapplied=False` stores the original only when some line was pruned (its
        markers must recover): for a caller that keeps an unpruned text recoverable its own
        way (the gateway masks it), so the store does not hold it twice. An unpruned
        outcome is then `recoverable=False`, without the `recovery_unavailable` warning.
        `max_input_bytes` replaces the configured character limit (tool output has its raw cap).
        """
        started = self._clock()
        prune_id = new_prune_id()
        recoverable = self._store.put(prune_id, text) if store_unapplied else True
        try:
            outcome = await self._prune(
                text, goal_hint, source_type, options, prune_id, started, max_input_bytes
            )
        except Exception as exc:  # the fail-open boundary: a bug costs pruning, never the output
            log_exception("pruner.internal_error", prune_id=prune_id)
            result = noop_result(
                text,
                prune_id,
                ["internal_error"],
                backend=self._backend.name,
                elapsed_ms=self._elapsed(started),
            )
            outcome = PruneOutcome(
                result, self._backend.name, True, "internal_error", f"{type(exc).__name__}: {exc}"
            )
        if not store_unapplied:
            if not outcome.applied:
                return replace(outcome, recoverable=False)
            recoverable = self._store.put(prune_id, text)
        if not recoverable:
            result = outcome.result
            outcome = replace(
                outcome,
                result=replace(result, warnings=(*result.warnings, "recovery_unavailable")),
                recoverable=False,
            )
        return outcome

    async def prune_captured(
        self,
        source: CapturedSource,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        *,
        max_input_bytes: int,
    ) -> PruneOutcome:
        """`prune` for a tool's capture; never raises.

        Up to `RECOVERABLE_CAPTURE_BYTES` (or without an engine that reads captures itself) the
        text is read here, at most `READ_BACK_SLOTS` at once, and pruned as any text, recoverable.
        A larger capture is read by the engine's worker from its spool: the server never holds it
        (a 64 MiB output would cost 3x that here), and its prune_id does not recover
        (`recovery_unavailable`).
        """
        backend = self._backend
        if source.total_bytes <= RECOVERABLE_CAPTURE_BYTES or not isinstance(backend, CaptureReader):
            async with self._read_back:
                text = await anyio.to_thread.run_sync(_read_capture, source)
            return await self.prune(text, goal_hint, source_type, options, max_input_bytes=max_input_bytes)
        started = self._clock()
        prune_id = new_prune_id()
        try:
            result = await backend.prune_captured(source, goal_hint, source_type, options, prune_id)
        except Exception as exc:  # the fail-open boundary, as in `prune`
            log_exception("pruner.internal_error", prune_id=prune_id)
            result = noop_result("", prune_id, ["internal_error"], backend=self._backend.name, elapsed_ms=0.0)
            return PruneOutcome(
                result, self._backend.name, True, "internal_error", f"{type(exc).__name__}: {exc}"
            )
        result = replace(result, warnings=(*result.warnings, "recovery_unavailable"))
        result = replace(result, stats=replace(result.stats, elapsed_ms=round(self._elapsed(started), 3)))
        failure = _engine_failure(result, options)
        if failure is not None:
            return PruneOutcome(result, self._backend.name, True, *failure, recoverable=False)
        return PruneOutcome(result, self._backend.name, result.stats.used_fallback, recoverable=False)

    async def prune_text(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions
    ) -> PruneResult:
        """The `prune_text` tool: `prune(...)`'s result alone."""
        return (await self.prune(text, goal_hint, source_type, options)).result

    def recover(
        self, prune_id: str, ranges: Sequence[tuple[int, int]], include_line_numbers: bool
    ) -> RecoveredText:
        """The `recover_text` tool.

        Raises:
            PruneIdNotFoundError: unknown, expired or evicted id (-32004).
            InvalidRangeError: malformed or out-of-text ranges (-32005).
        """
        return self._store.recover(prune_id, ranges, include_line_numbers)

    def health(self) -> dict[str, object]:
        """The `health` tool (docs/tools.md#health): the backend and the recovery store's occupancy."""
        stats = self._store.stats()
        return {
            "status": "healthy",
            "server": SERVER_NAME,
            "version": __version__,
            "capabilities": list(CAPABILITIES),
            "timestamp": datetime.now(UTC).astimezone().isoformat(timespec="seconds"),
            "backend": self._backend.name,
            "recovery": {
                "entries": stats.entries,
                "bytes": stats.bytes,
                "ttl_s": self._config.prune_id_ttl_s,
            },
        }

    async def warm(self) -> float | None:
        """Start the engine's worker processes and run the local engine once on a small made-up
        text, so the first tool call pays for neither; returns how long that took in ms (None for
        a remote backend, which is not called). Nothing is stored; a failure is only logged.
        """
        started = time.perf_counter()
        try:
            for backend in {id(b): b for b in (self._backend, self._heuristic)}.values():
                if isinstance(backend, ProcessHeuristicBackend):
                    await backend.warm()
            if self._backend.name != HeuristicBackend.name:
                return None
            options = PruneOptions(path=WARM_UP_PATH)
            await self._backend.prune(WARM_UP_TEXT, WARM_UP_QUESTION, "code", options, "prn_warm_up")
        except Exception:  # the first real call then pays, and logs, whatever this was
            log_exception("pruner.warm_up_failed")
        return round((time.perf_counter() - started) * 1000, 1)

    async def until_engine_started(self) -> None:
        """Wait for the local engine's worker still starting, if the selected backend is it (until
        `WORKER_START_ALLOWANCE_S` after its spawn; at once once started), so that a caller's own
        clock (the tool step's budget, shared by stdout and stderr) counts the pruning, not the
        start. A start that fails is only logged: the prune that follows answers fail-open."""
        if isinstance(self._backend, ProcessHeuristicBackend):
            try:
                await self._backend.until_started()
            except WorkerUnavailable as exc:
                log_event("pruner.worker_start_failed", level="warning", error=f"{type(exc).__name__}: {exc}")

    async def aclose(self) -> None:
        """Close the pooled HTTP client if this service created it, and the engine's workers."""
        if self._owns_client and self._client is not None:
            await self._client.aclose()
        for backend in {id(b): b for b in (self._backend, self._heuristic)}.values():
            if isinstance(backend, ProcessHeuristicBackend):
                await backend.aclose()

    # -- internals ---------------------------------------------------------------------

    async def _prune(
        self,
        text: str,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
        started: float,
        max_input_bytes: int | None = None,
    ) -> PruneOutcome:
        if self._too_large(text, max_input_bytes):
            result = noop_result(
                text,
                prune_id,
                ["input_too_large"],
                backend=self._backend.name,
                elapsed_ms=self._elapsed(started),
            )
            return PruneOutcome(result, self._backend.name, True)
        try:
            result = await self._backend.prune(text, goal_hint, source_type, options, prune_id)
        except BackendError as exc:
            log_event(
                "pruner.backend_fallback",
                level="warning",
                prune_id=prune_id,
                backend=self._backend.name,
                error_code=exc.error_code,
                message=str(exc),
            )
            fallback = await self._heuristic.prune(text, goal_hint, source_type, options, prune_id)
            stats = replace(
                fallback.stats,
                used_fallback=True,
                elapsed_ms=round(self._elapsed(started), 3),
                extra={**fallback.stats.extra, **exc.stats, "fallback_from": self._backend.name},
            )
            result = replace(fallback, stats=stats, warnings=(*exc.warnings, *fallback.warnings))
            return PruneOutcome(result, self._heuristic.name, True, exc.error_code, str(exc))
        failure = _engine_failure(result, options)
        if failure is not None:
            return PruneOutcome(result, self._backend.name, True, *failure)
        return PruneOutcome(result, self._backend.name, result.stats.used_fallback)

    def _too_large(self, text: str, max_input_chars: int | None = None) -> bool:
        # One limit, in characters, as documented: a byte limit here as well made 157,500 CJK
        # characters (472 KB) `input_too_large` under a 262,144-character limit. Tool outputs
        # have their own limit, the raw cap (bytes bound characters), passed by `pipeline/prune_step.py`.
        limit = self._config.max_input_chars if max_input_chars is None else max_input_chars
        return len(text) > limit

    def _elapsed(self, started: float) -> float:
        return (self._clock() - started) * 1000.0


def _read_capture(source: CapturedSource) -> str:
    return source.read().text


def _engine_failure(result: PruneResult, options: PruneOptions) -> tuple[PrunerErrorCode, str] | None:
    """The error a no-op result stands for, when the engine failed rather than declined.

    The engine never raises: a timeout or a bug comes back as the unchanged text with a
    `timeout` / `internal_error` warning, which is a pruner failure for the contract.
    """
    if result.stats.pruned_lines > 0:
        return None
    if "timeout" in result.warnings:
        return "timeout", f"the pruning engine exceeded its {options.timeout_ms} ms budget"
    if "internal_error" in result.warnings:
        return "internal_error", "the pruning engine failed internally"
    return None
