"""The MCP gateway (docs/http.md#gateway): proxy local MCP servers, mask huge observations recoverably.

| module | what |
|---|---|
| `config.py` | the upstream map (`JEEVES_GATEWAY_SERVERS` over `[gateway.servers]`), timeouts, caps |
| `masking.py` | pure observation masking: head + marker(`id=<prune_id>`) + tail, copy-on-write walk |
| `forward.py` | the I/O edge: one pooled `httpx.AsyncClient`, JSON or SSE replies, errors by cause |
| `sse.py` | the `data` of `text/event-stream` events |
| `replies.py` | pure checks of the caller's request and the upstream's JSON-RPC reply |
| `service.py` | `GatewayService.handle`: forward, check, mask (or prune for a focus question), answer |
| `routes.py` | `install_gateway(app, parts)`: the Starlette route and its lifespan |
| `errors.py` | `GatewayError` and one subclass (one JSON-RPC code) per failure |
"""

from mcp_pruner_server.gateway.config import EXAMPLE_SERVERS, GatewayConfig, load_gateway_config
from mcp_pruner_server.gateway.masking import MaskOptions, mask_response, transform_long_strings
from mcp_pruner_server.gateway.routes import GATEWAY_PATH, install_gateway
from mcp_pruner_server.gateway.service import GatewayAnswer, GatewayService

__all__ = [
    "EXAMPLE_SERVERS",
    "GATEWAY_PATH",
    "GatewayAnswer",
    "GatewayConfig",
    "GatewayService",
    "MaskOptions",
    "install_gateway",
    "load_gateway_config",
    "mask_response",
    "transform_long_strings",
]
