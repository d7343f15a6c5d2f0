"""The ASGI app uvicorn serves from the moment the socket listens, before the full app is built.

The full app (`app.py`: Starlette, the dispatcher, the pruning engine, the gateway, the tools'
process layer) takes about as long to import and build as the rest of the start-up together,
and neither the runner's readiness probe nor a client's handshake needs it. So `serve.py`
listens with this app, which imports only the request guard and the handshake's core:

- `GET /healthz` and `/mcp`'s handshake (`mcp_handshake.py`: `initialize`, `tools/list`, …)
  are answered here, behind the same request guard as every route, with the answers the full
  app gives them;
- once the ready line is out (`start_loading()`), the full app is built in a thread, its
  lifespan entered (the engine's warm-up starts there) and the MCP SDK's load begun; the
  client name an `initialize` gave meanwhile is handed to its dispatcher;
- every other request waits for the full app (bounded by `LOAD_TIMEOUT_S`), then goes to it,
  as does every request once it is built.

A server told to stop while the full app is still being built does not wait for its imports:
they run in a daemon thread that the shutdown abandons.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from starlette.types import Receive, Scope, Send

from mcp_pruner_server import SERVER_NAME, __version__
from mcp_pruner_server.http.asgi import replay_body, send_json
from mcp_pruner_server.http.mcp_handshake import answer_handshake
from mcp_pruner_server.http.request_guard import SecurityMiddleware
from mcp_pruner_server.jsonrpc import refusal
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.offload import in_abandoned_thread
from mcp_pruner_server.settings import ServerSettings

if TYPE_CHECKING:
    from starlette.applications import Starlette

# Building the full app takes < 1 s on a busy laptop; 20 s means it is broken, not slow.
LOAD_TIMEOUT_S: Final = 20.0
LOADING_EVENT: Final = "mcp_pruner.app_loading"
LOADED_EVENT: Final = "mcp_pruner.app_loaded"

# What builds the full app, given when the server started (`serve.build_full_app`).
AppBuilder = Callable[[datetime, float], "Starlette"]


def liveness(started_at: datetime, started_monotonic: float) -> dict[str, object]:
    """`GET /healthz`'s body (docs/http.md#health-routes), the same from this app and the full one."""
    return {
        "ok": True,
        "status": "ok",
        "server": {"name": SERVER_NAME, "version": __version__},
        "time": {
            "started_at": started_at.isoformat(timespec="milliseconds"),
            "uptime_ms": round((time.monotonic() - started_monotonic) * 1000),
        },
    }


class StartupApp:
    """Serves `/healthz` and `/mcp`'s handshake at once, and the full app once it is built."""

    def __init__(self, settings: ServerSettings, build: AppBuilder) -> None:
        self._build = build
        self.started_at = datetime.now(UTC)
        self.started_monotonic = time.monotonic()
        self.full_app: Starlette | None = None
        self._guarded = SecurityMiddleware(
            self._answer_early,
            token=settings.token,
            max_body_bytes=settings.max_body_bytes,
            check_host=settings.loopback,
        )
        self._client_name: object = None
        self._loader: asyncio.Task[None] | None = None
        self._built = asyncio.Event()  # set once the full app serves, or failed to build
        self._stop = asyncio.Event()

    def start_loading(self) -> None:
        """Begin building the full app (`serve.py` calls it once the ready line is out). Idempotent."""
        if self._loader is None:
            self._loader = asyncio.get_running_loop().create_task(self._load())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif self.full_app is not None:
            await self.full_app(scope, receive, send)
        elif scope["type"] == "http" and (
            (scope["path"] == "/healthz" and scope["method"] == "GET")
            or (scope["path"] == "/mcp" and scope["method"] == "POST")
        ):
            await self._guarded(scope, receive, send)
        else:
            await self._when_built(scope, receive, send)

    async def _answer_early(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Behind the guard: `/healthz`, or a `/mcp` request (its body buffered by the guard)."""
        if scope["path"] == "/healthz":
            await send_json(send, 200, liveness(self.started_at, self.started_monotonic))
            return
        message = await receive()
        body = message.get("body", b"") if message["type"] == "http.request" else b""
        if await answer_handshake(scope, body, send, on_initialize=self._initialized):
            return
        await self._when_built(scope, replay_body(body, receive), send)

    def _initialized(self, client_name: object) -> None:
        self._client_name = client_name
        if self.full_app is not None:
            self.full_app.state.parts.dispatcher.client_initialized(client_name)

    async def _when_built(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Wait for the full app (start building it if nothing did), then hand it the request.

        A request the guard already let through goes through the full app's guard too: the
        same checks, on a body replayed from memory."""
        self.start_loading()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._built.wait(), LOAD_TIMEOUT_S)
        if self.full_app is None:
            if scope["type"] == "http":
                why = "Internal error: the server's routes did not load; /healthz still answers"
                await send_json(send, 500, refusal(scope["path"], 500, why))
            return
        await self.full_app(scope, receive, send)

    async def _load(self) -> None:
        log_event(LOADING_EVENT)
        began = time.perf_counter()
        try:
            build = functools.partial(self._build, self.started_at, self.started_monotonic)
            app = await in_abandoned_thread(build, name="jeeves-app-load")
        except Exception:  # /healthz and the handshake still answer; the rest says why
            log_exception("mcp_pruner.load_failed")
            self._built.set()
            return
        async with app.router.lifespan_context(app):
            app.state.parts.dispatcher.client_initialized(self._client_name)
            self.full_app = app
            self._built.set()
            app.state.mcp.start_loading()  # the SDK, once the routes serve
            log_event(LOADED_EVENT, load_ms=round((time.perf_counter() - began) * 1000, 1))
            await self._stop.wait()

    async def aclose(self) -> None:
        """Leave the full app's lifespan (its engine workers, its ledger), or abandon its build."""
        if self._loader is None:
            return
        if self.full_app is None:
            self._loader.cancel()
        self._stop.set()
        with contextlib.suppress(asyncio.CancelledError):
            await self._loader

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        """uvicorn's lifespan: nothing to start (that waits for `start_loading()`); `aclose()`
        at shutdown."""
        await receive()  # lifespan.startup
        await send({"type": "lifespan.startup.complete"})
        await receive()  # lifespan.shutdown
        await self.aclose()
        await send({"type": "lifespan.shutdown.complete"})
