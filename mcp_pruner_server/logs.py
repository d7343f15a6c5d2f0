"""Structured events on stderr: one JSON object per line, `{ts, level, event, request_id?, data?}`.

stdout belongs to the single ready line (docs/http.md#ready-line), so every log, including the stdlib
loggers of uvicorn and the MCP SDK, is routed here to stderr.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Mapping, MutableMapping
from datetime import UTC, datetime
from typing import Any, Literal, TextIO

import structlog

LogFormat = Literal["json", "text"]

# Keys that stay at the top level of an event; everything else is folded into `data`.
_TOP_LEVEL_KEYS = frozenset({"ts", "level", "event", "request_id"})

_log: Any = structlog.get_logger("jeeves.mcp_pruner")


def _fold_into_data(
    _logger: object, _method: str, event_dict: MutableMapping[str, object]
) -> Mapping[str, object]:
    """Shape every event as `{ts, level, event, request_id?, data?}` (docs/state-machines.md#event-log)."""
    data = {k: v for k, v in event_dict.items() if k not in _TOP_LEVEL_KEYS}
    shaped: dict[str, object] = {k: event_dict[k] for k in ("ts", "level", "event") if k in event_dict}
    if event_dict.get("request_id") is not None:
        shaped["request_id"] = event_dict["request_id"]
    if data:
        shaped["data"] = data
    return shaped


def _render_json(_logger: object, method: str, event_dict: MutableMapping[str, object]) -> str:
    """The whole JSON pipeline in one step: every tool call emits several events, and the
    generic processor chain (level, timestamper, fold, renderer) cost more than the request."""
    exc_info = event_dict.pop("exc_info", None)
    if exc_info:
        event_dict["exception"] = "".join(traceback.format_exception(*sys.exc_info()))
    event_dict["level"] = "warning" if method == "warn" else method
    event_dict["ts"] = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    return json.dumps(_fold_into_data(_logger, method, event_dict), default=str, ensure_ascii=False)


class _StdlibToStructlog(logging.Handler):
    """Re-emits records of third-party stdlib loggers (uvicorn, mcp) as our events."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a malformed third-party log call must not break a request
            message = str(record.msg)
        bound = _log.bind(logger=record.name, message=message)
        bound.log(record.levelno, f"{record.name.split('.')[0]}.log")


class _StderrLogger:
    """Writes each rendered event as one line to `stream`, or to whatever `sys.stderr` is now."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def msg(self, message: str) -> None:
        out = self._stream if self._stream is not None else sys.stderr
        out.write(message + "\n")
        out.flush()

    log = debug = info = warn = warning = error = critical = exception = fatal = msg


def configure_logging(log_format: LogFormat = "json", *, stream: TextIO | None = None) -> None:
    """Send structlog events and stdlib logs to `stream` (the current stderr by default)."""
    processors: list[structlog.types.Processor] = [_render_json]
    if log_format == "text":
        processors = [
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True, key="ts"),
            structlog.processors.format_exc_info,
            structlog.processors.KeyValueRenderer(key_order=["ts", "level", "event", "request_id"]),
        ]
    structlog.configure(
        processors=processors,
        logger_factory=lambda *_args: _StderrLogger(stream),
        wrapper_class=structlog.make_filtering_bound_logger(logging.INFO),
        # Not cached: tests and `--log-format` may reconfigure after the first event.
        cache_logger_on_first_use=False,
    )
    global _log
    _log = structlog.get_logger("jeeves.mcp_pruner").bind()  # concrete: no proxy work per event
    root = logging.getLogger()
    root.handlers[:] = [_StdlibToStructlog()]
    root.setLevel(logging.WARNING)


def log_event(event: str, *, request_id: str | None = None, level: str = "info", **data: object) -> None:
    """Emit one event; `data` keys end up under `data` in the JSON line."""
    levelno = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    _log.log(levelno, event, request_id=request_id, **data)


def log_exception(event: str, *, request_id: str | None = None, **data: object) -> None:
    """Emit an error event with the current exception's traceback (call inside `except`)."""
    _log.exception(event, request_id=request_id, **data)
