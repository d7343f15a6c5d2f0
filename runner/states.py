"""The `run:*` state machine (docs/state-machines.md#run-machine), as data.

`TRANSITIONS` is the table the code consults (and the tests read): every allowed move with
the condition that triggers it. `RunStateMachine` enforces it — an illegal move is a bug
and raises —, logs each move as `run.state_changed`, and remembers the states visited for
the run summary.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from runner.errors import IllegalTransitionError
from runner.events import STATE_CHANGED, EventLog


class RunState(enum.StrEnum):
    """States of one run (docs/state-machines.md#run-states), prefixed `run:` as `ReqState`'s are `req:`."""

    INIT = "run:init"
    MCP_PRUNER_DISABLED = "run:mcp_pruner_disabled"
    MCP_PRUNER_STARTING = "run:mcp_pruner_starting"
    MCP_PRUNER_RUNNING = "run:mcp_pruner_running"
    MCP_PRUNER_DEGRADED = "run:mcp_pruner_degraded"
    SHUTDOWN = "run:shutdown"


@dataclass(frozen=True)
class Transition:
    """One row of the run transitions table (docs/state-machines.md#run-transitions)."""

    source: RunState
    target: RunState
    condition: str


TRANSITIONS: tuple[Transition, ...] = (
    Transition(RunState.INIT, RunState.MCP_PRUNER_DISABLED, "pruner disabled by config, or config invalid"),
    Transition(RunState.INIT, RunState.MCP_PRUNER_STARTING, "pruner enabled"),
    Transition(RunState.MCP_PRUNER_STARTING, RunState.MCP_PRUNER_RUNNING, "health check ok before timeout"),
    Transition(
        RunState.MCP_PRUNER_STARTING,
        RunState.MCP_PRUNER_DISABLED,
        "spawn failed, child exited or health check timed out",
    ),
    Transition(
        RunState.MCP_PRUNER_RUNNING,
        RunState.MCP_PRUNER_DEGRADED,
        "child exited or N consecutive failed probes",
    ),
    Transition(RunState.MCP_PRUNER_RUNNING, RunState.SHUTDOWN, "provider phase ended"),
    Transition(RunState.MCP_PRUNER_DISABLED, RunState.SHUTDOWN, "provider phase ended"),
    Transition(RunState.MCP_PRUNER_DEGRADED, RunState.SHUTDOWN, "provider phase ended"),
)

INITIAL_STATE = RunState.INIT
TERMINAL_STATES = frozenset({RunState.SHUTDOWN})
_ALLOWED = frozenset((t.source, t.target) for t in TRANSITIONS)


def is_allowed(source: RunState, target: RunState) -> bool:
    """Whether the table lists a transition from `source` to `target`."""
    return (source, target) in _ALLOWED


class RunStateMachine:
    """The current `run:*` state of one run, moved only along `TRANSITIONS`.

    With a `log`, each move is logged there as `run.state_changed` (`from`, `to`, `condition`).
    """

    def __init__(self, log: EventLog | None = None) -> None:
        self._visited: list[RunState] = [INITIAL_STATE]
        self._log = log

    @property
    def state(self) -> RunState:
        """The state the run is in now."""
        return self._visited[-1]

    @property
    def visited(self) -> tuple[RunState, ...]:
        """Every state entered so far, in order, starting with `init`."""
        return tuple(self._visited)

    def advance(self, target: RunState) -> Transition:
        """Move to `target`, log the move, and return the table row that allowed it.

        Raises:
            IllegalTransitionError: the table has no row from the current state to `target`.
        """
        for row in TRANSITIONS:
            if row.source is self.state and row.target is target:
                self._visited.append(target)
                if self._log is not None:
                    moved = {"from": str(row.source), "to": str(row.target), "condition": row.condition}
                    self._log.emit(STATE_CHANGED, "debug", **moved)
                return row
        raise IllegalTransitionError(f"{self.state} -> {target} is not in the transitions table")
