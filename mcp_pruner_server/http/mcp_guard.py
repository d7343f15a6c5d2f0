"""Checks in front of the MCP SDK on `/mcp`, so it answers malformed requests as `/rpc` does.

The SDK (stateless JSON mode) takes a request whose `id` is `true`, `1.5`, `[]`, `{}`, `1e300`
or `null` for a notification and answers 202 with no body; `/rpc` answers the first five with
-32600 and a null id (JSON-RPC 2.0 §4: an id is a string, a number without fraction, or null).
Here the same rule runs before the SDK sees the body, plus MCP's own (an MCP request id "MUST
NOT be null"): such a request gets HTTP 400 (the SDK's status for an invalid JSON-RPC message)
with the JSON-RPC error `/rpc` would send.

What remains the SDK's or the HTTP layer's (documented in the README): a `Content-Type` other
than JSON is refused earlier by `SecurityMiddleware` (415, JSON-RPC); a malformed request line
or `Content-Length` never reaches the app: `connections.py` answers that 400 in JSON-RPC too.
"""

from __future__ import annotations

import functools

from starlette.types import ASGIApp, Receive, Scope, Send

from mcp_pruner_server.http.asgi import replay_message, send_json
from mcp_pruner_server.jsonrpc import INVALID_REQUEST, rpc_error
from mcp_pruner_server.jsonsafe import strict_loads
from mcp_pruner_server.offload import run_off_loop_if_large

# The SDK's status for an invalid JSON-RPC message on the Streamable HTTP transport.
INVALID_REQUEST_STATUS = 400
INVALID_ID_MESSAGE = "Invalid Request: an MCP request 'id' must be a string or an integer"


def is_valid_request_id(value: object) -> bool:
    """MCP's rule for a request id: a string or an integer (not a boolean); `/rpc` also takes null."""
    return isinstance(value, str | int) and not isinstance(value, bool)


def has_invalid_id(message: object) -> bool:
    """Whether `message` (a request or a batch of them) holds an object whose `id` is invalid."""
    items = message if isinstance(message, list) else [message]
    return any(
        isinstance(item, dict) and "id" in item and not is_valid_request_id(item["id"]) for item in items
    )


class McpGuard:
    """Wraps the `/mcp` ASGI endpoint: refuses invalid ids before the SDK reads the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        # SecurityMiddleware buffered the body into one message; look at it, then hand it on.
        message = await receive()
        body = message.get("body", b"") if message["type"] == "http.request" else b""
        replay = replay_message(message, receive)
        if b'"id"' in body and await _has_invalid_id(body):
            await send_json(
                send, INVALID_REQUEST_STATUS, rpc_error(None, INVALID_REQUEST, INVALID_ID_MESSAGE)
            )
            return
        await self.app(scope, replay, send)


async def _has_invalid_id(body: bytes) -> bool:
    try:
        message = await run_off_loop_if_large(functools.partial(strict_loads, body), len(body))
    except ValueError:
        return False  # not JSON: the SDK answers its own -32700
    return has_invalid_id(message)
