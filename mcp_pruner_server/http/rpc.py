"""`POST /rpc`: plain JSON-RPC 2.0 over the same dispatcher as `/mcp` (docs/http.md#post-rpc).

For `curl` and simple clients: `initialize`, `notifications/*` (202, no
body), `ping`, `tools/list`, `tools/call`, empty `resources/list`,
`resources/templates/list`, `prompts/list`, and the legacy `health` method. Batches are
answered in order (notifications left out). Every failure is a JSON-RPC error object
(`jsonrpc.py`): parse error, invalid request, unknown method, invalid params (`field_errors`),
the recovery errors, internal error. Answers are strict JSON (`jsonsafe.py`): a
NaN echoed in an error, a lone surrogate, an integer beyond 2^53 come back safe (an integer
request `id` is echoed exactly: clients match answers by it).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from mcp_pruner_server.errors import (
    InvalidParamsError,
    InvalidRequestError,
)
from mcp_pruner_server.http.responses import ChunkedJSONResponse
from mcp_pruner_server.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    domain_rpc_error,
    rpc_error,
)
from mcp_pruner_server.jsonsafe import rpc_dumps_bytes, rpc_dumps_chunks, strict_loads
from mcp_pruner_server.logs import log_event
from mcp_pruner_server.offload import run_off_loop_if_large
from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher, new_request_id
from mcp_pruner_server.pipeline.states import RequestTrace, Trigger
from mcp_pruner_server.protocol import answer_text_size, initialize_result
from mcp_pruner_server.rpc_methods import Handler, answer, mcp_methods
from mcp_pruner_server.tools.outcome import JsonObject

# A batch is a convenience, not a way to run a thousand tool calls in one request.
MAX_BATCH_LENGTH = 100


@dataclass(frozen=True)
class RpcAnswer:
    """What the HTTP route sends: a status and a JSON body in chunks, or 202 with no body."""

    status: int
    chunks: list[bytes] | None

    @property
    def body(self) -> bytes | None:
        """The whole body (joined: for small answers and tests)."""
        return None if self.chunks is None else b"".join(self.chunks)


def _encode(status: int, payload: object) -> RpcAnswer:
    return RpcAnswer(status, rpc_dumps_chunks(payload))


def _parse_failed(exc: Exception) -> RpcAnswer:
    """The -32700 answer; the request's trace ends in `req:invalid_request` (`tool.request_parse_failed`)."""
    trace = RequestTrace(new_request_id(), "-")  # no tool: the body never got that far
    trace.advance(Trigger.PARSE_FAILED, error=str(exc))
    return _encode(200, rpc_error(None, PARSE_ERROR, f"Parse error: {exc}"))


def rpc_request_id(body: bytes) -> str | int | None:
    """The `id` of the single JSON-RPC request in `body`; None for a batch, a notification or junk."""
    try:
        message = strict_loads(body)
    except ValueError:
        return None
    request_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(request_id, bool) or not isinstance(request_id, str | int):
        return None
    return request_id


