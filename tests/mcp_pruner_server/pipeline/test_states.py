import json

import pytest

from mcp_pruner_server.pipeline.states import (
    TERMINAL_STATES,
    TRANSITIONS,
    IllegalTransitionError,
    ReqState,
    RequestTrace,
    Trigger,
)

S, T = ReqState, Trigger


def test_the_table_holds_exactly_the_seed_002_edges_plus_the_documented_ones() -> None:
    edges = {(src, dst) for (src, _), (dst, _) in TRANSITIONS.items() if dst is not S.INTERNAL_ERROR}
    assert edges == {
        (S.RECEIVED, S.VALIDATING),
        (S.RECEIVED, S.INVALID_REQUEST),
        (S.VALIDATING, S.INVALID_REQUEST),
        (S.VALIDATING, S.EXECUTING_TOOL),
        (S.EXECUTING_TOOL, S.TOOL_ERROR),
        (S.EXECUTING_TOOL, S.RAW_OUTPUT_READY),
        (S.RAW_OUTPUT_READY, S.PRUNE_CHECK),
        (S.PRUNE_CHECK, S.RESPOND_RAW),
        (S.PRUNE_CHECK, S.CALLING_PRUNER),
        (S.CALLING_PRUNER, S.RESPOND_PRUNED),
        (S.CALLING_PRUNER, S.PRUNER_ERROR_FALLBACK),
        (S.PRUNER_ERROR_FALLBACK, S.RESPOND_RAW),
        (S.RESPOND_RAW, S.RESPONDED),
        (S.RESPOND_PRUNED, S.RESPONDED),
    }


def test_every_non_terminal_state_can_fail_into_internal_error_and_terminals_cannot_move() -> None:
    for state in S:
        if state in TERMINAL_STATES:
            assert not [key for key in TRANSITIONS if key[0] is state]
        else:
            assert TRANSITIONS[(state, T.UNHANDLED)] == (S.INTERNAL_ERROR, "tool.internal_error")


def test_the_seed_events_are_emitted_on_their_transitions() -> None:
    assert TRANSITIONS[(S.RECEIVED, T.ACCEPTED)][1] == "tool.request_received"
    assert TRANSITIONS[(S.VALIDATING, T.INVALID)][1] == "tool.request_invalid"
    assert TRANSITIONS[(S.VALIDATING, T.VALID)][1] == "tool.exec_start"
    assert TRANSITIONS[(S.EXECUTING_TOOL, T.TIMED_OUT)][1] == "tool.exec_timeout"
    assert TRANSITIONS[(S.EXECUTING_TOOL, T.SUCCEEDED)][1] == "tool.exec_ok"
    assert TRANSITIONS[(S.PRUNE_CHECK, T.ELIGIBLE)][1] == "pruner.call_start"
    assert TRANSITIONS[(S.CALLING_PRUNER, T.PRUNED)][1] == "pruner.call_ok"
    assert TRANSITIONS[(S.CALLING_PRUNER, T.PRUNER_FAILED)][1] == "pruner.call_failed"
    assert TRANSITIONS[(S.RESPOND_PRUNED, T.WRITTEN)][1] == "tool.respond_ok"


def test_a_pruned_request_walks_the_happy_path_and_logs_each_event_with_its_request_id(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from mcp_pruner_server.logs import configure_logging

    configure_logging("json")
    trace = RequestTrace("req-1", "read")
    for trigger in (T.ACCEPTED, T.VALID, T.SUCCEEDED, T.CAPTURED, T.ELIGIBLE, T.PRUNED, T.WRITTEN):
        trace.advance(trigger)
    assert trace.state is S.RESPONDED
    assert trace.finished
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [e["event"] for e in events] == [
        "tool.request_received",
        "tool.exec_start",
        "tool.exec_ok",
        "pruner.call_start",
        "pruner.call_ok",
        "tool.respond_ok",
    ]
    assert {e["request_id"] for e in events} == {"req-1"}


def test_an_illegal_transition_raises_and_leaves_the_state_unchanged() -> None:
    trace = RequestTrace("req-2", "bash")
    trace.advance(T.ACCEPTED)
    with pytest.raises(IllegalTransitionError):
        trace.advance(T.PRUNED)
    assert trace.state is S.VALIDATING


def test_a_terminal_state_accepts_no_further_trigger() -> None:
    trace = RequestTrace("req-3", "grep")
    trace.advance(T.ACCEPTED)
    trace.advance(T.INVALID)
    with pytest.raises(IllegalTransitionError):
        trace.advance(T.UNHANDLED)
