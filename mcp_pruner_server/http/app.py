"""The Starlette application: `build_app` wires the routes, the request guard and the state.

| route | handler |
|---|---|
| `POST /mcp` | `mcp_transport.McpEndpoint` behind `mcp_guard.McpGuard` (`mcp_handshake.py` before the SDK) |
| `POST /rpc` | `rpc.post_rpc` → `rpc.RpcEndpoint` |
| `GET /healthz`, `GET /health` | `routes.get_healthz`, `routes.get_health` (no token) |
| `POST /prune` | `routes.post_prune` → `swe_pruner_compat.py` |
| `GET /stats` | `routes.get_stats` |
| `GET /tools`, `POST /execute` | `routes.get_tools`, `routes.post_execute` → `execute.ExecuteEndpoint` |
| `POST /api/mcp-gateway/{server_name}/rpc` | `gateway/routes.py` |

The routes are documented in docs/http.md#routes. The handlers are module-level functions
(`routes.py`) reading `app.state`: `parts` (the `ServerParts`), and the endpoints `rpc`,
`execute` and `mcp`, one of each per app.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Route

from mcp_pruner_server.gateway import install_gateway
from mcp_pruner_server.http.execute import ExecuteEndpoint
from mcp_pruner_server.http.mcp_guard import McpGuard
from mcp_pruner_server.http.mcp_transport import McpEndpoint
from mcp_pruner_server.http.request_guard import SecurityMiddleware
from mcp_pruner_server.http.routes import (
    get_health,
    get_healthz,
    get_stats,
    get_tools,
    http_refusal,
    internal_error,
    post_execute,
    post_prune,
)
from mcp_pruner_server.http.rpc import RpcEndpoint, post_rpc
from mcp_pruner_server.jsonrpc import EXECUTE_PATH, TOOLS_PATH
from mcp_pruner_server.server_parts import ServerParts

# Every method reaches `/tools` and `/execute`, so a wrong one gets their JSON error shape.
_ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the engine's workers in the background, and the MCP SDK's loader (it loads once
    `serve.py` says the server serves, or at the first `/mcp` request that needs it); close the
    pruning service at the end."""
    mcp: McpEndpoint = app.state.mcp
    parts: ServerParts = app.state.parts
    async with anyio.create_task_group() as tg:
        await tg.start(mcp.run)
        tg.start_soon(parts.service.warm)
        try:
            yield
        finally:
            tg.cancel_scope.cancel()
    await parts.service.aclose()
    await anyio.to_thread.run_sync(parts.close_ledger)  # its queued calls, bounded by CLOSE_TIMEOUT_S


def build_app(parts: ServerParts) -> Starlette:
    """The ASGI app; run it under uvicorn (`serve.py`) or in-process with httpx.ASGITransport."""
    mcp = McpEndpoint(parts.dispatcher, max_body_bytes=parts.settings.max_body_bytes)
    app = Starlette(
        exception_handlers={404: http_refusal, 405: http_refusal, Exception: internal_error},
        routes=[
            Route("/mcp", McpGuard(mcp)),  # ids checked as /rpc checks them (mcp_guard.py)
            Route("/rpc", post_rpc, methods=["POST"]),
            Route("/healthz", get_healthz, methods=["GET"]),
            Route("/health", get_health, methods=["GET"]),
            Route("/prune", post_prune, methods=["POST"]),
            Route("/stats", get_stats, methods=["GET"]),
            Route(TOOLS_PATH, get_tools, methods=_ALL_METHODS),
            Route(EXECUTE_PATH, post_execute, methods=_ALL_METHODS),
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
    app.state.mcp = mcp
    app.state.rpc = RpcEndpoint(parts.dispatcher)
    app.state.execute = ExecuteEndpoint(parts.dispatcher)
    install_gateway(app, parts)  # POST /api/mcp-gateway/{server_name}/rpc (gateway/routes.py)
    return app
