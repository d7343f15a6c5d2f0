"""`prune_text`, `recover_text` (+ `recover_range`) and `health`: the engine and its recovery
store as tools (docs/tools.md#prune_text, #recover_text, #health). Their answer is the result:
the pipeline never prunes it again."""

from __future__ import annotations

import anyio.to_thread

from mcp_pruner_server.errors import PruneIdNotFoundError
from mcp_pruner_server.offload import OFF_LOOP_BYTES
from mcp_pruner_server.pipeline.outcome import JsonObject, ToolContext
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.recovery import recover_work
from mcp_pruner_server.tools.arguments import PruneTextArgs, RecoverArgs


async def run_prune_text(context: ToolContext, args: PruneTextArgs) -> JsonObject:
    """The `prune_text` result object (docs/tools.md#prune_text-result); fail-open: never raises."""
    result = await context.service.prune_text(args.text, args.goal_hint, args.source_type, args.options)
    return result.to_dict()


async def run_recover(context: ToolContext, args: RecoverArgs) -> JsonObject:
    """The `recover_text` result (docs/tools.md#recover_text).

    Numbering 300k recovered lines is ~165 ms of CPU: off the event loop when the work (the
    stored text times the ranges, each may span it all) is big.

    Raises:
        PruneIdNotFoundError: -32004, unknown or expired id.
        InvalidRangeError: -32005, malformed ranges.
    """
    work = recover_work(_stored_chars(context.service, args.prune_id), args.ranges)
    if work <= OFF_LOOP_BYTES:
        return _recover(context.service, args)
    return await anyio.to_thread.run_sync(_recover, context.service, args)


def _recover(service: PrunerService, args: RecoverArgs) -> JsonObject:
    return service.recover(args.prune_id, args.ranges, args.include_line_numbers).to_dict()


def _stored_chars(service: PrunerService, prune_id: str) -> int:
    """Length of the text stored under `prune_id`; 0 when unknown (the recover raises inline)."""
    try:
        return len(service.store.get(prune_id))  # the stored str itself: no copy
    except PruneIdNotFoundError:
        return 0


async def run_health(context: ToolContext, _args: None) -> JsonObject:
    """The `health` result (docs/tools.md#health)."""
    return context.service.health()
