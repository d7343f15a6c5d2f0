"""Fake pruning backends: the shared raw HTTP server (`raw_http`) with the answers a
backend test wants, on `/prune` unless told otherwise, and the timing bounds of the fault tests."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import ModuleType

import anyio
import httpx
import pytest
from anyio.abc import SocketStream

from mcp_pruner_server.errors import BackendError, BackendTimeoutError
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
    "CLIENT_TIMEOUT_S",
    "MARGIN_S",
    "TIMEOUT_MS",
    "Behaviour",
    "Request",
    "accept_never_read",
    "answer",
    "answer_with",
    "fails_within_timeout",
    "hang_up_mid_body",
    "never_answer",
    "raw",
    "record_render_threads",
    "refused_url",
    "serve",
    "stall_body",
]

DEFAULT_PATH = "/prune"
# The backend's own bound in the fault tests.
TIMEOUT_MS = 300
# Scheduling slack on a loaded 2-core machine (plus the heuristic fallback itself, where one
# runs). Still meaningful: the faulty servers never answer and the client's own timeout is
# CLIENT_TIMEOUT_S, so only the backend's bound can end the call before TIMEOUT_MS + MARGIN_S.
MARGIN_S = 5.0
CLIENT_TIMEOUT_S = 60.0


def answer(status: int, payload: object) -> Behaviour:
    """Answer every request with `payload` as JSON."""
    return raw(status, json.dumps(payload).encode())


def answer_with(make: Callable[[Request], object]) -> Behaviour:
    """Answer 200 with `make(request)` as JSON (e.g. an echo of the input)."""

    async def behave(request: Request, stream: SocketStream) -> None:
        await stream.send(http_response(200, json.dumps(make(request)).encode()))

    return behave


async def stall_body(_: Request, stream: SocketStream) -> None:
    """Send the headers and the first body byte of a 1000-byte body, then nothing more."""
    await stream.send(http_response(200, b"{" + b" " * 999)[:-999])
    await anyio.sleep_forever()


def serve(behaviour: Behaviour, path: str = DEFAULT_PATH) -> AbstractAsyncContextManager[RawServer]:
    """A server answering every request on 127.0.0.1:<free port> with `behaviour`."""
    return raw_http.serve(behaviour, path)


def refused_url(path: str = DEFAULT_PATH) -> str:
    """A URL on a port nothing listens on: bound then closed, so the kernel answers RST."""
    return raw_http.refused_url(path)


@asynccontextmanager
async def accept_never_read(path: str = DEFAULT_PATH) -> AsyncIterator[str]:
    """A socket that listens (the kernel completes the handshake) but never reads or answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}{path}"


async def fails_within_timeout(
    prune: Callable[[httpx.AsyncClient], Awaitable[object]],
    expected: type[BackendError],
    timeout_ms: int = TIMEOUT_MS,
) -> BackendError:
    """The `expected` error `prune(client)` raises before `timeout_ms` + MARGIN_S (the bound
    `prune` gave its backend); a timeout must also have waited (about) `timeout_ms`."""
    async with httpx.AsyncClient(timeout=CLIENT_TIMEOUT_S) as client:
        started = time.monotonic()
        with anyio.fail_after(timeout_ms / 1000 + MARGIN_S), pytest.raises(expected) as caught:
            await prune(client)
        elapsed = time.monotonic() - started
    if expected is BackendTimeoutError:
        assert elapsed >= timeout_ms / 1000 * 0.9
    return caught.value


def record_render_threads(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> list[bool]:
    """Spy on `module.build_result` (the real renderer runs): one entry per call, True when it
    ran on the main thread (the event loop's), False in a worker thread."""
    threads: list[bool] = []
    real_build = module.build_result

    def spy(*args: object, **kwargs: object) -> object:  # a spy: the real renderer runs
        threads.append(threading.current_thread() is threading.main_thread())
        return real_build(*args, **kwargs)

    monkeypatch.setattr(module, "build_result", spy)
    return threads
