"""`POST /api/mcp-gateway/{server_name}/rpc`, mounted on the server's Starlette app.

`install_gateway(app, parts)` (one line in `http/app.build_app`) adds the route behind the same
`SecurityMiddleware` as `/rpc` (bearer token, Host/Origin, body limit), shares the server's
recovery store and pruning service, and closes the gateway's pooled HTTP client when the
app's lifespan ends. The gateway's configuration is loaded here from the environment and
the TOML config the server read once (`ServerParts.toml`); an invalid value logs
`mcp_pruner.config_invalid` and the gateway serves with no upstream (every call answers
`gateway_unknown_server` naming the fix).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from mcp_pruner_server.errors import ConfigError
from mcp_pruner_server.gateway.config import GatewayConfig, load_gateway_config
from mcp_pruner_server.gateway.forward import UpstreamClient
from mcp_pruner_server.gateway.service import GatewayService
from mcp_pruner_server.logs import log_event

if TYPE_CHECKING:
    from mcp_pruner_server.server_parts import ServerParts

GATEWAY_PATH: Final = "/api/mcp-gateway/{server_name}/rpc"


def gateway_config(parts: ServerParts, env: Mapping[str, str]) -> GatewayConfig:
    """The gateway's config from `env` and the TOML the server read once (`parts.toml`, so
    the file's warnings are not logged twice); the empty config if invalid or unreadable."""
    if parts.toml is None:
        return GatewayConfig()  # the unreadable file was logged as config_invalid when read
    try:
        return load_gateway_config(env, parts.toml)
    except ConfigError as exc:
        log_event("mcp_pruner.config_invalid", level="error", variable=exc.variable, expected=exc.expected)
        return GatewayConfig()


def install_gateway(
    app: Starlette,
    parts: ServerParts,
    *,
    env: Mapping[str, str] | None = None,
    config: GatewayConfig | None = None,
) -> GatewayService:
    """Mount the gateway route on `app` and tie its HTTP client to the app's lifespan."""
    if config is None:
        config = gateway_config(parts, os.environ if env is None else env)
    gateway = GatewayService(config, parts.service, UpstreamClient(config))
    app.router.routes.append(Route(GATEWAY_PATH, post_gateway, methods=["POST"]))
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(scope_app: Starlette) -> AsyncIterator[None]:
        try:
            context: AbstractAsyncContextManager[None] = inner(scope_app)  # type: ignore[assignment]
            async with context:
                yield
        finally:
            await gateway.aclose()

    app.router.lifespan_context = lifespan
    app.state.gateway = gateway
    return gateway


async def post_gateway(request: Request) -> Response:
    """`POST /api/mcp-gateway/{server_name}/rpc`: the `GatewayService` in `app.state.gateway`."""
    gateway: GatewayService = request.app.state.gateway
    server = request.path_params["server_name"]
    answer = await gateway.handle(server, await request.body(), request.headers)
    headers = dict(answer.headers)
    if answer.body is None:
        return Response(status_code=answer.status, headers=headers)
    return Response(answer.body, answer.status, headers, media_type="application/json")
