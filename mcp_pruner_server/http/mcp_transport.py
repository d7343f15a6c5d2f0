"""`POST /mcp`: MCP Streamable HTTP through the official SDK's low-level `Server`, stateless, JSON.

Importing the SDK stack costs ~0.8 s of CPU, more than the rest of the server together, and
neither the runner's readiness probe nor a client's handshake should wait for it
(docs/http.md#ready-line). So the SDK is imported in a worker thread once the server serves
(`serve.py` calls `start_loading()` after its ready line), or at the first request that needs
it: until then `initialize`, `tools/list` and the rest of the handshake are answered by the
project's own core (`mcp_handshake.py`) as the SDK answers them, and so is a plain `tools/call`
(`_call_as_the_sdk`: the dispatcher's reply in the SDK's JSON, byte for byte), as stdio answers
it; any other `/mcp` request waits for the SDK (bounded by `SDK_READY_TIMEOUT_S`).
`McpEndpoint.run()`, entered by the app's lifespan, loads it and then runs the session manager.
A server told to stop while the SDK is still loading does not wait for the import (seconds on a
busy machine): it runs in a daemon thread that the shutdown abandons.

The SDK sees the same `ToolDispatcher` as `/rpc`; domain errors become JSON-RPC errors with
the same codes and data (`MCPError`). What it hands the SDK is already JSON-safe (the
dispatcher's replies, error data through `jsonsafe.sanitize_object`), so the SDK's own pydantic
serialization writes strict JSON too.

A tool result's text block is what the agent's model reads: plain text by default
(`tools/model_text.py`), the result's JSON with `JEEVES_MCP_PRUNER_TEXT_BLOCK=json` (the MCP
spec's SHOULD, for clients that only read text and parse it). A client that sends
`X-Jeeves-Result-View: text` gets results without `structuredContent` and tools without
`outputSchema`: Claude Code 2.1.330 and Codex 0.169 hand their model the JSON of
`structuredContent` whenever a result has one, so that is the only way their model reads the
text block (`jeeves run` sets the header for both).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from anyio.abc import TaskStatus
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mcp_pruner_server import SERVER_NAME, __version__
from mcp_pruner_server.http.asgi import replay_message, send_json, send_json_body
from mcp_pruner_server.http.mcp_handshake import (
    RESULT_VIEW_HEADER,
    RESULT_VIEW_TEXT,
    answer_handshake,
    tool_call_message,
    wants_text_view,
)
from mcp_pruner_server.http.rpc import rpc_request_id
from mcp_pruner_server.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    rpc_error,
)
from mcp_pruner_server.jsonsafe import rpc_dumps_bytes, sanitize_object, strict_loads
from mcp_pruner_server.offload import in_abandoned_thread, run_off_loop_if_large
from mcp_pruner_server.pipeline.dispatcher import ToolDispatcher
from mcp_pruner_server.protocol import (
    JEEVES_SCHEMA_VERSION,
    SERVER_INSTRUCTIONS,
    TextBlock,
    answer_text_size,
    text_block_setting,
    tool_result_text,
)

if TYPE_CHECKING:
    from mcp.server.lowlevel.server import Server
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

# Loading the SDK takes < 1 s on a busy laptop; 20 s means it is broken, not slow.
SDK_READY_TIMEOUT_S = 20.0
T = TypeVar("T")


def build_sdk_server(dispatcher: ToolDispatcher, text_block: TextBlock = "plain") -> Server[Any]:
    """Import the SDK and wire its low-level server to the dispatcher (stdio has its own core:
    `stdio_session.py`)."""
    import mcp_types as types
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel.server import Server
    from mcp.shared.exceptions import MCPError

    from mcp_pruner_server.errors import DomainRpcError

    specs = dispatcher.list_tools()
    tools = [types.Tool.model_validate(spec) for spec in specs]
    # A result without structuredContent must not announce an outputSchema (clients check it).
    text_only_tools = [
        types.Tool.model_validate({k: v for k, v in spec.items() if k != "outputSchema"}) for spec in specs
    ]

    async def list_tools(ctx: ServerRequestContext[Any], _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=text_only_tools if _wants_text_only(ctx) else tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if dispatcher.ledger is not None and dispatcher.ledger.agent is None:
            dispatcher.client_initialized(_client_name(ctx))
        try:
            reply = await dispatcher.call(params.name, params.arguments)
        except DomainRpcError as exc:
            raise MCPError(exc.rpc_code, exc.message, sanitize_object(exc.data)) from exc
        reply = await run_off_loop_if_large(reply.whole, len(reply.text))  # the SDK reads whole strings
        text = await tool_result_text(params.name, reply, text_block)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=None if _wants_text_only(ctx) else reply.structured,
            is_error=reply.is_error,
        )

    async def list_resources(_ctx: ServerRequestContext[Any], _params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[])

    async def list_templates(
        _ctx: ServerRequestContext[Any], _params: Any
    ) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=[])

    async def list_prompts(_ctx: ServerRequestContext[Any], _params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[])

    # There are none to read or get, but the capabilities are declared: an unknown name is an
    # invalid parameter (MCP prompts spec; SEP-2164 for resources), not an unknown method.
    async def read_resource(
        _ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        raise MCPError(INVALID_PARAMS, f"Resource not found: {params.uri}", {"uri": str(params.uri)})

    async def get_prompt(
        _ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        raise MCPError(INVALID_PARAMS, f"Unknown prompt: {params.name}", {"name": params.name})

    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        instructions=SERVER_INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_list_prompts=list_prompts,
        on_read_resource=read_resource,
        on_get_prompt=get_prompt,
    )
    # The default OpenTelemetry middleware opens a span per message even with no exporter;
    # this server has none, and the span costs a measurable share of a 1 ms tools/call.
    server.middleware = []
    return server


def build_session_manager(
    dispatcher: ToolDispatcher, max_body_bytes: int, text_block: TextBlock = "plain"
) -> StreamableHTTPSessionManager:
    """The SDK server behind a stateless JSON Streamable HTTP manager (runs in a worker thread)."""
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from mcp.server.transport_security import TransportSecuritySettings

    return StreamableHTTPSessionManager(
        app=build_sdk_server(dispatcher, text_block),
        json_response=True,
        stateless=True,
        # Host/Origin are checked by SecurityMiddleware for every route, with JSON answers.
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        max_request_body_size=max_body_bytes,
    )


def _client_name(ctx: Any) -> str | None:
    """The `clientInfo.name` behind `ctx`: from `initialize` on stdio, from each request's `_meta`
    envelope on 2026-07-28+ HTTP (Claude Code); None on older stateless HTTP, whose `initialize`
    the endpoint reads itself."""
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    name = getattr(getattr(params, "client_info", None), "name", None)
    return name if isinstance(name, str) else None


def _wants_text_only(ctx: Any) -> bool:
    """True when the HTTP request behind `ctx` carries `X-Jeeves-Result-View: text`."""
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    if headers is None:
        return False
    value = headers.get(RESULT_VIEW_HEADER)
    return isinstance(value, str) and value.strip().lower() == RESULT_VIEW_TEXT


class McpEndpoint:
    """The ASGI app mounted at `/mcp`; `run()` must be running (the app lifespan starts it)."""

    def __init__(
        self, dispatcher: ToolDispatcher, *, max_body_bytes: int, text_block: TextBlock | None = None
    ) -> None:
        self._dispatcher = dispatcher
        self._max_body_bytes = max_body_bytes
        self._text_block = text_block_setting(os.environ) if text_block is None else text_block
        self._ready = anyio.Event()
        self._load = anyio.Event()
        self._app: ASGIApp | None = None
        self._failed: BaseException | None = None

    def start_loading(self) -> None:
        """Begin importing the SDK (once; `run()` must be running). Idempotent."""
        self._load.set()

    @property
    def loaded(self) -> bool:
        """Whether the SDK answers `/mcp` now (False while loading, or if it failed to load)."""
        return self._app is not None

    async def loaded_in_time(self) -> bool:
        """Start loading the SDK if nothing did, wait for it (bounded by `SDK_READY_TIMEOUT_S`):
        whether it answers `/mcp` now."""
        self.start_loading()
        with anyio.move_on_after(SDK_READY_TIMEOUT_S):
            await self._ready.wait()
        return self.loaded

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Once `start_loading()` is called, load the SDK off the loop, enter the session
        manager, and serve until cancelled."""
        from mcp_pruner_server.logs import log_event, log_exception

        task_status.started()
        await self._load.wait()
        try:
            manager = await in_abandoned_thread(
                functools.partial(
                    build_session_manager, self._dispatcher, self._max_body_bytes, self._text_block
                ),
                name="jeeves-mcp-sdk-load",
            )
        except Exception as exc:  # the server still answers /rpc and the health routes
            log_exception("mcp_pruner.sdk_failed")
            self._failed = exc
            self._ready.set()
            return
        from mcp.server.streamable_http_manager import StreamableHTTPASGIApp

        async with manager.run():
            self._app = StreamableHTTPASGIApp(manager)
            self._ready.set()
            log_event("mcp_pruner.sdk_ready")
            await anyio.sleep_forever()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") != "POST":
            # Stateless JSON mode has no standalone SSE stream (GET) and no session (DELETE).
            refused = rpc_error(None, INVALID_REQUEST, "Method Not Allowed: POST JSON-RPC to /mcp")
            await send_json(send, 405, refused, [(b"allow", b"POST")])
            return
        # SecurityMiddleware buffered the body into one message; read it, then hand it on.
        message = await receive()
        body = message.get("body", b"") if message["type"] == "http.request" else b""
        replay = replay_message(message, receive)
        if not self._ready.is_set() and await self._answered_before_the_sdk(scope, body, send):
            return
        if not await self.loaded_in_time() or self._app is None:
            await send_json(
                send, 503, rpc_error(None, INTERNAL_ERROR, "MCP transport unavailable; /rpc still serves")
            )
            return
        if (b"NaN" in body or b"Infinity" in body) and (problem := await _not_strict_json(body)):
            # The SDK's parser takes NaN/Infinity; /rpc and /execute refuse them, so does /mcp.
            await send_json(send, 400, rpc_error(None, PARSE_ERROR, f"Parse error: {problem}"))
            return
        if b'"initialize"' in body and (client := _initialize_client(body)) is not None:
            self._dispatcher.client_initialized(client.get("name"))
            send = _with_jeeves_schema(send)
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._app(scope, replay, tracking_send)
        except asyncio.CancelledError:
            if not started:
                await _outlived_the_grace(send, rpc_request_id(body))

    async def _answered_before_the_sdk(self, scope: Scope, body: bytes, send: Send) -> bool:
        """Answer a handshake request or a plain tool call from the project's core
        (`mcp_handshake.py`); False when `body` is neither, and the SDK must answer it."""
        if await answer_handshake(scope, body, send, on_initialize=self._dispatcher.client_initialized):
            return True
        request = tool_call_message(scope["headers"], body)
        if request is None:
            return False
        params = request["params"]
        assert isinstance(params, dict)
        text_view = wants_text_view(scope["headers"])
        try:
            answer = await self._call_as_the_sdk(request["id"], params, text_view=text_view)
        except asyncio.CancelledError:
            await _outlived_the_grace(send, request["id"])
            return True
        await send_json_body(send, 200, answer)
        return True

    async def _call_as_the_sdk(self, request_id: object, params: dict[str, Any], *, text_view: bool) -> bytes:
        """The SDK's answer to a `tools/call` (`build_sdk_server.call_tool`, its legacy-era JSON
        dump: `pydantic_core`'s, whose floats `json` writes otherwise), from the dispatcher."""
        from mcp_pruner_server.errors import DomainRpcError

        if self._dispatcher.ledger is not None and self._dispatcher.ledger.agent is None:
            self._dispatcher.client_initialized(None)  # as the SDK's handler: no name on stateless HTTP
        name = params["name"]
        outcome: dict[str, object]
        try:
            reply = await self._dispatcher.call(name, params.get("arguments"))
        except DomainRpcError as exc:
            outcome = {
                "error": {"code": exc.rpc_code, "message": exc.message, "data": sanitize_object(exc.data)}
            }
        else:
            reply = await run_off_loop_if_large(reply.whole, len(reply.text))
            text = await tool_result_text(name, reply, self._text_block)
            result: dict[str, object] = {
                "content": [{"text": text, "type": "text"}],
                "isError": reply.is_error,
            }
            if not text_view and reply.structured is not None:
                result["structuredContent"] = reply.structured
            outcome = {"result": result}
        dump = functools.partial(_sdk_json_answer, request_id, outcome)
        return await run_off_loop_if_large(dump, answer_text_size(outcome))


