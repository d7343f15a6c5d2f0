"""The prune step of the `req:*` pipeline: `raw_output_ready → prune_check → … → respond_*`.

Capture all, return little. With a question the tool captured its whole output (up to the raw
cap, spooled to disk past 1 MiB): that is what is pruned, and `max_output_bytes` only bounds
what is returned. Eligibility is decided in the table's order: no question, pruner
unavailable, nothing to prune, too large (over the raw cap, for a text the tool did not
capture itself). Each prunable text (bash: stdout and stderr) is pruned separately, with line
numbers, markers and the tool budget (`tool_budget_lines` / `tool_budget_tokens`), so its
`prune_id` recovers it with `recover_text`. Any failure returns the texts the tool cut to
`max_output_bytes` (head and tail, a marker between): fail-open. A pruned text is sent only
when its model view as it would be sent (numbers, markers, the trailer naming its `prune_id`)
costs clearly fewer tokens than the whole output: never more than the raw output.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace

from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.pipeline.states import RequestTrace, Trigger
from mcp_pruner_server.pipeline.stats import ServerStats
from mcp_pruner_server.pruner_service import PruneOutcome, PrunerService
from mcp_pruner_server.pruning.model_view import view_tokens
from mcp_pruner_server.pruning.text import CHARS_PER_TOKEN, estimate_tokens, utf8_size
from mcp_pruner_server.pruning.types import PruneOptions, PruneResult
from mcp_pruner_server.tools.outcome import PruningMetadata, RawOutput
from tools_exec.capture import cut_text
from tools_exec.limits import STDERR_RESERVE_SHARE
from tools_exec.text import split_output

# Tool output is pruned hard (a 5,000-line log down to its failing test) but never below
# half a screenful: shorter outputs are cheaper to read whole than to recover from. At 20 the
# floor, not the question, decided short outputs: the demo's 41-hit grep kept 21 lines for 5
# needed ones (20 % saved); at 10 it saves 56 % with every needed line still sent.
TOOL_OUTPUT_MAX_PRUNE_RATIO = 0.9
TOOL_OUTPUT_MIN_KEEP_LINES = 10
# A pruned view must save at least this share of the raw output's tokens: below it, the lines
# it hides (and the recover_text call they may cost) are not worth the few tokens saved.
MIN_SAVED_SHARE = 0.1
# The trailer a pruned result adds (`tools/model_text.py`):
# `[379 of 424 lines pruned · recover_text prune_id=prn_01M8GY3X9BFA68QXCNFF9SJK2P]`, 37 cl100k tokens.
TRAILER_TOKENS = 37
# A capture over the raw cap is its head (at least max_output_bytes, <= 10 MiB), a marker line
# and its last MiB: at most this much over the cap.
RAW_MARKER_SLACK_BYTES = 12 << 20
# Each kind of pruner failure has its own event, next to `pruner.call_failed`
# (docs/state-machines.md#event-log).
FAILURE_EVENTS = {
    "timeout": "pruner.timeout",
    "http_error": "pruner.http_error",
    "invalid_response": "pruner.invalid_response",
}


def tool_output_options(timeout_ms: int, budget: tuple[int, int] | None = None) -> PruneOptions:
    """Line numbers and markers on, in the model's cheap form: the agent sees original numbering
    and what was cut. `budget`: (lines, tokens) at most, whatever the output's length."""
    return PruneOptions(
        max_prune_ratio=TOOL_OUTPUT_MAX_PRUNE_RATIO,
        min_keep_lines=TOOL_OUTPUT_MIN_KEEP_LINES,
        timeout_ms=timeout_ms,
        annotate_lines=True,
        include_markers=True,
        max_kept_lines=budget[0] if budget else None,
        max_kept_tokens=budget[1] if budget else None,
        model_view=True,
    )


def worth_sending(pruned_view: str, raw_tokens: int) -> bool:
    """Whether the pruned view as it would be sent, its trailer included, costs at least
    `MIN_SAVED_SHARE` fewer tokens than the raw output (`raw_tokens`, estimated alike)."""
    return view_tokens(pruned_view) + TRAILER_TOKENS <= (1 - MIN_SAVED_SHARE) * raw_tokens


