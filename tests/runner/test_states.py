from __future__ import annotations

import io

import pytest

from runner.errors import IllegalTransitionError
from runner.events import STATE_CHANGED, EventLog
from runner.states import TERMINAL_STATES, TRANSITIONS, RunState, RunStateMachine, is_allowed


def test_the_table_is_seed_002s_run_transitions_exactly() -> None:
    pairs = {(t.source.value, t.target.value) for t in TRANSITIONS}
    assert pairs == {
        ("run:init", "run:mcp_pruner_disabled"),
        ("run:init", "run:mcp_pruner_starting"),
        ("run:mcp_pruner_starting", "run:mcp_pruner_running"),
        ("run:mcp_pruner_starting", "run:mcp_pruner_disabled"),
        ("run:mcp_pruner_running", "run:mcp_pruner_degraded"),
        ("run:mcp_pruner_running", "run:shutdown"),
        ("run:mcp_pruner_disabled", "run:shutdown"),
        ("run:mcp_pruner_degraded", "run:shutdown"),
    }


def test_every_state_but_shutdown_has_a_way_out_and_shutdown_has_none() -> None:
    sources = {t.source for t in TRANSITIONS}
    assert sources == set(RunState) - TERMINAL_STATES
    assert not any(t.source in TERMINAL_STATES for t in TRANSITIONS)


def test_a_machine_walks_the_degraded_path_and_remembers_it() -> None:
    machine = RunStateMachine()
    for target in (
        RunState.MCP_PRUNER_STARTING,
        RunState.MCP_PRUNER_RUNNING,
        RunState.MCP_PRUNER_DEGRADED,
        RunState.SHUTDOWN,
    ):
        row = machine.advance(target)
        assert row.target is target
    assert machine.visited[0] is RunState.INIT
    assert machine.state is RunState.SHUTDOWN


def test_every_state_is_named_with_the_run_prefix() -> None:
    assert all(state.value.startswith("run:") for state in RunState)


def test_each_move_is_logged_once_as_a_state_change_with_its_condition() -> None:
    log = EventLog(io.StringIO())
    machine = RunStateMachine(log)
    machine.advance(RunState.MCP_PRUNER_DISABLED)
    machine.advance(RunState.SHUTDOWN)
    assert log.names() == [STATE_CHANGED, STATE_CHANGED]
    assert [dict(e.data) for e in log.events] == [
        {"from": "run:init", "to": "run:mcp_pruner_disabled", "condition": TRANSITIONS[0].condition},
        {"from": "run:mcp_pruner_disabled", "to": "run:shutdown", "condition": "provider phase ended"},
    ]


def test_an_illegal_move_logs_nothing() -> None:
    log = EventLog(io.StringIO())
    with pytest.raises(IllegalTransitionError):
        RunStateMachine(log).advance(RunState.SHUTDOWN)
    assert log.names() == []


@pytest.mark.parametrize(
    ("path", "illegal"),
    [
        ((), RunState.MCP_PRUNER_RUNNING),  # running without ever starting
        ((RunState.MCP_PRUNER_DISABLED,), RunState.MCP_PRUNER_STARTING),  # transitions are not reversible
        ((RunState.MCP_PRUNER_STARTING, RunState.MCP_PRUNER_RUNNING), RunState.MCP_PRUNER_STARTING),
        ((RunState.MCP_PRUNER_STARTING,), RunState.SHUTDOWN),  # starting must resolve first
        ((RunState.MCP_PRUNER_DISABLED, RunState.SHUTDOWN), RunState.SHUTDOWN),  # terminal
    ],
)
def test_an_illegal_transition_raises_and_leaves_the_state_alone(
    path: tuple[RunState, ...], illegal: RunState
) -> None:
    machine = RunStateMachine()
    for state in path:
        machine.advance(state)
    before = machine.visited
    with pytest.raises(IllegalTransitionError, match=f"-> {illegal.value}"):
        machine.advance(illegal)
    assert machine.visited == before
    assert not is_allowed(machine.state, illegal)
