"""The runner's event log: one JSON object per line, `{ts, level, event, data?}`, via structlog.

The event names are the lifecycle's (`mcp_pruner.*`, docs/state-machines.md#event-log), plus
`provider.*` and `run.*` for the parts of the run only the runner sees. The logger is built
locally (no global structlog configuration) so the server and tests in the same process keep
theirs.

Logging is never fatal: a write that fails (`--log-file /dev/full`, a stderr pipe whose reader
went away) is counted in `write_failures`, and the stream's file descriptor is pointed at
/dev/null so that neither later events nor the interpreter's flush at exit fail again (a failed
flush of stderr at exit would turn the agent's exit code into 120). The events are still kept
in memory for the run summary.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, TextIO

import structlog
from structlog.typing import EventDict, FilteringBoundLogger, WrappedLogger

from mcp_pruner_server.settings import READY_EVENT

Level = Literal["debug", "info", "warning", "error"]

# The `mcp_pruner.*` events (docs/state-machines.md#event-log), the only names the lifecycle may log.
DISABLED = "mcp_pruner.disabled"
CONFIG_INVALID = "mcp_pruner.config_invalid"
READY = READY_EVENT  # the server prints it (its ready line); the runner logs it once healthy
START_FAILED = "mcp_pruner.start_failed"
SPAWN_ERROR = "mcp_pruner.spawn_error"
START_TIMEOUT = "mcp_pruner.start_timeout"
DEGRADED = "mcp_pruner.degraded"
EXITED = "mcp_pruner.exited"
UNREACHABLE = "mcp_pruner.unreachable"
STOPPED = "mcp_pruner.stopped"
KILL_ESCALATED = "mcp_pruner.kill_escalated"
NOT_RUNNING = "mcp_pruner.not_running"
SHUTDOWN_AFTER_DEGRADED = "mcp_pruner.shutdown_after_degraded"
MCP_PRUNER_EVENTS = frozenset(
    {
        DISABLED,
        CONFIG_INVALID,
        READY,
        START_FAILED,
        SPAWN_ERROR,
        START_TIMEOUT,
        DEGRADED,
        EXITED,
        UNREACHABLE,
        STOPPED,
        KILL_ESCALATED,
        NOT_RUNNING,
        SHUTDOWN_AFTER_DEGRADED,
    }
)

# The runner's own events around the lifecycle.
STATE_CHANGED = "run.state_changed"
PROVIDER_STARTED = "provider.started"
PROVIDER_SPAWN_ERROR = "provider.spawn_error"
PROVIDER_EXITED = "provider.exited"
SIGNAL_RECEIVED = "run.signal_received"
STATS_UNAVAILABLE = "mcp_pruner.stats_unavailable"
ORPHANS_KILLED = "run.orphans_killed"
ORPHANS_REAPED = "run.orphans_reaped"
# The server's ledger writer still writing at the end of the run: not killed (it ends by itself).
LEDGER_WRITER_SPARED = "run.ledger_writer_spared"
WATCHDOG_UNAVAILABLE = "run.watchdog_unavailable"
# Same name as the server's: a setting a project `jeeves.toml` may not make, ignored.
CONFIG_IGNORED = "mcp_pruner.config_ignored"


@dataclass(frozen=True)
class Event:
    """One logged event, kept in memory for the run summary and for tests."""

    event: str
    level: Level
    data: MappingProxyType[str, object]


def _timestamp(_: WrappedLogger, method_name: str, event_dict: EventDict) -> EventDict:
    now = dt.datetime.now(dt.UTC)
    # Fixed key order `{ts, level, event, data?}` so the lines read the same everywhere.
    shaped: EventDict = {
        "ts": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "level": method_name,
        "event": event_dict.pop("event"),
    }
    if event_dict:
        shaped["data"] = dict(event_dict)
    return shaped


class EventLog:
    """Writes events as JSON lines to `stream` and remembers them."""

    def __init__(self, stream: TextIO) -> None:
        self._logger: FilteringBoundLogger = structlog.wrap_logger(
            structlog.PrintLogger(stream),
            processors=[_timestamp, structlog.processors.JSONRenderer(default=str)],
            wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG),
            context_class=dict,
            cache_logger_on_first_use=False,
        )
        self._events: list[Event] = []
        self._stream = stream
        self.write_failures = 0

    @property
    def events(self) -> tuple[Event, ...]:
        """Every event emitted so far, in order."""
        return tuple(self._events)

    def names(self) -> list[str]:
        """The names of the events emitted so far, in order."""
        return [e.event for e in self._events]

    def emit(self, event: str, level: Level = "info", /, **data: object) -> None:
        """Log `event` with `data` (omitted from the line when empty)."""
        self._events.append(Event(event, level, MappingProxyType(dict(data))))
        log_method = getattr(self._logger, level)
        try:
            log_method(event, **data)
        except (OSError, ValueError):  # ValueError: the stream was closed under us
            self.write_failures += 1
            if self.write_failures == 1:
                silence_stream(self._stream)


def silence_stream(stream: TextIO) -> None:
    """After a failed write: point `stream`'s fd at /dev/null, so that what its buffer still
    holds and every later write go nowhere instead of failing again (see the module doc)."""
    with contextlib.suppress(OSError, ValueError):
        fd = stream.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, fd)
        finally:
            os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        stream.flush()  # the bytes that failed go to /dev/null now, so close() will not fail