async def _outlived_the_grace(send: Send, request_id: object) -> None:
    """The SIGTERM grace ran out (uvicorn cancels what still runs): answer in JSON-RPC."""
    why = "Server shutting down: the request outlived the grace"
    await send_json(send, 503, rpc_error(request_id, INTERNAL_ERROR, why))


def _sdk_json_answer(request_id: object, outcome: dict[str, object]) -> bytes:
    """`{"jsonrpc":"2.0","id":…,"result"|"error":…}` as the SDK writes it: through `pydantic_core`
    (the SDK's writer: `1e-05` is its `0.00001`), an integer id echoed exactly however large."""
    import pydantic_core

    ((key, value),) = outcome.items()
    echoed = str(request_id).encode() if isinstance(request_id, int) else pydantic_core.to_json(request_id)
    return (
        b'{"jsonrpc":"2.0","id":'
        + echoed
        + b',"'
        + key.encode()
        + b'":'
        + pydantic_core.to_json(value)
        + b"}"
    )


async def _not_strict_json(body: bytes) -> str | None:
    """Why `body` is not strict JSON (`jsonsafe.strict_loads`), or None when it is."""
    try:
        await run_off_loop_if_large(functools.partial(strict_loads, body), len(body))
    except ValueError as exc:
        return str(exc)
    return None