class RpcEndpoint:
    """Answers `/rpc` bodies; one instance per server."""

    def __init__(self, dispatcher: ToolDispatcher) -> None:
        self._dispatcher = dispatcher
        self._methods: dict[str, Handler] = mcp_methods(
            initialize=self._initialize, tools_list=self._tools_list, tools_call=self._tools_call
        )
        self._methods["health"] = self._health

    async def handle(self, body: bytes) -> RpcAnswer:
        """Answer one HTTP body (a request, a notification or a batch); never raises."""
        # A big body (a prune_text of a whole log) is parsed, and its answer encoded, in a
        # worker thread: megabytes of JSON would stall /healthz and every other request.
        try:
            message = await run_off_loop_if_large(functools.partial(strict_loads, body), len(body))
        except ValueError as exc:  # UnicodeDecodeError is a ValueError
            return _parse_failed(exc)
        if isinstance(message, list):
            if not message or len(message) > MAX_BATCH_LENGTH:
                invalid = InvalidRequestError(f"a batch holds 1 to {MAX_BATCH_LENGTH} requests")
                return _encode(200, domain_rpc_error(None, invalid))
            answers = [a for a in [await self._one(m) for m in message] if a is not None]
            return await self._encode(answers) if answers else RpcAnswer(202, None)
        answer = await self._one(message)
        return RpcAnswer(202, None) if answer is None else await self._encode(answer)

    async def _encode(self, payload: JsonObject | list[JsonObject]) -> RpcAnswer:
        items = payload if isinstance(payload, list) else [payload]
        size = sum(answer_text_size(item) for item in items)
        return await run_off_loop_if_large(functools.partial(_encode, 200, payload), size)

    async def _one(self, message: object) -> JsonObject | None:
        if not isinstance(message, Mapping):
            return rpc_error(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")
        has_id = "id" in message
        request_id = message.get("id")
        method = message.get("method")
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            reason = "'jsonrpc' must be \"2.0\" and 'method' a string"
            return rpc_error(request_id if has_id else None, INVALID_REQUEST, f"Invalid Request: {reason}")
        if has_id and (isinstance(request_id, bool) or not isinstance(request_id, str | int | None)):
            return rpc_error(
                None, INVALID_REQUEST, "Invalid Request: 'id' must be a string, a number or null"
            )
        if not has_id:
            if method.startswith("notifications/"):
                log_event("rpc.notification", method=method)
            return None  # a notification is never answered, even when unknown
        params = message.get("params", {})
        params = {} if params is None else params
        return await answer(self._methods, request_id, method, params, event="rpc.internal_error")

    async def _initialize(self, params: Mapping[str, object]) -> JsonObject:
        client = params.get("clientInfo")
        if isinstance(client, Mapping):
            self._dispatcher.client_initialized(client.get("name"))
        return initialize_result(params)

    async def _tools_list(self, _params: Mapping[str, object]) -> JsonObject:
        return {"tools": self._dispatcher.list_tools()}

    async def _tools_call(self, params: Mapping[str, object]) -> JsonObject:
        name = params.get("name")
        if not isinstance(name, str) or not name:
            raise InvalidParamsError([("name", "is required (the tool to call)")])
        reply = await self._dispatcher.call(name, params.get("arguments"))
        return reply.to_result()

    async def _health(self, _params: Mapping[str, object]) -> JsonObject:
        return self._dispatcher.service.health()


# -- the route ------------------------------------------------------------------------------

_SHUTDOWN_MESSAGE = "Server shutting down: the request outlived the shutdown grace period"


def _rpc_endpoint(request: Request) -> RpcEndpoint:
    endpoint: RpcEndpoint = request.app.state.rpc
    return endpoint


async def post_rpc(request: Request) -> Response:
    """`POST /rpc`: plain JSON-RPC 2.0 (`rpc.py`)."""
    body = await request.body()
    try:
        answer = await _rpc_endpoint(request).handle(body)
    except asyncio.CancelledError:
        # uvicorn cancels what is still running when the SIGTERM grace runs out; the
        # tool's processes are already killed, and the caller still gets a JSON-RPC answer.
        log_event("rpc.cancelled_by_shutdown", level="warning")
        return Response(shutdown_error(body), status_code=503, media_type="application/json")
    if answer.chunks is None:
        return Response(status_code=answer.status)
    return ChunkedJSONResponse(answer.chunks, answer.status)


def shutdown_error(body: bytes) -> bytes:
    """The 503 JSON-RPC answer to a request cancelled at shutdown, with its `id` when it had one.

    Only at shutdown: the body is parsed again rather than threading its id through every call.
    """
    return rpc_dumps_bytes(rpc_error(rpc_request_id(body), INTERNAL_ERROR, _SHUTDOWN_MESSAGE))
