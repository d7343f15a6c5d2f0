"""The `req:*` tool-request machine, as data (docs/state-machines.md#request-machine).

`TRANSITIONS` is the table the code follows and the tests read: `(state, trigger) ->
(next state, event)`. `RequestTrace.advance()` refuses anything not in the table, so a
request can only move the way the table draws it, and every move emits its event with the
request's `request_id`.

Two decisions worth knowing:

- **bash nonzero exit with output.** The contract answers it as a `nonzero_exit` tool
  error, but the product's main use is "run the failing suite, tell me why it fails", so
  its stdout/stderr must still be pruned to the question. Such a run takes
  `executing_tool --failed_with_output--> raw_output_ready` (event `tool.exec_failed`)
  and then the normal pruning path; the responder formats it as an `isError` result.
  Failures with nothing useful to prune (timeout, spawn error, bad cwd, read errors) take
  `executing_tool --failed--> tool_error`, a terminal state.
- **"responded"** is reached once the result is serialized and handed to the transport;
  the transport (SDK or `/rpc`) writes it right after.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from mcp_pruner_server.logs import log_event


class ReqState(enum.StrEnum):
    """States of one tool request (docs/state-machines.md#request-states)."""

    RECEIVED = "req:received"
    VALIDATING = "req:validating"
    INVALID_REQUEST = "req:invalid_request"
    EXECUTING_TOOL = "req:executing_tool"
    TOOL_ERROR = "req:tool_error"
    RAW_OUTPUT_READY = "req:raw_output_ready"
    PRUNE_CHECK = "req:prune_check"
    CALLING_PRUNER = "req:calling_pruner"
    PRUNER_ERROR_FALLBACK = "req:pruner_error_fallback"
    RESPOND_RAW = "req:respond_raw"
    RESPOND_PRUNED = "req:respond_pruned"
    RESPONDED = "req:responded"
    INTERNAL_ERROR = "req:internal_error"


class Trigger(enum.StrEnum):
    """The Event/Condition column of the transitions table (docs/state-machines.md#request-transitions)."""

    ACCEPTED = "accepted"
    PARSE_FAILED = "parse_failed"
    INVALID = "invalid"
    VALID = "valid"
    FAILED = "failed"
    TIMED_OUT = "timed_out"
    SUCCEEDED = "succeeded"
    FAILED_WITH_OUTPUT = "failed_with_output"
    CAPTURED = "captured"
    NO_QUESTION = "no_question"
    DISABLED = "disabled_or_unconfigured"
    TOO_LARGE = "too_large"
    OUTPUT_EMPTY = "output_empty"
    NOT_PRUNABLE = "not_prunable"  # prune_text / recover_text / health: the output is the answer
    ELIGIBLE = "eligible"
    PRUNED = "pruned"
    PRUNER_FAILED = "pruner_failed"
    FALLBACK_CHOSEN = "fallback_chosen"
    WRITTEN = "written"
    UNHANDLED = "unhandled_exception"


TERMINAL_STATES: frozenset[ReqState] = frozenset(
    {ReqState.INVALID_REQUEST, ReqState.TOOL_ERROR, ReqState.RESPONDED, ReqState.INTERNAL_ERROR}
)

S, T = ReqState, Trigger
# (from, trigger) -> (to, event or None when the move logs no line)
TRANSITIONS: dict[tuple[ReqState, Trigger], tuple[ReqState, str | None]] = {
    (S.RECEIVED, T.ACCEPTED): (S.VALIDATING, "tool.request_received"),
    (S.RECEIVED, T.PARSE_FAILED): (S.INVALID_REQUEST, "tool.request_parse_failed"),
    (S.VALIDATING, T.INVALID): (S.INVALID_REQUEST, "tool.request_invalid"),
    (S.VALIDATING, T.VALID): (S.EXECUTING_TOOL, "tool.exec_start"),
    (S.EXECUTING_TOOL, T.FAILED): (S.TOOL_ERROR, "tool.exec_failed"),
    (S.EXECUTING_TOOL, T.TIMED_OUT): (S.TOOL_ERROR, "tool.exec_timeout"),
    (S.EXECUTING_TOOL, T.SUCCEEDED): (S.RAW_OUTPUT_READY, "tool.exec_ok"),
    (S.EXECUTING_TOOL, T.FAILED_WITH_OUTPUT): (S.RAW_OUTPUT_READY, "tool.exec_failed"),
    (S.RAW_OUTPUT_READY, T.CAPTURED): (S.PRUNE_CHECK, None),
    (S.PRUNE_CHECK, T.NO_QUESTION): (S.RESPOND_RAW, None),
    (S.PRUNE_CHECK, T.DISABLED): (S.RESPOND_RAW, None),
    (S.PRUNE_CHECK, T.TOO_LARGE): (S.RESPOND_RAW, None),
    (S.PRUNE_CHECK, T.OUTPUT_EMPTY): (S.RESPOND_RAW, None),
    (S.PRUNE_CHECK, T.NOT_PRUNABLE): (S.RESPOND_RAW, None),
    (S.PRUNE_CHECK, T.ELIGIBLE): (S.CALLING_PRUNER, "pruner.call_start"),
    (S.CALLING_PRUNER, T.PRUNED): (S.RESPOND_PRUNED, "pruner.call_ok"),
    (S.CALLING_PRUNER, T.PRUNER_FAILED): (S.PRUNER_ERROR_FALLBACK, "pruner.call_failed"),
    (S.PRUNER_ERROR_FALLBACK, T.FALLBACK_CHOSEN): (S.RESPOND_RAW, None),
    (S.RESPOND_RAW, T.WRITTEN): (S.RESPONDED, "tool.respond_ok"),
    (S.RESPOND_PRUNED, T.WRITTEN): (S.RESPONDED, "tool.respond_ok"),
    # `req:* -> req:internal_error`: from every non-terminal state.
    **{
        (state, T.UNHANDLED): (S.INTERNAL_ERROR, "tool.internal_error")
        for state in S
        if state not in TERMINAL_STATES
    },
}
del S, T


class IllegalTransitionError(RuntimeError):
    """Raised when the code tries a move the transitions table does not hold (a bug)."""


@dataclass
class RequestTrace:
    """Where one request is in the pipeline; the only place its state changes."""

    request_id: str
    tool: str
    state: ReqState = ReqState.RECEIVED
    history: list[ReqState] = field(default_factory=lambda: [ReqState.RECEIVED])

    def advance(self, trigger: Trigger, **data: object) -> ReqState:
        """Follow the table from the current state on `trigger` and emit its event.

        Raises:
            IllegalTransitionError: when `(state, trigger)` is not in `TRANSITIONS`.
        """
        move = TRANSITIONS.get((self.state, trigger))
        if move is None:
            raise IllegalTransitionError(f"{self.state} has no transition on {trigger!r}")
        self.state, event = move
        self.history.append(self.state)
        if event is not None:
            level = "error" if self.state is ReqState.INTERNAL_ERROR else "info"
            log_event(event, request_id=self.request_id, level=level, tool=self.tool, **data)
        return self.state

    @property
    def finished(self) -> bool:
        return self.state in TERMINAL_STATES
