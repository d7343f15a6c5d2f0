"""`prune_text`, `recover_text` (+ `recover_range`) and `health`: the engine and its recovery
store as tools (docs/tools.md#prune_text, #recover_text, #health). Their answer is the result:
the pipeline never prunes it again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import anyio.to_thread

from mcp_pruner_server.errors import InvalidRangeError, PruneIdNotFoundError
from mcp_pruner_server.offload import OFF_LOOP_BYTES
from mcp_pruner_server.pruner_service import PrunerService
from mcp_pruner_server.pruning.types import SOURCE_TYPES, PruneOptions, SourceType
from mcp_pruner_server.recovery import MAX_RECOVER_RANGES, recover_work
from mcp_pruner_server.tools.checker import (
    MISSING,
    FieldChecker,
    argument_object,
)
from mcp_pruner_server.tools.outcome import JsonObject, ToolContext


@dataclass(frozen=True)
class PruneTextArgs:
    text: str
    goal_hint: str
    source_type: SourceType
    options: PruneOptions


@dataclass(frozen=True)
class RecoverArgs:
    prune_id: str
    ranges: tuple[tuple[int, int], ...]
    include_line_numbers: bool


def parse_prune_text(arguments: object) -> PruneTextArgs:
    """Every field, and every option, is required (docs/tools.md#prune-options).

    Raises:
        InvalidParamsError: listing every field that breaks the schema.
    """
    c = FieldChecker(argument_object(arguments), frozenset({"text", "goal_hint", "source_type", "options"}))
    text = c.string("text", required=True)
    goal = c.string("goal_hint", required=True)
    source = c.string("source_type", required=True)
    if source is not None and source not in SOURCE_TYPES:
        c.fail("source_type", f"must be one of {', '.join(SOURCE_TYPES)}")
    options = _parse_options(c)
    c.raise_if_failed()
    assert text is not None
    assert goal is not None
    assert options is not None
    return PruneTextArgs(text, goal, source, options)  # type: ignore[arg-type]  # checked above


def _parse_options(parent: FieldChecker) -> PruneOptions | None:
    raw = parent.args.get("options", MISSING)
    if raw is MISSING or raw is None:
        parent.fail("options", "is required")
        return None
    if not isinstance(raw, Mapping):
        parent.fail("options", "must be an object")
        return None
    c = FieldChecker(raw, frozenset(_OPTION_FIELDS), prefix="options.")
    ratio = c.number("max_prune_ratio", 0.0, 1.0)
    min_keep = c.integer("min_keep_lines", 0, None, None)
    timeout = c.integer("timeout_ms", 1, None, None)
    for name in ("min_keep_lines", "timeout_ms"):
        if raw.get(name) is None:
            c.fail(name, "is required")
    annotate = c.boolean("annotate_lines", None)
    markers = c.boolean("include_markers", None)
    budget = [c.integer(name, 1, None, None) for name in _BUDGET_FIELDS]  # (+) optional
    parent.errors.extend(c.errors)
    if c.errors:
        return None
    assert ratio is not None
    assert min_keep is not None
    assert timeout is not None
    assert annotate is not None
    assert markers is not None
    return PruneOptions(ratio, min_keep, timeout, annotate, markers, budget[0], budget[1])


def parse_recover(arguments: object) -> RecoverArgs:
    """docs/tools.md#recover_text. Range semantics (start <= end, clamping) belong to the store.

    The range count is checked before any range is looked at: 500k ranges must not cost a
    500k-item walk on the event loop to be refused.

    Raises:
        InvalidParamsError: listing every field that breaks the schema.
        InvalidRangeError: more than `MAX_RECOVER_RANGES` ranges (-32005, as the store says).
    """
    c = FieldChecker(argument_object(arguments), frozenset({"prune_id", "ranges", "include_line_numbers"}))
    prune_id = c.non_empty("prune_id", required=True)
    include = c.boolean("include_line_numbers", None)
    raw = c.args.get("ranges", MISSING)
    ranges: list[tuple[int, int]] = []
    if raw is MISSING or raw is None:
        c.fail("ranges", "is required")
    elif not isinstance(raw, list):
        c.fail("ranges", "must be an array of {start_line, end_line}")
    elif len(raw) > MAX_RECOVER_RANGES:
        c.raise_if_failed()
        assert prune_id is not None
        raise InvalidRangeError(prune_id, f"at most {MAX_RECOVER_RANGES} ranges per call")
    else:
        for i, item in enumerate(raw):
            if not isinstance(item, Mapping):
                c.fail(f"ranges[{i}]", "must be an object {start_line, end_line}")
                continue
            r = FieldChecker(item, frozenset({"start_line", "end_line"}), prefix=f"ranges[{i}].")
            # Any integer passes here: start < 1 or start > end is `invalid_range` (-32005).
            start = r.integer("start_line", -(2**63), None, None)
            end = r.integer("end_line", -(2**63), None, None)
            for name in ("start_line", "end_line"):
                if item.get(name) is None:
                    r.fail(name, "is required")
            c.errors.extend(r.errors)
            if start is not None and end is not None and not r.errors:
                ranges.append((start, end))
    c.raise_if_failed()
    assert prune_id is not None
    assert include is not None
    return RecoverArgs(prune_id, tuple(ranges), include)


def parse_health(arguments: object) -> None:
    """Raises:
    InvalidParamsError: when any argument is given (the schema allows none).
    """
    FieldChecker(argument_object(arguments), frozenset()).raise_if_failed()


_BUDGET_FIELDS = ("max_kept_lines", "max_kept_tokens")
_OPTION_FIELDS = (
    "max_prune_ratio",
    "min_keep_lines",
    "timeout_ms",
    "annotate_lines",
    "include_markers",
    *_BUDGET_FIELDS,
)


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
