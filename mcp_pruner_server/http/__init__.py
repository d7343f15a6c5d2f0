"""The HTTP layer: the Starlette app, its routes, the guard in front of them, and the wire formats.

| module | holds |
|---|---|
| `startup_app.py` | what serves once the socket listens: `/healthz`, `/mcp`'s handshake, then the full app |
| `app.py` | `build_app`: the routes, the request guard, the lifespan and `app.state` wired |
| `routes.py` | the route handlers, reading what they serve from `request.app.state` |
| `request_guard.py` | Host/Origin, bearer token, content type and body size, before any route |
| `asgi.py` | raw ASGI helpers: send a JSON body, replay a buffered one |
| `responses.py` | Starlette responses in strict JSON: `SafeJSONResponse`, `ChunkedJSONResponse` |
| `rpc.py` | `POST /rpc`: plain JSON-RPC 2.0 |
| `mcp_transport.py` | `POST /mcp`: MCP Streamable HTTP through the SDK (stdio shares its server) |
| `mcp_handshake.py` | `/mcp`'s handshake answered by the project's own core while the SDK loads |
| `mcp_guard.py` | the id checks in front of the SDK on `/mcp` |
| `execute.py` | `GET /tools` and `POST /execute` |
| `openai_tools.py` | the tools as OpenAI `function` specs (`GET /tools`) |
| `connections.py` | uvicorn's connections bounded: header timeout, connection cap, fd limit |

The routes and their errors are documented in docs/http.md; the error replies and codes are
`mcp_pruner_server/jsonrpc.py` and the config loaders' URL check `mcp_pruner_server/urls.py`, below
this package (the gateway and stdio answer with them too, and `errors.py` takes its codes there).
Nothing is imported here.
"""
