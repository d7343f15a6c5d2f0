"""`prune_text`, `recover_text` (+ `recover_range`) and `health`: the engine, exactly as seed 000 shows.

Also the adapter that lets the read/bash/grep pipeline use `PrunerService` as a `ToolPruner`.
"""

from __future__ import annotations

from mcp_pruner_server.pruner_service import PruneOutcome, PrunerService
from mcp_pruner_server.pruning.types import PruneOptions, SourceType
from mcp_pruner_server.pruning_config import PruningConfig
from mcp_pruner_server.tools.arguments import PruneTextArgs, RecoverArgs
from mcp_pruner_server.tools.outcome import JsonObject
from mcp_pruner_server.tools.output_pruning import PruneAttempt
from tools_exec.capture import CapturedSource

# A capture over the raw cap is its head (at least max_output_bytes, <= 10 MiB), a marker line
# and its last MiB: at most this much over the cap.
RAW_MARKER_SLACK_BYTES = 12 << 20


class ServicePruner:
    """`PrunerService` seen from the tool pipeline (`ToolPruner`)."""

    def __init__(self, service: PrunerService, config: PruningConfig) -> None:
        self._service = service
        self._config = config

    @property
    def raw_cap_bytes(self) -> int:
        return self._config.tool_raw_cap_bytes

    @property
    def budget(self) -> tuple[int, int]:
        return self._config.tool_budget_lines, self._config.tool_budget_tokens

    @property
    def timeout_ms(self) -> int:
        return self._config.timeout_ms

    async def prune_for_tool(
        self, text: str, goal_hint: str, source_type: SourceType, options: PruneOptions
    ) -> PruneAttempt:
        # a tool output is capped at capture (the raw cap), not by `prune_text`'s input caps
        max_bytes = self._config.tool_raw_cap_bytes + RAW_MARKER_SLACK_BYTES
        outcome = await self._service.prune(text, goal_hint, source_type, options, max_input_bytes=max_bytes)
        return _attempt(outcome)

    async def prune_captured_for_tool(
        self, source: CapturedSource, goal_hint: str, source_type: SourceType, options: PruneOptions
    ) -> PruneAttempt:
        max_bytes = self._config.tool_raw_cap_bytes + RAW_MARKER_SLACK_BYTES
        outcome = await self._service.prune_captured(
            source, goal_hint, source_type, options, max_input_bytes=max_bytes
        )
        return _attempt(outcome)


def _attempt(outcome: PruneOutcome) -> PruneAttempt:
    result = outcome.result
    # The selected backend failed AND nothing replaced it: the raw text came back.
    failed = outcome.error_code is not None and result.stats.pruned_lines == 0
    return PruneAttempt(
        result=result,
        failed=failed,
        backend=outcome.backend,
        applied=outcome.applied,
        error_code=outcome.error_code,
        error_message=outcome.error_message,
    )


async def run_prune_text(service: PrunerService, args: PruneTextArgs) -> JsonObject:
    """seed 000 §4.1: the `prune_text` result object (fail-open: never raises)."""
    result = await service.prune_text(args.text, args.goal_hint, args.source_type, args.options)
    return result.to_dict()


def run_recover(service: PrunerService, args: RecoverArgs) -> JsonObject:
    """seed 000 §4.2.

    Raises:
        PruneIdNotFoundError: -32004, unknown or expired id.
        InvalidRangeError: -32005, malformed ranges.
    """
    return service.recover(args.prune_id, args.ranges, args.include_line_numbers).to_dict()