def _initialize_client(body: bytes) -> dict[str, object] | None:
    """The `clientInfo` of an `initialize` request (`{}` without one), or None for any other body."""
    try:
        request = strict_loads(body)  # not json.loads: a too-deep body raised RecursionError (a 500)
    except ValueError:
        return None  # the SDK answers it with its own -32700
    if not isinstance(request, dict) or request.get("method") != "initialize":
        return None
    params = request.get("params")
    client = params.get("clientInfo") if isinstance(params, dict) else None
    return client if isinstance(client, dict) else {}


def _with_jeeves_schema(send: Send) -> Send:
    """Add `jeeves: {schemaVersion}` to an `initialize` result (docs/http.md#post-mcp), as `/rpc` does.

    The SDK builds that result itself; clients ignore unknown fields (pydantic, zod, serde).
    Only a complete JSON answer is rewritten; anything else passes through untouched.
    """
    start: Message | None = None

    async def rewriting_send(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
            return
        if start is None or message["type"] != "http.response.body" or message.get("more_body", False):
            if start is not None:
                await send(start)
                start = None
            await send(message)
            return
        body = message.get("body", b"")
        try:
            answer = json.loads(body)
            answer["result"]["jeeves"] = {"schemaVersion": JEEVES_SCHEMA_VERSION}
            body = rpc_dumps_bytes(answer)
        except (ValueError, KeyError, TypeError):
            pass  # an error answer, or not JSON: leave it as the SDK wrote it
        headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        start = None
        await send({"type": "http.response.body", "body": body})

    return rewriting_send
