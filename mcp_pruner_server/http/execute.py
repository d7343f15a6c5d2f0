"""`GET /tools` and `POST /execute`: the same tools for function-calling agents
(docs/http.md#get-tools-and-post-execute).

`GET /tools` → `{"tools": [{"type": "function", "function": {name, description,
parameters}}, ...]}`, generated from `TOOL_SPECS` (`openai_tools.py`), in `tools/list` order.

`POST /execute {"tool": NAME, "params": {...}}` runs `ToolDispatcher.call` — the same `req:*`
pipeline as `tools/call` (validation, pruning with `context_focus_question`, `pruning`
metadata, fail-open) — and answers with the same structured result:

| outcome | status | body / `error.code` |
|---|---|---|
| the tool ran, even with a tool error (`nonzero_exit`, ...) | 200 | `{ok: true, is_error, result}` |
| the tool timed out (`result.error.code == "timeout"`) | 504 | `{ok: false, error, result}` |
| body not JSON / not `{tool, params}` | 400 | `invalid_json` / `invalid_request` |
| arguments break the contract | 400 | `invalid_params`, with `field_errors` |
| unknown tool | 404 | `unknown_tool`, with `field_errors` |
| recovery: unknown `prune_id` / bad range | 404 / 400 | `prune_id_not_found` / `invalid_range` |
| a server bug | 500 | `internal_error`, with `data.request_id` |

Every error body is `{ok: false, error: {code, message, field_errors?, data?}}` (`jsonrpc.rest_error`).

A tool error that still ran is a result, not an HTTP error: `is_error` is MCP's `isError`
and `result.error` says what failed, exactly as `tools/call` answers it — an agent asking
"why does this test fail?" needs the output of the failing command. Only a timeout is a
504, an executor timeout as a gateway's; its partial output comes along. The token,
Host/Origin and body-size refusals (401, 421/403, 413) come from `SecurityMiddleware` in
the same `{ok: false, error}` shape.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from mcp_pruner_server.errors import (
    DomainRpcError,
    InvalidParamsError,
    InvalidRangeError,
    PruneIdNotFoundError,
)
from mcp_pruner_server.http.openai_tools import openai_function_specs
from mcp_pruner_server.jsonrpc import rest_error
from mcp_pruner_server.jsonsafe import dumps, dumps_bytes, strict_loads
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher, ToolReply
from mcp_pruner_server.tools.schemas import TOOLS_BY_NAME

# The tool error code that maps to 504 rather than to a 200 result.
TIMEOUT_CODE = "timeout"
_ENVELOPE_FIELDS = frozenset({"tool", "params"})


@dataclass(frozen=True)
class ExecuteAnswer:
    """An HTTP status and a complete, strict-JSON body."""

    status: int
    body: bytes


def _error(status: int, code: str, message: str, field_errors: object | None = None) -> ExecuteAnswer:
    return ExecuteAnswer(status, dumps_bytes(rest_error(code, message, field_errors)))


def _parse_envelope(body: bytes) -> tuple[str, object] | ExecuteAnswer:
    """`(tool, params)` from the body, or the 400 answer saying what is wrong with it."""
    try:
        message = strict_loads(body)  # strict in as well as out: NaN/Infinity are not JSON
    except (ValueError, UnicodeDecodeError) as exc:
        return _error(400, "invalid_json", f"the body is not JSON: {exc}")
    if not isinstance(message, dict):
        return _error(400, "invalid_request", 'expected {"tool": NAME, "params": {...}}')
    problems = [(key, "unknown field") for key in message if key not in _ENVELOPE_FIELDS]
    tool = message.get("tool")
    if not isinstance(tool, str) or not tool:
        problems.append(("tool", "is required: a tool name from GET /tools"))
    params = message.get("params", {})
    if params is None:
        params = {}
    if not isinstance(params, dict):
        problems.append(("params", "must be an object"))
    if problems:
        field_errors = [{"field": f, "message": m} for f, m in problems]
        return _error(400, "invalid_request", "; ".join(f"{f}: {m}" for f, m in problems), field_errors)
    assert isinstance(tool, str)
    return tool, params


def _domain_error(tool: str, exc: DomainRpcError) -> ExecuteAnswer:
    data = {k: v for k, v in exc.data.items() if k not in ("code", "field_errors")}
    if isinstance(exc, InvalidParamsError):
        field_errors = exc.data.get("field_errors")
        if tool not in TOOLS_BY_NAME:
            message = f"unknown tool {tool!r}; see GET /tools"
            return _error(404, "unknown_tool", message, [{"field": "tool", "message": message}])
        return _error(400, "invalid_params", exc.message, field_errors)
    if isinstance(exc, PruneIdNotFoundError | InvalidRangeError):
        status = 404 if isinstance(exc, PruneIdNotFoundError) else 400
        return ExecuteAnswer(status, dumps_bytes(rest_error(exc.code, str(exc), data=data)))
    return ExecuteAnswer(500, dumps_bytes(rest_error("internal_error", "internal error", data=data)))


def _assemble(reply: ToolReply) -> ExecuteAnswer:
    # `reply.text` is the result's JSON already made safe by the dispatcher: spliced in as is
    # rather than encoded a second time.
    error = reply.structured.get("error")
    if reply.is_error and isinstance(error, dict) and error.get("code") == TIMEOUT_CODE:
        message = error.get("message")
        timeout = dumps(
            rest_error(TIMEOUT_CODE, message if isinstance(message, str) else "the tool timed out")
        )
        # `{ok: false, error}` with the partial output as `result`, before its closing brace.
        return ExecuteAnswer(504, f'{timeout[:-1]}, "result": {reply.text!s}}}'.encode())
    flag = "true" if reply.is_error else "false"
    return ExecuteAnswer(200, f'{{"ok": true, "is_error": {flag}, "result": {reply.text!s}}}'.encode())


class ExecuteEndpoint:
    """Answers `GET /tools` and `POST /execute`; one instance per server."""

    def __init__(self, dispatcher: ToolDispatcher) -> None:
        self._dispatcher = dispatcher
        self._tools_body = dumps_bytes({"tools": openai_function_specs()})

    def tools(self) -> bytes:
        """The `GET /tools` body (computed once: the specs never change while serving)."""
        return self._tools_body

    async def execute(self, body: bytes) -> ExecuteAnswer:
        """Answer one `POST /execute` body; never raises (a bug becomes a 500 answer)."""
        # A prune_text of a whole log is megabytes of JSON: parsed off the loop (offload.py).
        envelope = await run_off_loop_if_large(functools.partial(_parse_envelope, body), len(body))
        if isinstance(envelope, ExecuteAnswer):
            return envelope
        tool, params = envelope
        try:
            reply = await self._dispatcher.call(tool, params)
        except DomainRpcError as exc:
            return _domain_error(tool, exc)
        return await run_off_loop_if_large(functools.partial(_assemble, reply), len(reply.text))
