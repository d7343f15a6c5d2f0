"""The one interface every pruning backend implements (docs/tools.md#pruning-backends).

A backend turns (text, goal, source type, options, prune_id) into a `PruneResult` whose
`prune_id` is the one it was given. It may raise only `BackendError` subclasses
(`mcp_pruner_server.errors`): the service catches them and falls back to the heuristic
engine with `used_fallback=true` and the error's warning codes. It never stores the text:
the service has done that before calling it.
"""

from __future__ import annotations

from typing import Protocol

from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType


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
