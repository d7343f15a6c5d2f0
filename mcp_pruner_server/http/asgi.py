"""Raw ASGI helpers shared by the request guard and the `/mcp` wrappers, which answer or
look at a request before Starlette routes it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from starlette.responses import JSONResponse, Response
from starlette.types import Message, Receive, Scope, Send

from mcp_pruner_server.jsonsafe import dumps_bytes, rpc_dumps_bytes


class SafeJSONResponse(JSONResponse):
    """Starlette's `JSONResponse`, rendered through `jsonsafe.sanitize()`."""

    def render(self, content: object) -> bytes:
        return dumps_bytes(content)


class ChunkedJSONResponse(Response):
    """A JSON body already cut in chunks (`jsonsafe.dumps_chunks`), sent one `http.response.body`
    message per chunk, with its whole `content-length`: the event loop writes a chunk at a time
    (one 70 MB write held it ~100 ms copying the unsent rest) and no step joins the body."""

    media_type = "application/json"

    def __init__(self, chunks: Sequence[bytes], status_code: int = 200) -> None:
        self._chunks = chunks
        super().__init__(None, status_code)
        self.headers["content-length"] = str(sum(map(len, chunks)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        last = len(self._chunks) - 1
        for index, chunk in enumerate(self._chunks):
            await send({"type": "http.response.body", "body": chunk, "more_body": index < last})


async def send_json_body(
    send: Send, status: int, body: bytes, extra_headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Send a complete `application/json` response."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *extra_headers,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def send_json(
    send: Send, status: int, payload: object, extra_headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Send `payload` (an error reply of `jsonrpc.py`) as strict JSON, a JSON-RPC `id` exactly."""
    await send_json_body(send, status, rpc_dumps_bytes(payload), extra_headers)


def replay_message(message: Message, receive: Receive) -> Receive:
    """A `receive` that yields `message` (already received) once, then defers to the real one."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return message
        return await receive()

    return replay


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A `receive` that yields `body` as one complete request message, then defers to the real one."""
    return replay_message({"type": "http.request", "body": body, "more_body": False}, receive)
