"""The Starlette application: routes, the security guard around them, and the lifespan.

| route | what |
|---|---|
| `POST /mcp` | MCP Streamable HTTP via the SDK (stateless, JSON) — `mcp_transport.py` |
| `POST /rpc` | plain JSON-RPC 2.0 on the same dispatcher — `rpc.py` |
| `GET /healthz` | liveness for the runner: `{ok, status, server, time}` (no token) |
| `GET /health` | the health object (docs/http.md#health-routes, no token) |
| `POST /prune` | SWE-Pruner-compatible pruning — `swe_pruner_compat.py` |
| `GET /stats` | run totals for the runner's end-of-run summary |
| `GET /tools` | the tools as OpenAI `function` specs — `execute.py` |
| `POST /execute` | `{tool, params}` through the same pipeline as `tools/call` — `execute.py` |
| `POST /api/mcp-gateway/{server_name}/rpc` | gateway to other MCP servers, masking — `gateway/` |

Every body is strict JSON (`jsonsafe.py`): the routes here answer with `SafeJSONResponse`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mcp_pruner_server import SERVER_NAME, __version__
from mcp_pruner_server.gateway import install_gateway
from mcp_pruner_server.http.execute import ExecuteEndpoint
from mcp_pruner_server.http.jsonrpc import (
    EXECUTE_PATH,
    INTERNAL_ERROR,
    TOOLS_PATH,
    refusal,
    rest_error,
    rpc_error,
)
from mcp_pruner_server.http.mcp_guard import McpGuard
from mcp_pruner_server.http.mcp_transport import McpEndpoint
from mcp_pruner_server.http.request_guard import SecurityMiddleware
from mcp_pruner_server.http.rpc import RpcEndpoint, rpc_request_id
from mcp_pruner_server.jsonsafe import SafeJSONResponse, rpc_dumps_bytes
from mcp_pruner_server.logs import log_event, log_exception
from mcp_pruner_server.server_parts import ServerParts
from mcp_pruner_server.swe_pruner_compat import handle_prune_request

_SHUTDOWN_MESSAGE = "Server shutting down: the request outlived the shutdown grace period"


def shutdown_error(body: bytes) -> bytes:
    """The 503 JSON-RPC answer to a request cancelled at shutdown, with its `id` when it had one.

    Only at shutdown: the body is parsed again rather than threading its id through every call.
    """
    return rpc_dumps_bytes(rpc_error(rpc_request_id(body), INTERNAL_ERROR, _SHUTDOWN_MESSAGE))


_ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def _method_not_allowed(allowed: str) -> Response:
    body = rest_error("method_not_allowed", f"use {allowed}")
    return SafeJSONResponse(body, status_code=405, headers={"allow": allowed})


def http_refusal_response(path: str, status: int, allow: str | None) -> Response:
    """A 404/405 in JSON: `{ok: false, error}` on the REST routes, a JSON-RPC error elsewhere
    (`jsonrpc.refusal`, as the request guard's refusals)."""
    message = f"Method Not Allowed: use {allow}" if status == 405 else f"Not Found: no route {path!r}"
    headers = {"allow": allow} if status == 405 and allow else None
    return SafeJSONResponse(refusal(path, status, message), status_code=status, headers=headers)


def build_app(parts: ServerParts) -> Starlette:
    """The ASGI app; run it under uvicorn (`serve.py`) or in-process with httpx.ASGITransport."""
    mcp = McpEndpoint(parts.dispatcher, max_body_bytes=parts.settings.max_body_bytes)
    rpc = RpcEndpoint(parts.dispatcher)
    execute = ExecuteEndpoint(parts.dispatcher)

    async def healthz(_request: Request) -> Response:
        return SafeJSONResponse(
            {
                "ok": True,
                "status": "ok",
                "server": {"name": SERVER_NAME, "version": __version__},
                "time": {
                    "started_at": parts.started_at.isoformat(timespec="milliseconds"),
                    "uptime_ms": round((time.monotonic() - parts.started_monotonic) * 1000),
                },
            }
        )

    async def health(_request: Request) -> Response:
        return SafeJSONResponse(parts.service.health())

    async def rpc_route(request: Request) -> Response:
        body = await request.body()
        try:
            answer = await rpc.handle(body)
        except asyncio.CancelledError:
            # uvicorn cancels what is still running when the SIGTERM grace runs out; the
            # tool's processes are already killed, and the caller still gets a JSON-RPC answer.
            log_event("rpc.cancelled_by_shutdown", level="warning")
            return Response(shutdown_error(body), status_code=503, media_type="application/json")
        if answer.body is None:
            return Response(status_code=answer.status)
        return Response(answer.body, status_code=answer.status, media_type="application/json")

    async def tools_route(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return _method_not_allowed("GET")
        return Response(execute.tools(), media_type="application/json")

    async def execute_route(request: Request) -> Response:
        if request.method != "POST":
            return _method_not_allowed("POST")
        try:
            answer = await execute.execute(await request.body())
        except asyncio.CancelledError:
            log_event("execute.cancelled_by_shutdown", level="warning")
            body = rest_error("shutting_down", "the request outlived the shutdown grace period")
            return SafeJSONResponse(body, status_code=503)
        return Response(answer.body, status_code=answer.status, media_type="application/json")

    async def prune_route(request: Request) -> Response:
        status, payload = await handle_prune_request(parts.service, await request.body())
        return SafeJSONResponse(payload, status_code=status)

    async def stats_route(_request: Request) -> Response:
        snapshot = parts.stats.snapshot()
        snapshot["backend"] = parts.service.backend_name
        snapshot["uptime_ms"] = round((time.monotonic() - parts.started_monotonic) * 1000)
        return SafeJSONResponse(snapshot)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            await tg.start(mcp.run)
            try:
                yield
            finally:
                tg.cancel_scope.cancel()
        await parts.service.aclose()

    async def http_refusal(request: Request, exc: Exception) -> Response:
        # Starlette's own 404 (no route) and 405 (a route, another method) are text/plain:
        # answer them in the shape the path speaks, as SecurityMiddleware's refusals do.
        assert isinstance(exc, HTTPException)
        allow = (exc.headers or {}).get("Allow")
        return http_refusal_response(request.url.path, exc.status_code, allow)

    async def internal_error(request: Request, _exc: Exception) -> Response:
        # Starlette's last resort; every route already answers its own failures, so this
        # only fires on a bug. It still answers in the path's shape (JSON-RPC, or `{ok:
        # false, error}` on /tools and /execute), and the server keeps serving.
        log_exception("http.internal_error")
        return SafeJSONResponse(refusal(request.url.path, 500, "Internal error"), status_code=500)

    app = Starlette(
        exception_handlers={404: http_refusal, 405: http_refusal, Exception: internal_error},
        routes=[
            Route("/mcp", McpGuard(mcp)),  # ids checked as /rpc checks them (mcp_guard.py)
            Route("/rpc", rpc_route, methods=["POST"]),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
            Route("/prune", prune_route, methods=["POST"]),
            Route("/stats", stats_route, methods=["GET"]),
            # Every method reaches these two, so a wrong one gets their JSON error shape.
            Route(TOOLS_PATH, tools_route, methods=_ALL_METHODS),
            Route(EXECUTE_PATH, execute_route, methods=_ALL_METHODS),
        ],
        middleware=[
            Middleware(
                SecurityMiddleware,
                token=parts.settings.token,
                max_body_bytes=parts.settings.max_body_bytes,
                check_host=parts.settings.loopback,
            )
        ],
        lifespan=lifespan,
    )
    app.state.parts = parts
    install_gateway(app, parts)  # POST /api/mcp-gateway/{server_name}/rpc (gateway/routes.py)
    return app