def _raw_tokens(raw: RawOutput[object], name: str) -> int:
    """The estimated tokens of the whole output `name` (a capture: from its size)."""
    if name in raw.full:
        return -(-raw.full[name].total_bytes // CHARS_PER_TOKEN)
    return estimate_tokens(raw.texts[name])


@dataclass(frozen=True)
class PruneStep:
    """The texts to answer with, and the metadata that says how they came to be."""

    texts: Mapping[str, str]
    results: Mapping[str, PruneResult]
    metadata: PruningMetadata
    mode: str  # "pruned" | "raw"


def _skip(
    trace: RequestTrace, trigger: Trigger, raw: RawOutput[object], raw_bytes: int, reason: str
) -> PruneStep:
    trace.advance(trigger)
    meta = PruningMetadata(attempted=False, raw_bytes=raw_bytes, reason=reason)
    return PruneStep(dict(raw.texts), {}, meta, "raw")


async def prune_outputs(
    trace: RequestTrace, raw: RawOutput[object], service: PrunerService | None, stats: ServerStats
) -> PruneStep:
    """Walk the prune check and the pruner call (`service` None: tool pruning is off); never
    raises for a pruner failure. Closes the tool's captures, whatever happens."""
    try:
        trace.advance(Trigger.CAPTURED)
        if raw.full:
            raw_bytes = sum(capture.total_bytes for capture in raw.full.values())
        else:
            raw_bytes = sum(utf8_size(t) for t in raw.texts.values())
        step = await _decide_and_prune(trace, raw, service, raw_bytes)
    finally:
        raw.close()
    returned = sum(utf8_size(t) for t in step.texts.values())
    meta = step.metadata
    stats.record_output(
        raw_bytes=raw_bytes,
        returned_bytes=returned,
        attempted=meta.attempted,
        applied=meta.applied,
        fallback=meta.fallback,
        skipped_reason=None if meta.attempted else meta.reason,
    )
    return step


def _cap_returned(raw: RawOutput[object], texts: dict[str, str]) -> dict[str, str]:
    """Pruned texts cut to `max_output_bytes` (shared as the tool shares it), head and tail kept."""
    cap = raw.max_output_bytes
    sizes = {name: utf8_size(text) for name, text in texts.items()}
    if cap is None or sum(sizes.values()) <= cap:
        return texts
    if set(texts) == {"stdout", "stderr"}:
        keep = dict(
            zip(
                ("stdout", "stderr"),
                split_output(sizes["stdout"], sizes["stderr"], cap, int(cap * STDERR_RESERVE_SHARE)),
                strict=True,
            )
        )
    else:
        keep = {name: cap // len(texts) for name in texts}
    return {name: cut_text(text, keep[name], head_share=raw.head_share) for name, text in texts.items()}


async def _prune_one(
    service: PrunerService, raw: RawOutput[object], name: str, question: str, options: PruneOptions
) -> PruneOutcome:
    """One text of the tool's output through the service: its whole capture when it made one."""
    # a tool output is bounded at capture (the raw cap), not by `prune_text`'s input limit
    max_bytes = service.config.tool_raw_cap_bytes + RAW_MARKER_SLACK_BYTES
    if name in raw.full:
        source = raw.full[name].source()
        return await service.prune_captured(
            source, question, raw.source_type, options, max_input_bytes=max_bytes
        )
    return await service.prune(raw.texts[name], question, raw.source_type, options, max_input_bytes=max_bytes)


async def _decide_and_prune(
    trace: RequestTrace, raw: RawOutput[object], service: PrunerService | None, raw_bytes: int
) -> PruneStep:
    if raw.question is None:
        return _skip(trace, Trigger.NO_QUESTION, raw, raw_bytes, "no_focus_question")
    if service is None:
        return _skip(trace, Trigger.DISABLED, raw, raw_bytes, "disabled_or_unconfigured")
    if not any(text.strip() for text in raw.texts.values()):
        return _skip(trace, Trigger.OUTPUT_EMPTY, raw, raw_bytes, "output_empty")
    if raw_bytes > service.config.tool_raw_cap_bytes and not raw.full:
        return _skip(trace, Trigger.TOO_LARGE, raw, raw_bytes, "too_large")

    trace.advance(Trigger.ELIGIBLE, raw_bytes=raw_bytes, source_type=raw.source_type)
    # the whole capture when the tool made one (a non-blank cut means a non-blank whole)
    prunable = [name for name, text in raw.texts.items() if text.strip()]
    # the file's path names the language whose parser finds the code's units
    config = service.config
    budget = (config.tool_budget_lines, config.tool_budget_tokens)
    options = replace(tool_output_options(config.timeout_ms, budget), path=raw.path)
    await service.until_engine_started()  # the step's budget counts the pruning, not a worker's start
    started = time.perf_counter()
    attempts: dict[str, PruneOutcome] = {}
    failure: tuple[str, str] | None = None
    for name in prunable:
        # one budget for the step: stderr is given what stdout's prune left of it
        left_ms = config.timeout_ms - int((time.perf_counter() - started) * 1000)
        try:
            outcome = await _prune_one(
                service, raw, name, raw.question, replace(options, timeout_ms=max(0, left_ms))
            )
        except Exception as exc:  # fail-open boundary: a bug in the service must not fail the call
            log_exception("pruner.internal_error", request_id=trace.request_id, tool=trace.tool)
            failure = ("internal_error", f"pruner raised {type(exc).__name__}: {exc}")
            break
        # The selected backend failed AND nothing replaced it: the raw text came back.
        if outcome.error_code is not None and not outcome.applied:
            failure = (outcome.error_code, outcome.error_message or "pruner fell back")
            break
        attempts[name] = outcome
    duration_ms = round((time.perf_counter() - started) * 1000, 3)

    if failure is not None:
        code, message = failure
        trace.advance(Trigger.PRUNER_FAILED, reason=code, duration_ms=duration_ms)
        if code in FAILURE_EVENTS:
            log_event(
                FAILURE_EVENTS[code],
                request_id=trace.request_id,
                level="warning",
                tool=trace.tool,
                message=message,
                duration_ms=duration_ms,
            )
        trace.advance(Trigger.FALLBACK_CHOSEN)
        meta = PruningMetadata(
            attempted=True,
            fallback=True,
            raw_bytes=raw_bytes,
            reason="pruner_error",
            pruner_duration_ms=duration_ms,
            error={"code": code, "message": message},
        )
        return PruneStep(dict(raw.texts), {}, meta, "raw")

    texts = dict(raw.texts)
    # A text the engine left whole, or whose pruned view as it would be sent (numbers,
    # markers, trailer; cut to max_output_bytes) does not clearly cost fewer tokens than the
    # whole output, is returned as the tool cut it. Its prune_id recovers it.
    pruned = [name for name, a in attempts.items() if a.applied]
    views = _cap_returned(raw, {**texts, **{name: attempts[name].result.pruned_text for name in pruned}})
    shorter = {name: attempts[name] for name in pruned if worth_sending(views[name], _raw_tokens(raw, name))}
    texts.update({name: a.result.pruned_text for name, a in shorter.items()})
    texts = _cap_returned(raw, texts)
    pruned_bytes = sum(utf8_size(t) for t in texts.values())
    ids = {name: a.result.prune_id for name, a in attempts.items()}
    first = next(iter(attempts.values()))
    soft_error = next(((a.error_code, a.error_message) for a in attempts.values() if a.error_code), None)
    # the engine kept more than the options asked for (a vague question): say so
    kept_more = next(
        (str(r) for a in shorter.values() if (r := a.result.stats.extra.get("budget_reason"))), None
    )
    meta = PruningMetadata(
        attempted=True,
        applied=bool(shorter),
        # never silent: say why nothing changed (the engine kept all, or its view did not pay), or
        # why more was kept than the ratio asks (a vague question)
        reason=kept_more if shorter else ("not_smaller" if pruned else "kept_whole"),
        raw_bytes=raw_bytes,
        pruned_bytes=pruned_bytes,
        pruner_duration_ms=duration_ms,
        prune_id=first.result.prune_id,
        prune_ids=ids,
        backend=first.backend,
        # The configured backend failed but the heuristic engine pruned instead: say so.
        error={"code": soft_error[0], "message": soft_error[1] or ""} if soft_error else None,
    )
    trace.advance(Trigger.PRUNED, duration_ms=duration_ms, pruned_bytes=pruned_bytes, raw_bytes=raw_bytes)
    return PruneStep(texts, {name: a.result for name, a in shorter.items()}, meta, "pruned")
