"""The one interface every pruning backend implements (docs/tools.md#pruning-backends).

A backend turns (text, goal, source type, options, prune_id) into a `PruneResult` whose
`prune_id` is the one it was given. It may raise only `BackendError` subclasses
(`mcp_pruner_server.errors`): the service catches them and falls back to the heuristic
engine with `used_fallback=true` and the error's warning codes. It never stores the text:
the service has done that before calling it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType
from tools_exec.capture import CapturedSource


class Backend(Protocol):
    """A pruning backend: `heuristic` (threads or processes), `http` or `deepinfra`."""

    @property
    def name(self) -> str:
        """The name reported in `stats.backend` and `health`."""
        ...

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Prune `text` for `goal_hint`.

        Raises:
            BackendError: any failure; the caller falls back (docs/tools.md#fail-open).
        """
        ...


@runtime_checkable
class CaptureReader(Protocol):
    """A backend that prunes a tool's capture by reading its spool itself (the engine's worker
    processes): the server never holds a capture too big to keep for recovery."""

    async def prune_captured(
        self,
        source: CapturedSource,
        goal_hint: str,
        source_type: SourceType,
        options: PruneOptions,
        prune_id: str,
    ) -> PruneResult:
        """Read `source` and prune it; a bug in the engine raises (the service logs it)."""
        ...
