"""Small upstream MCP servers: the shared raw HTTP server (`raw_http`) with the answers a
gateway test wants, on `/rpc` unless told otherwise."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

import anyio
from anyio.abc import SocketStream

from tests.mcp_pruner_server import raw_http
from tests.mcp_pruner_server.raw_http import (
    Behaviour,
    RawServer,
    Request,
    hang_up_mid_body,
    http_response,
    never_answer,
    raw,
)

__all__ = [
    "Behaviour",
    "Request",
    "echo_result",
    "hang_up",
    "hang_up_mid_body",
    "http_response",
    "never_answer",
    "raw",
    "refused_url",
    "serve",
    "sse",
]

DEFAULT_PATH = "/rpc"


def _message(request: Request) -> dict[str, object]:
    message = request.json()
    assert isinstance(message, dict)
    return message


def echo_result(make: Callable[[dict[str, object]], object]) -> Behaviour:
    """A JSON-RPC server: `{"jsonrpc", "id", "result": make(request)}`."""

    async def behave(request: Request, stream: SocketStream) -> None:
        message = _message(request)
        reply = {"jsonrpc": "2.0", "id": message.get("id"), "result": make(message)}
        await stream.send(http_response(200, json.dumps(reply).encode()))

    return behave


def sse(make_events: Callable[[dict[str, object]], list[object]]) -> Behaviour:
    """Answer with an SSE stream of the JSON messages `make_events(request)`, then hold it open."""

    async def behave(request: Request, stream: SocketStream) -> None:
        head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        await stream.send(head.encode())
        for event in make_events(_message(request)):
            chunk = f": keep-alive\n\nevent: message\ndata: {json.dumps(event)}\n\n".encode()
            await stream.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        await anyio.sleep_forever()  # like a server that keeps its stream open

    return behave


async def hang_up(_: Request, stream: SocketStream) -> None:
    """Read the request, close without a byte of answer."""
    await stream.aclose()


def serve(behaviour: Behaviour, path: str = DEFAULT_PATH) -> AbstractAsyncContextManager[RawServer]:
    """An upstream answering every request on 127.0.0.1:<free port> with `behaviour`."""
    return raw_http.serve(behaviour, path)


def refused_url(path: str = DEFAULT_PATH) -> str:
    """A URL on a port nothing listens on: bound then closed, so the kernel answers RST."""
    return raw_http.refused_url(path)
