"""Structured events on stderr: one JSON object per line, `{ts, level, event, request_id?, data?}`.

stdout belongs to the single ready line (docs/http.md#ready-line), so every log, including the stdlib
loggers of uvicorn and the MCP SDK, is routed here to stderr.

The JSON format is rendered here directly: structlog (and `rich`, which it imports) cost more
than the stdio server's whole answer to `tools/list` (issue 28), so it is imported only for
`--log-format text`, whose key=value lines are its renderer's.
"""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Callable, Mapping, MutableMapping
from datetime import UTC, datetime
from typing import Literal, TextIO

LogFormat = Literal["json", "text"]

# Keys that stay at the top level of an event; everything else is folded into `data`.
_TOP_LEVEL_KEYS = frozenset({"ts", "level", "event", "request_id"})
# Below this level an event is dropped (debug events are for tests that observe them otherwise).
_MIN_LEVEL = logging.INFO
_LEVEL_NAMES = {
    logging.DEBUG: "debug",
    logging.INFO: "info",
    logging.WARNING: "warning",
    logging.ERROR: "error",
    logging.CRITICAL: "critical",
}

_stream: TextIO | None = None  # None: whatever `sys.stderr` is when an event is written
_render_text: Callable[[str, MutableMapping[str, object]], str] | None = None  # with `text`


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


def _structlog_text_renderer() -> Callable[[str, MutableMapping[str, object]], str]:
    """`--log-format text`: structlog's level, timestamp, traceback and key=value processors."""
    import structlog

    processors: list[Callable[..., object]] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True, key="ts"),
        structlog.processors.format_exc_info,
        structlog.processors.KeyValueRenderer(key_order=["ts", "level", "event", "request_id"]),
    ]

    def render(method: str, event_dict: MutableMapping[str, object]) -> str:
        value: object = event_dict
        for processor in processors:
            value = processor(None, method, value)
        return str(value)

    return render


def _write(method: str, event_dict: MutableMapping[str, object]) -> None:
    if _render_text is not None:
        line = _render_text(method, event_dict)
    else:
        line = _render_json(None, method, event_dict)
    out = _stream if _stream is not None else sys.stderr
    out.write(line + "\n")
    out.flush()


class _StdlibToEvents(logging.Handler):
    """Re-emits records of third-party stdlib loggers (uvicorn, mcp) as our events."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a malformed third-party log call must not break a request
            message = str(record.msg)
        log_event(
            f"{record.name.split('.')[0]}.log",
            level=_LEVEL_NAMES.get(record.levelno, "info"),
            logger=record.name,
            message=message,
        )


def configure_logging(log_format: LogFormat = "json", *, stream: TextIO | None = None) -> None:
    """Send our events and stdlib logs to `stream` (the current stderr by default)."""
    global _stream, _render_text
    _stream = stream
    _render_text = _structlog_text_renderer() if log_format == "text" else None
    root = logging.getLogger()
    root.handlers[:] = [_StdlibToEvents()]
    root.setLevel(logging.WARNING)


def log_event(event: str, *, request_id: str | None = None, level: str = "info", **data: object) -> None:
    """Emit one event; `data` keys end up under `data` in the JSON line."""
    levelno = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    if levelno < _MIN_LEVEL:
        return
    _write(_LEVEL_NAMES.get(levelno, "info"), {"event": event, "request_id": request_id, **data})


def log_exception(event: str, *, request_id: str | None = None, **data: object) -> None:
    """Emit an error event with the current exception's traceback (call inside `except`)."""
    _write("error", {"event": event, "request_id": request_id, **data, "exc_info": True})
