"""A `ToolContext` for calling one tool's run function directly, its service closed after."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.recovery import RecoveryStore
from mcp_pruner_server.tools.outcome import ToolContext


@contextlib.asynccontextmanager
async def tool_context(root: Path, *, pruning: bool = False) -> AsyncIterator[ToolContext]:
    """`pruning=False`: the tool keeps only `max_output_bytes`, as with no question."""
    service = PrunerService(PruningConfig(), RecoveryStore(60, 10, 1 << 20))
    try:
        yield ToolContext(root, service, pruning)
    finally:
        await service.aclose()
