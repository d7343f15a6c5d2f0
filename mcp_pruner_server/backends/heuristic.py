"""The default backend: the local heuristic engine, run in a worker thread.

The engine is pure CPU work; running it on the event loop would stall `/healthz` and every
other request while a 5,000-line text is scored. A timeout or a decline is a no-op result with
a warning; a bug in the engine raises, its traceback intact, for `PrunerService` to log once.
The engine bounds itself with `options.timeout_ms`.

The engine is imported where it runs (`engine_worker.prune_text`), on the first prune: a server imports
it only if it prunes in threads, its worker processes always (issue 28: start-up).
"""

from __future__ import annotations

import anyio.to_thread

from mcp_pruner_server.engine_worker import prune_text
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult, SourceType


class HeuristicBackend:
    """The pure engine of `mcp_pruner_server.pruning`, off the event loop."""

    name = "heuristic"

    async def prune(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions, prune_id: str
    ) -> PruneResult:
        """Prune with the local engine in a thread (a bug in it raises: see the module doc)."""
        # A cancelled caller stops waiting at once; the engine's own cooperative timeout
        # ends the abandoned thread soon after.
        return await anyio.to_thread.run_sync(
            prune_text, text, goal_hint, source_type, options, prune_id, abandon_on_cancel=True
        )
