"""Raw ASGI helpers shared by the request guard and the `/mcp` wrappers, which answer or
look at a request before Starlette routes it.

No Starlette module is imported at run time (its types are aliases): the app that serves from
the moment the socket listens answers with these (`startup_app.py`), before Starlette loads.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import Message, Receive, Send

from mcp_pruner_server.jsonsafe import rpc_dumps_bytes


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
