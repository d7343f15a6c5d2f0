"""A stand-in MCP server that takes `LIST_DELAY_S` to list its tools: `python slow_listing_server.py`.

The official SDK's low-level server behind its Streamable HTTP manager, under uvicorn, on a
loopback port it prints on stdout. It offers one tool, `read`, answering a fixed text. It stands
for our server on a machine busy enough that listing takes longer than the short time Codex
gives an optional server before its first turn: a load that makes our own server that slow
cannot be produced on demand, a delay can (tests/interop/test_codex_waits_for_jeeves_run.py).
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel.server import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.routing import Mount

# Well past the ~1 s Codex gives an optional server, well within `CODEX_STARTUP_TIMEOUT_SEC`.
LIST_DELAY_S = 4.0
READ_ANSWER = "1 def apply_tax(lines, tax_rate):"
READ_SCHEMA = {
    "type": "object",
    "properties": {"path": {"type": "string"}, "context_focus_question": {"type": "string"}},
    "required": ["path"],
}


async def list_tools(_ctx: ServerRequestContext[Any], _params: Any) -> types.ListToolsResult:
    await anyio.sleep(LIST_DELAY_S)
    # read-only, as ours says: Codex runs it without asking for an approval `codex exec` cannot give
    hints = types.ToolAnnotations(read_only_hint=True)
    tool = types.Tool(name="read", description="Read a file.", input_schema=READ_SCHEMA, annotations=hints)
    return types.ListToolsResult(tools=[tool])


async def call_tool(
    _ctx: ServerRequestContext[Any], _params: types.CallToolRequestParams
) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=READ_ANSWER)])


def main() -> None:
    server: Server[Any] = Server("slow-listing", on_list_tools=list_tools, on_call_tool=call_tool)
    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=True,
        stateless=True,
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    app = Starlette(routes=[Mount("/mcp", app=manager.handle_request)], lifespan=lifespan)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    print(sock.getsockname()[1], flush=True)
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
